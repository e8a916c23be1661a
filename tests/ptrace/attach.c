// SPDX-License-Identifier: GPL-2.0-only
/*
 * Attach and detach: PTRACE_TRACEME, PTRACE_ATTACH, PTRACE_SEIZE,
 * PTRACE_DETACH, error cases and tracer exit.
 */
#include <pthread.h>
#include "ptrace_util.h"

static int helper_main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--exit"))
		return atoi(argv[2]);
	return 127;
}

TEST(traceme_sigstop_status)
{
	pid_t pid = traceme_child(_metadata, NULL, NULL);

	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

static int body_traceme_twice(void *arg)
{
	(void)arg;
	if (ptr(PTRACE_TRACEME, 0, 0, 0) != -1)
		return 1;
	return errno == EPERM ? 0 : 2;
}

TEST(traceme_twice_eperm)
{
	pid_t pid = traceme_child(_metadata, body_traceme_twice, NULL);

	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(traceme_exec_legacy_sigtrap)
{
	siginfo_t si;
	pid_t pid = fork_child();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (ptr(PTRACE_TRACEME, 0, 0, 0))
			_exit(98);
		execl("/proc/self/exe", "attach", "--exit", "7", NULL);
		_exit(97);
	}
	ASSERT_EQ(ST_STOPPED(SIGTRAP), wstat(pid, 0));
	expect_siginfo(_metadata, pid, &si, SIGTRAP, SI_USER, pid);
	EXPECT_EQ(0, (int)si.si_uid);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(7));
}

TEST(attach_sends_sigstop)
{
	siginfo_t si;
	pid_t pid = plain_child(_metadata, body_pause, NULL);

	attach_stop(_metadata, pid);
	expect_siginfo(_metadata, pid, &si, SIGSTOP, SI_KERNEL, 0);
	EXPECT_EQ(0, (int)si.si_uid);
	EXPECT_EQ('t', traced_state(pid, pid));
	kill_reap(pid);
}

TEST(attach_then_detach_continues)
{
	int fds[2];
	pid_t pid = piped_child(_metadata, body_wait_pipe, fds);

	attach_stop(_metadata, pid);
	resume_release_expect(_metadata, pid, PTRACE_DETACH, 0, fds, ST_EXITED(42));
}

TEST(detach_with_signal_delivers_it)
{
	pid_t pid = plain_child(_metadata, body_pause, NULL);

	attach_stop(_metadata, pid);
	resume_expect(_metadata, pid, PTRACE_DETACH, SIGUSR1, ST_KILLED(SIGUSR1));
}

TEST(detach_invalid_signal_eio)
{
	pid_t pid = plain_child(_metadata, body_pause, NULL);

	attach_stop(_metadata, pid);
	EXPECT_EQ(-EIO, PTRE(PTRACE_DETACH, pid, 0, _NSIG + 1));
	/* Still traced and stopped. */
	EXPECT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &(siginfo_t){}));
	kill_reap(pid);
}

TEST(detach_running_tracee_esrch)
{
	pid_t pid = seized_child(_metadata, body_pause, NULL, 0);

	EXPECT_EQ(-ESRCH, PTRE(PTRACE_DETACH, pid, 0, 0));
	kill_reap(pid);
}

TEST(detach_untraced_esrch)
{
	pid_t pid = plain_child(_metadata, body_pause, NULL);

	EXPECT_EQ(-ESRCH, PTRE(PTRACE_DETACH, pid, 0, 0));
	kill_reap(pid);
}

TEST(attach_self_eperm)
{
	EXPECT_EQ(-EPERM, PTRE(PTRACE_ATTACH, getpid(), 0, 0));
	EXPECT_EQ(-EPERM, PTRE(PTRACE_SEIZE, getpid(), 0, 0));
}

static void *thread_sleep(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static pid_t thread_tid;

static void *thread_report_tid(void *arg)
{
	__atomic_store_n(&thread_tid, sys_gettid(), __ATOMIC_SEQ_CST);
	return thread_sleep(arg);
}

TEST(attach_own_thread_eperm)
{
	pthread_t th;
	pid_t tid;

	ASSERT_EQ(0, pthread_create(&th, NULL, thread_report_tid, NULL));
	while (!(tid = __atomic_load_n(&thread_tid, __ATOMIC_SEQ_CST)))
		usleep(100);
	EXPECT_EQ(-EPERM, PTRE(PTRACE_ATTACH, tid, 0, 0));
	EXPECT_EQ(-EPERM, PTRE(PTRACE_SEIZE, tid, 0, 0));
}

TEST(attach_init_unprivileged_eperm)
{
	pid_t pid = fork_child();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (become_nobody())
			_exit(90);
		if (ptr(PTRACE_ATTACH, 1, 0, 0) != -1)
			_exit(1);
		if (errno != EPERM)
			_exit(2);
		if (ptr(PTRACE_SEIZE, 1, 0, 0) != -1)
			_exit(3);
		_exit(errno == EPERM ? 0 : 4);
	}
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

/* Find a kernel thread: kthreadd (pid 2) if it is visible. */
static pid_t find_kthread(void)
{
	char buf[512], *p;
	unsigned long flags;

	if (read_file_str("/proc/2/stat", buf, sizeof(buf)) <= 0)
		return -1;
	p = strrchr(buf, ')');
	/* state ppid pgrp session tty_nr tpgid flags */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %lu", &flags) != 1)
		return -1;
	return (flags & 0x00200000) ? 2 : -1;	/* PF_KTHREAD */
}

TEST(attach_kthread_eperm)
{
	pid_t k = find_kthread();

	if (k < 0)
		SKIP(return, "pid 2 is not a visible kernel thread (pid namespace)");
	EXPECT_EQ(-EPERM, PTRE(PTRACE_ATTACH, k, 0, 0));
	EXPECT_EQ(-EPERM, PTRE(PTRACE_SEIZE, k, 0, 0));
}

TEST(attach_nonexistent_esrch)
{
	pid_t pid = plain_child(_metadata, NULL, NULL);

	ASSERT_EQ(ST_EXITED(0), wstat(pid, 0));
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_ATTACH, pid, 0, 0));
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_SEIZE, pid, 0, 0));
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_ATTACH, -1, 0, 0));
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_ATTACH, 0, 0, 0));
}

TEST(attach_zombie_eperm)
{
	siginfo_t si;
	pid_t pid = plain_child(_metadata, NULL, NULL);

	/* Wait until it is a zombie, without reaping it. */
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WEXITED | WNOWAIT));
	EXPECT_EQ(-EPERM, PTRE(PTRACE_ATTACH, pid, 0, 0));
	EXPECT_EQ(-EPERM, PTRE(PTRACE_SEIZE, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

TEST(double_attach_eperm)
{
	pid_t pid = plain_child(_metadata, body_pause, NULL);

	ASSERT_EQ(0, PTRE(PTRACE_ATTACH, pid, 0, 0));
	EXPECT_EQ(-EPERM, PTRE(PTRACE_ATTACH, pid, 0, 0));
	EXPECT_EQ(-EPERM, PTRE(PTRACE_SEIZE, pid, 0, 0));
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, 0));
	kill_reap(pid);
}

TEST(attach_traced_by_other_eperm)
{
	pid_t pid = seized_child(_metadata, body_pause, NULL, 0);
	pid_t other;

	other = fork_child();
	if (other == 0) {
		if (ptr(PTRACE_ATTACH, pid, 0, 0) != -1 || errno != EPERM)
			_exit(1);
		if (ptr(PTRACE_SEIZE, pid, 0, 0) != -1 || errno != EPERM)
			_exit(2);
		_exit(0);
	}
	EXPECT_EQ(ST_EXITED(0), wstat(other, 0));
	kill_reap(pid);
}

TEST(traceme_when_traced_eperm)
{
	int fds[2];
	pid_t pid = fork_with_pipe(_metadata, fds);

	if (pid == 0) {
		if (pipe_read_byte(fds[0]) < 0)
			_exit(1);
		if (ptr(PTRACE_TRACEME, 0, 0, 0) != -1 || errno != EPERM)
			_exit(2);
		_exit(0);
	}
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	release_expect(_metadata, pid, fds, 0, ST_EXITED(0));
}

TEST(seize_does_not_stop)
{
	pid_t pid = seized_child(_metadata, body_pause, NULL, 0);

	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG | __WALL));
	/* Not stopped: requests that need a stopped tracee fail. */
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_GETSIGINFO, pid, 0, &(siginfo_t){}));
	kill_reap(pid);
}

TEST(seize_nonzero_addr_eio)
{
	pid_t pid = plain_child(_metadata, body_pause, NULL);

	EXPECT_EQ(-EIO, PTRE(PTRACE_SEIZE, pid, 1, 0));
	/* Not traced afterwards. */
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_INTERRUPT, pid, 0, 0));
	kill_reap(pid);
}

TEST(seize_unknown_option_eio)
{
	pid_t pid = plain_child(_metadata, body_pause, NULL);

	EXPECT_EQ(-EIO, PTRE(PTRACE_SEIZE, pid, 0, 0x40000000UL));
	/* Bit 8, between PTRACE_O_TRACESECCOMP and PTRACE_O_EXITKILL. */
	EXPECT_EQ(-EIO, PTRE(PTRACE_SEIZE, pid, 0, 1UL << 8));
	kill_reap(pid);
}

TEST(setoptions_unknown_option_einval)
{
	pid_t pid = traceme_child(_metadata, NULL, NULL);

	EXPECT_EQ(-EINVAL, PTRE(PTRACE_SETOPTIONS, pid, 0, 0x40000000UL));
	EXPECT_EQ(0, PTRE(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD));
	kill_reap(pid);
}

/*
 * A body_pause child SEIZEd with PTRACE_O_TRACEEXIT and sent SIGTERM:
 * asserts its SIGTERM stop and, once SIGTERM is delivered, its exit event.
 */
static pid_t sigterm_exit_stop(struct __test_metadata *_metadata)
{
	pid_t pid = seized_child(_metadata, body_pause, NULL, PTRACE_O_TRACEEXIT);

	ASSERT_EQ(0, kill(pid, SIGTERM));
	ASSERT_EQ(ST_STOPPED(SIGTERM), wstat(pid, 0));
	resume_assert(_metadata, pid, PTRACE_CONT, SIGTERM, ST_EVENT(PTRACE_EVENT_EXIT));
	return pid;
}

TEST(seize_with_options_applies_them)
{
	pid_t pid = sigterm_exit_stop(_metadata);

	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_KILLED(SIGTERM));
}

TEST(request_untraced_esrch)
{
	unsigned long v;
	pid_t pid = plain_child(_metadata, body_pause, NULL);

	EXPECT_EQ(-ESRCH, peek(PTRACE_PEEKDATA, pid, (unsigned long)&v, &v));
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_INTERRUPT, pid, 0, 0));
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_KILL, pid, 0, 0));
	kill_reap(pid);
}

TEST(unknown_request_eio)
{
	pid_t pid = traceme_child(_metadata, NULL, NULL);

	EXPECT_EQ(-EIO, PTRE(0x7777, pid, 0, 0));
	EXPECT_EQ(-EIO, PTRE(0x42ff, pid, 0, 0));
	kill_reap(pid);
}

TEST(interrupt_on_attach_mode_eio)
{
	pid_t pid = plain_child(_metadata, body_pause, NULL);

	attach_stop(_metadata, pid);
	EXPECT_EQ(-EIO, PTRE(PTRACE_INTERRUPT, pid, 0, 0));
	EXPECT_EQ(-EIO, PTRE(PTRACE_LISTEN, pid, 0, 0));
	kill_reap(pid);
}

TEST(kill_request_stopped)
{
	pid_t pid = traceme_child(_metadata, NULL, NULL);

	resume_expect(_metadata, pid, PTRACE_KILL, 0, ST_KILLED(SIGKILL));
}

TEST(kill_request_running)
{
	pid_t pid = seized_child(_metadata, body_pause, NULL, 0);

	resume_expect(_metadata, pid, PTRACE_KILL, 0, ST_KILLED(SIGKILL));
}

TEST(attach_group_stopped_task)
{
	int fds[2];
	pid_t pid = piped_child(_metadata, body_wait_pipe, fds);

	ASSERT_EQ(0, kill(pid, SIGSTOP));
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, WUNTRACED));
	ASSERT_EQ(0, PTRE(PTRACE_ATTACH, pid, 0, 0));
	/* The group stop is re-reported as a ptrace stop. */
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, 0));
	EXPECT_EQ('t', traced_state(pid, pid));
	/* Detached, it goes back into the group stop... */
	ASSERT_EQ(0, PTRE(PTRACE_DETACH, pid, 0, 0));
	EXPECT_TRUE(wait_task_state(pid, pid, 'T', 5000));
	/* ...until SIGCONT. */
	ASSERT_EQ(0, kill(pid, SIGCONT));
	release_expect(_metadata, pid, fds, 0, ST_EXITED(42));
}

TEST(seize_group_stopped_task)
{
	siginfo_t si;
	pid_t pid = plain_child(_metadata, body_pause, NULL);

	ASSERT_EQ(0, kill(pid, SIGSTOP));
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, WUNTRACED));
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	ASSERT_EQ(ST_GROUPSTOP(SIGSTOP), wstat(pid, 0));
	expect_siginfo(_metadata, pid, &si, SIGSTOP, SIGSTOP | (PTRACE_EVENT_STOP << 8), pid);
	kill_reap(pid);
}

TEST(detach_from_interrupt_stop_continues)
{
	int fds[2];
	pid_t pid = piped_child(_metadata, body_wait_pipe, fds);

	seize_interrupt(_metadata, pid, 0);
	resume_release_expect(_metadata, pid, PTRACE_DETACH, 0, fds, ST_EXITED(42));
}

/*
 * A middle process traces our child and exits while the child is stopped.
 * mode 0: SEIZE + INTERRUPT stop; 1: ATTACH (SIGSTOP signal-delivery-stop,
 * reaped by waitpid); 2: SEIZE with EXITKILL; 3: ATTACH then
 * SETOPTIONS(EXITKILL); 4: like 1 but the stop is only seen with WNOWAIT.
 */
static int tracer_then_exit(pid_t pid, int mode)
{
	pid_t t = fork_child();

	if (t < 0)
		return -1;
	if (t == 0) {
		int st;

		switch (mode) {
		case 0:
		case 2:
			if (ptr(PTRACE_SEIZE, pid, 0,
				mode == 2 ? PTRACE_O_EXITKILL : 0))
				_exit(1);
			if (ptr(PTRACE_INTERRUPT, pid, 0, 0))
				_exit(2);
			if (wstat(pid, 0) != ST_EVENT(PTRACE_EVENT_STOP))
				_exit(3);
			break;
		case 4: {
			siginfo_t si = { 0 };

			if (ptr(PTRACE_ATTACH, pid, 0, 0))
				_exit(1);
			if (waitid(P_PID, pid, &si, WSTOPPED | WNOWAIT))
				_exit(5);
			if (si.si_code != CLD_TRAPPED || si.si_status != SIGSTOP)
				_exit(6);
			break;
		}
		default:
			if (ptr(PTRACE_ATTACH, pid, 0, 0))
				_exit(1);
			st = wstat(pid, 0);
			if (st != ST_STOPPED(SIGSTOP))
				_exit(3);
			if (mode == 3 && ptr(PTRACE_SETOPTIONS, pid, 0,
					     PTRACE_O_EXITKILL))
				_exit(4);
			break;
		}
		_exit(0);
	}
	return wstat(t, 0);
}

TEST(tracer_exit_releases_tracee)
{
	int fds[2];
	pid_t pid = piped_child(_metadata, body_wait_pipe, fds);

	ASSERT_EQ(ST_EXITED(0), tracer_then_exit(pid, 0));
	/* Untraced again: anyone may attach. */
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	release_expect(_metadata, pid, fds, 0, ST_EXITED(42));
}

TEST(tracer_exit_after_reaping_sigstop_stop_continues)
{
	int fds[2];
	pid_t pid = piped_child(_metadata, body_wait_pipe, fds);

	/* waitpid() consumed the stop and zeroed the tracee's exit_code. */
	ASSERT_EQ(ST_EXITED(0), tracer_then_exit(pid, 1));
	release_expect(_metadata, pid, fds, WUNTRACED, ST_EXITED(42));
}

TEST(tracer_exit_in_unreaped_sigstop_stop_group_stops)
{
	int fds[2];
	pid_t pid = piped_child(_metadata, body_wait_pipe, fds);

	ASSERT_EQ(ST_EXITED(0), tracer_then_exit(pid, 4));
	/*
	 * The stop was only seen with WNOWAIT, so SIGSTOP is still the
	 * tracee's exit_code: it is delivered after the release and the
	 * task group-stops.
	 */
	EXPECT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, WUNTRACED));
	ASSERT_EQ(0, kill(pid, SIGCONT));
	release_expect(_metadata, pid, fds, 0, ST_EXITED(42));
}

TEST(tracer_exit_exitkill_seize)
{
	pid_t pid = plain_child(_metadata, body_pause, NULL);

	ASSERT_EQ(ST_EXITED(0), tracer_then_exit(pid, 2));
	EXPECT_EQ(ST_KILLED(SIGKILL), wstat(pid, 0));
}

TEST(tracer_exit_exitkill_setoptions)
{
	pid_t pid = plain_child(_metadata, body_pause, NULL);

	ASSERT_EQ(ST_EXITED(0), tracer_then_exit(pid, 3));
	EXPECT_EQ(ST_KILLED(SIGKILL), wstat(pid, 0));
}

TEST(tracer_exit_running_tracee_unaffected)
{
	int fds[2];
	pid_t pid, t;

	ASSERT_EQ(0, pipe(fds));
	pid = spawn(body_wait_pipe, (void *)(long)fds[0]);
	ASSERT_GT(pid, 0);
	t = fork_child();
	if (t == 0)
		_exit(ptr(PTRACE_SEIZE, pid, 0, 0) ? 1 : 0);
	ASSERT_EQ(ST_EXITED(0), wstat(t, 0));
	release_expect(_metadata, pid, fds, 0, ST_EXITED(42));
}

TEST(detach_sigstop_delivery_stop_suppresses_sigstop)
{
	int fds[2];
	pid_t pid = piped_child(_metadata, body_wait_pipe, fds);

	attach_stop(_metadata, pid);
	ASSERT_EQ(0, PTRE(PTRACE_DETACH, pid, 0, 0));
	/* No group stop follows: nothing for WUNTRACED. */
	release_expect(_metadata, pid, fds, WUNTRACED, ST_EXITED(42));
}

TEST(detach_releases_for_other_tracer)
{
	pid_t pid = interrupted_child(_metadata, body_pause, NULL, 0);
	pid_t other;

	ASSERT_EQ(0, PTRE(PTRACE_DETACH, pid, 0, 0));
	other = fork_child();
	if (other == 0) {
		if (ptr(PTRACE_SEIZE, pid, 0, 0))
			_exit(1);
		if (ptr(PTRACE_INTERRUPT, pid, 0, 0))
			_exit(2);
		_exit(wstat(pid, 0) == ST_EVENT(PTRACE_EVENT_STOP) ? 0 : 3);
	}
	EXPECT_EQ(ST_EXITED(0), wstat(other, 0));
	kill_reap(pid);
}

TEST(traceme_parent_sees_signal_stops)
{
	pid_t pid = traceme_child(_metadata, NULL, NULL);

	ASSERT_EQ(0, kill(pid, SIGUSR2));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	/* body NULL: child exits 0 unless SIGUSR2 arrives first. */
	EXPECT_EQ(ST_STOPPED(SIGUSR2), wstat(pid, 0));
	resume_expect(_metadata, pid, PTRACE_CONT, SIGUSR2, ST_KILLED(SIGUSR2));
}

static int body_getppid_loop(void *arg)
{
	(void)arg;
	for (;;)
		syscall(SYS_getppid);
	return 0;
}

TEST(detach_at_syscall_stop_with_signal)
{
	pid_t pid = traceme_child(_metadata, body_getppid_loop, NULL);

	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_STOPPED(SIGTRAP));
	/* The signal is sent as the syscall stop returns. */
	resume_expect(_metadata, pid, PTRACE_DETACH, SIGUSR1, ST_KILLED(SIGUSR1));
}

TEST(detach_at_interrupt_stop_signal_ignored)
{
	int fds[2];
	pid_t pid = piped_child(_metadata, body_wait_pipe, fds);

	seize_interrupt(_metadata, pid, 0);
	resume_release_expect(_metadata, pid, PTRACE_DETACH, SIGUSR1, fds, ST_EXITED(42));
}

TEST(detach_at_exit_event_stop)
{
	pid_t pid = sigterm_exit_stop(_metadata);

	resume_expect(_metadata, pid, PTRACE_DETACH, 0, ST_KILLED(SIGTERM));
}

static int tracer_pid_of(pid_t pid)
{
	return proc_status_int(pid, "\nTracerPid:");
}

TEST(proc_status_tracerpid)
{
	pid_t pid = plain_child(_metadata, body_pause, NULL);

	EXPECT_EQ(0, tracer_pid_of(pid));
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	EXPECT_EQ(getpid(), tracer_pid_of(pid));
	interrupt_stop(_metadata, pid);
	EXPECT_EQ('t', traced_state(pid, pid));
	ASSERT_EQ(0, PTRE(PTRACE_DETACH, pid, 0, 0));
	EXPECT_EQ(0, tracer_pid_of(pid));
	kill_reap(pid);
}

/*
 * The tracer is a thread: its exit ends the ptrace links even though the
 * tracer's process lives on.
 */
struct thread_tracer_arg {
	pid_t pid;
	pid_t tid;
	unsigned long opts;
	long result;
};

static void *thread_tracer(void *p)
{
	struct thread_tracer_arg *a = p;

	a->tid = sys_gettid();

	a->result = PTRE(PTRACE_SEIZE, a->pid, 0, a->opts);
	if (!a->result)
		a->result = PTRE(PTRACE_INTERRUPT, a->pid, 0, 0);
	if (!a->result)
		a->result = wstat(a->pid, __WNOTHREAD) ==
			    ST_EVENT(PTRACE_EVENT_STOP) ? 0 : -1000;
	return NULL;
}

/*
 * pthread_join() returns when the thread clears its tid in mm_release(),
 * before exit_notify() runs exit_ptrace(); the task directory only goes
 * away once the thread has been released, after exit_ptrace().
 */
static bool wait_thread_gone(pid_t tid)
{
	char path[64];
	int i;

	snprintf(path, sizeof(path), "/proc/self/task/%d", tid);
	for (i = 0; i < 5000; i++) {
		if (access(path, F_OK))
			return true;
		msleep(1);
	}
	return false;
}

TEST(tracer_thread_exit_exitkill)
{
	struct thread_tracer_arg a = { .opts = PTRACE_O_EXITKILL };
	pthread_t th;

	a.pid = spawn(body_pause, NULL);
	ASSERT_GT(a.pid, 0);
	ASSERT_EQ(0, pthread_create(&th, NULL, thread_tracer, &a));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(0, a.result);
	EXPECT_EQ(ST_KILLED(SIGKILL), wstat(a.pid, 0));
}

TEST(tracer_thread_exit_releases_tracee)
{
	struct thread_tracer_arg a = { .opts = 0 };
	pthread_t th;
	int fds[2];

	ASSERT_EQ(0, pipe(fds));
	a.pid = spawn(body_wait_pipe, (void *)(long)fds[0]);
	ASSERT_GT(a.pid, 0);
	ASSERT_EQ(0, pthread_create(&th, NULL, thread_tracer, &a));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(0, a.result);
	ASSERT_TRUE(wait_thread_gone(a.tid));
	EXPECT_EQ(0, tracer_pid_of(a.pid));
	/* Untraced: this thread can seize it now. */
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, a.pid, 0, 0));
	release_expect(_metadata, a.pid, fds, 0, ST_EXITED(42));
}

TEST(requests_on_traced_zombie)
{
	siginfo_t si;
	int fds[2];
	pid_t pid = piped_child(_metadata, body_wait_pipe, fds);

	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	ASSERT_EQ(0, pipe_write_byte(fds[1], 'x'));
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WEXITED | WNOWAIT));
	/* Stopped-only requests fail, KILL and INTERRUPT are accepted. */
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_DETACH, pid, 0, 0));
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(0, PTRE(PTRACE_KILL, pid, 0, 0));
	EXPECT_EQ(0, PTRE(PTRACE_INTERRUPT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(42), wstat(pid, 0));
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strncmp(argv[1], "--", 2) && strcmp(argv[1], "--help"))
		return helper_main(argc, argv);
	return test_harness_run(argc, argv);
}
