// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bounded repetition of race-prone sequences.  Every iteration checks exact
 * results; the iteration counts keep each test well under a second natively
 * (a few seconds under QEMU TCG).
 */
#include "ptrace_util.h"

/* Generous per-test timeouts: QEMU TCG is ~100x slower than native. */
#define LOOP_TIMEOUT	180

FIXTURE(loop) {
	int unused;
};

FIXTURE_SETUP(loop)
{
	fixture_tie_to_parent();
}

FIXTURE_TEARDOWN(loop)
{
}

static int body_syscall_loop(void *arg)
{
	int fd = (int)(long)arg;
	char c;

	/* Busy with syscalls until a byte arrives, then exit 42. */
	fcntl(fd, F_SETFL, O_NONBLOCK);
	for (;;) {
		syscall(SYS_getppid);
		if (read(fd, &c, 1) == 1)
			return 42;
	}
}

static pid_t spawn_looper(int *wfd)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = spawn(body_syscall_loop, (void *)(long)fds[0]);
	close(fds[0]);
	*wfd = fds[1];
	return pid;
}

TEST_F_TIMEOUT(loop, seize_interrupt_detach_busy_tracee_500, LOOP_TIMEOUT)
{
	int wfd, i;
	pid_t pid = spawn_looper(&wfd);

	ASSERT_GT(pid, 0);
	for (i = 0; i < 500; i++) {
		seize_interrupt(_metadata, pid, 0);
		ASSERT_EQ(0, PTRE(PTRACE_DETACH, pid, 0, 0));
	}
	ASSERT_EQ(0, pipe_write_byte(wfd, 'x'));
	EXPECT_EQ(ST_EXITED(42), wstat(pid, WUNTRACED));
}

TEST_F_TIMEOUT(loop, attach_detach_busy_tracee_300, LOOP_TIMEOUT)
{
	int wfd, i;
	pid_t pid = spawn_looper(&wfd);

	ASSERT_GT(pid, 0);
	for (i = 0; i < 300; i++) {
		attach_stop(_metadata, pid);
		ASSERT_EQ(0, PTRE(PTRACE_DETACH, pid, 0, 0));
	}
	/* No SIGSTOP leaked into a group stop. */
	ASSERT_EQ(0, pipe_write_byte(wfd, 'x'));
	EXPECT_EQ(ST_EXITED(42), wstat(pid, WUNTRACED));
}

TEST_F_TIMEOUT(loop, syscall_stops_alternate_1000, LOOP_TIMEOUT)
{
	struct user_regs_struct r;
	int wfd, i, entries = 0, exits = 0;
	pid_t pid = spawn_looper(&wfd);

	ASSERT_GT(pid, 0);
	seize_interrupt(_metadata, pid, PTRACE_O_TRACESYSGOOD);
	for (i = 0; i < 1000; i++) {
		struct ptrace_syscall_info info;

		resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
		ASSERT_LT(0, PTRE(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info),
				  &info));
		ASSERT_EQ(0, get_regs(pid, &r));
		/* Strictly alternating, starting with an entry. */
		if (i % 2 == 0) {
			ASSERT_EQ(PTRACE_SYSCALL_INFO_ENTRY, info.op);
			ASSERT_EQ(-ENOSYS, (long)r.rax);
			ASSERT_EQ(info.entry.nr, r.orig_rax);
			entries++;
		} else {
			ASSERT_EQ(PTRACE_SYSCALL_INFO_EXIT, info.op);
			ASSERT_EQ(info.exit.rval, (long)r.rax);
			exits++;
		}
	}
	ASSERT_EQ(500, entries);
	ASSERT_EQ(500, exits);
	ASSERT_EQ(0, PTRE(PTRACE_DETACH, pid, 0, 0));
	ASSERT_EQ(0, pipe_write_byte(wfd, 'x'));
	EXPECT_EQ(ST_EXITED(42), wstat(pid, 0));
}

TEST_F_TIMEOUT(loop, sigkill_at_random_syscall_stop_100, LOOP_TIMEOUT)
{
	int i, wfd;

	for (i = 0; i < 100; i++) {
		pid_t pid = spawn_looper(&wfd);
		int n;

		ASSERT_GT(pid, 0);
		seize_interrupt(_metadata, pid, PTRACE_O_TRACESYSGOOD);
		for (n = 0; n < i % 7; n++)
			resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
		ASSERT_EQ(0, kill(pid, SIGKILL));
		ASSERT_EQ(ST_KILLED(SIGKILL), wstat(pid, 0));
		close(wfd);
	}
}

TEST_F_TIMEOUT(loop, singlestep_1000_instructions, LOOP_TIMEOUT)
{
	struct user_regs_struct r;
	int wfd, i;
	pid_t pid = spawn_looper(&wfd);

	ASSERT_GT(pid, 0);
	seize_interrupt(_metadata, pid, 0);
	for (i = 0; i < 1000; i++)
		resume_assert(_metadata, pid, PTRACE_SINGLESTEP, 0, ST_STOPPED(SIGTRAP));
	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(0UL, r.eflags & 0x100);
	ASSERT_EQ(0, PTRE(PTRACE_DETACH, pid, 0, 0));
	ASSERT_EQ(0, pipe_write_byte(wfd, 'x'));
	EXPECT_EQ(ST_EXITED(42), wstat(pid, 0));
}

static int body_rt_storm(void *arg)
{
	sigset_t set;
	int i, n = (int)(long)arg;

	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN + 4);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGRTMIN + 4, SIG_IGN);
	for (i = 0; i < n; i++) {
		union sigval v = { .sival_int = i };

		if (sigqueue(getpid(), SIGRTMIN + 4, v))
			return 1;
	}
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	return 0;
}

TEST_F_TIMEOUT(loop, rt_signal_storm_each_reported_in_order_200, LOOP_TIMEOUT)
{
	siginfo_t si;
	pid_t pid = traceme_child(_metadata, body_rt_storm, (void *)200L);
	int i;

	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	for (i = 0; i < 200; i++) {
		ASSERT_EQ(ST_STOPPED(SIGRTMIN + 4), wstat(pid, 0));
		ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
		ASSERT_EQ(i, si.si_value.sival_int);
		ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, SIGRTMIN + 4));
	}
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

static int body_exit_soon(void *arg)
{
	long v = (long)arg;
	int i, fd = v & 0xffff, n = v >> 16;

	if (pipe_read_byte(fd) < 0)
		return 1;
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 5;
}

TEST_F_TIMEOUT(loop, interrupt_vs_exit_200, LOOP_TIMEOUT)
{
	int i;

	for (i = 0; i < 200; i++) {
		int fds[2], st;
		pid_t pid;

		ASSERT_EQ(0, pipe(fds));
		pid = spawn(body_exit_soon, (void *)(long)(fds[0] |
							    ((i % 20) << 16)));
		ASSERT_GT(pid, 0);
		ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, PTRACE_O_TRACEEXIT));
		ASSERT_EQ(0, pipe_write_byte(fds[1], 'g'));
		ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, pid, 0, 0));
		st = wstat(pid, 0);
		if (st == ST_EVENT(PTRACE_EVENT_STOP)) {
			ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
			st = wstat(pid, 0);
		}
		/* The exit event comes after any interrupt stop, exactly once. */
		ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXIT), st);
		resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(5));
		close(fds[0]);
		close(fds[1]);
	}
}

TEST_F_TIMEOUT(loop, listen_sigcont_cycles_100, LOOP_TIMEOUT)
{
	int fds[2], i;
	pid_t pid = piped_child(_metadata, body_wait_pipe, fds);

	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	for (i = 0; i < 100; i++) {
		ASSERT_EQ(0, kill(pid, SIGSTOP));
		ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, 0));
		resume_assert(_metadata, pid, PTRACE_CONT, SIGSTOP, ST_GROUPSTOP(SIGSTOP));
		ASSERT_EQ(0, PTRE(PTRACE_LISTEN, pid, 0, 0));
		ASSERT_EQ(0, kill(pid, SIGCONT));
		ASSERT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat(pid, 0));
		resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGCONT));
		ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	}
	release_expect(_metadata, pid, fds, 0, ST_EXITED(42));
}

TEST_F_TIMEOUT(loop, tracer_exit_release_100, LOOP_TIMEOUT)
{
	int wfd, i;
	pid_t pid = spawn_looper(&wfd);

	ASSERT_GT(pid, 0);
	for (i = 0; i < 100; i++) {
		pid_t t = fork_child();

		if (t == 0) {
			if (ptr(PTRACE_SEIZE, pid, 0, PTRACE_O_TRACESYSGOOD))
				_exit(1);
			if (ptr(PTRACE_INTERRUPT, pid, 0, 0))
				_exit(2);
			if (wstat(pid, 0) != ST_EVENT(PTRACE_EVENT_STOP))
				_exit(3);
			/* Leave it in a syscall stop half of the time. */
			if (i & 1) {
				ptr(PTRACE_SYSCALL, pid, 0, 0);
				if (wstat(pid, 0) != ST_SYSCALL)
					_exit(4);
			}
			_exit(0);
		}
		ASSERT_EQ(ST_EXITED(0), wstat(t, 0));
	}
	ASSERT_EQ(0, pipe_write_byte(wfd, 'x'));
	EXPECT_EQ(ST_EXITED(42), wstat(pid, WUNTRACED));
}

TEST_F_TIMEOUT(loop, peek_poke_loop_1000, LOOP_TIMEOUT)
{
	static volatile unsigned long buf[64];
	pid_t pid = traceme_child(_metadata, body_pause, NULL);
	unsigned long v;
	int i;

	for (i = 0; i < 1000; i++) {
		unsigned long addr = (unsigned long)&buf[i % 64];

		ASSERT_EQ(0, PTRE(PTRACE_POKEDATA, pid, addr, i * 3 + 1));
		ASSERT_EQ(0, peek(PTRACE_PEEKDATA, pid, addr, &v));
		ASSERT_EQ((unsigned long)(i * 3 + 1), v);
	}
	kill_reap(pid);
}

TEST_HARNESS_MAIN
