// SPDX-License-Identifier: GPL-2.0-only
/*
 * Multi-threaded tracees: each thread is a separate tracee.  Stopping and
 * resuming individual threads, signals aimed at one thread vs the group,
 * group exit and SIGKILL while threads sit in different stops, thread exit,
 * execve from a thread, and bounded attach/detach and kill loops.
 */
#include <pthread.h>
#include "ptrace_util.h"

#define MAXT 8

struct shared {
	volatile int ntids;
	volatile pid_t tids[MAXT];
	volatile long counter;
	volatile int block_usr1_except;	/* index + 1, 0: none */
	volatile int counting_thread;	/* index + 1, 0: none */
	volatile int exec_thread;	/* index + 1, 0: none */
	volatile int go;
};

static struct shared *shm;
static __thread volatile int tls_exit;
static char **saved_argv;

static void usr1_exit_group(int sig)
{
	(void)sig;
	syscall(SYS_exit_group, 5);
}

static void usr2_thread_exit(int sig)
{
	(void)sig;
	tls_exit = 1;
}

static void thread_loop(int idx)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (shm->block_usr1_except && shm->block_usr1_except != idx + 1)
		pthread_sigmask(SIG_BLOCK, &set, NULL);
	else
		pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	shm->tids[idx] = sys_gettid();
	__atomic_add_fetch(&shm->ntids, 1, __ATOMIC_SEQ_CST);
	if (shm->exec_thread == idx + 1) {
		while (!shm->go)
			usleep(1000);
		execl("/proc/self/exe", saved_argv[0], "--exit", "7", NULL);
		_exit(99);
	}
	for (;;) {
		if (tls_exit)
			syscall(SYS_exit, 0);	/* just this thread */
		if (shm->counting_thread == idx + 1) {
			shm->counter++;
			usleep(500);
		} else {
			pause();
		}
	}
}

static void *thread_fn(void *arg)
{
	thread_loop((int)(long)arg);
	return NULL;
}

static int body_threads(void *arg)
{
	int n = (int)(long)arg, i;
	pthread_t th;
	sigset_t set;

	signal(SIGUSR1, usr1_exit_group);
	signal(SIGUSR2, usr2_thread_exit);
	/* Threads inherit this; each thread fixes its own mask. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	for (i = 1; i < n; i++)
		if (pthread_create(&th, NULL, thread_fn, (void *)(long)i))
			return 1;
	thread_loop(0);
	return 2;
}

/* Start a process with n threads; returns its pid once all tids are known. */
static pid_t spawn_threads(int n)
{
	pid_t pid;
	int i;

	shm->ntids = 0;
	memset((void *)shm->tids, 0, sizeof(shm->tids));
	pid = spawn(body_threads, (void *)(long)n);
	if (pid <= 0)
		return -1;
	for (i = 0; i < 10000 && shm->ntids < n; i++)
		usleep(1000);
	if (shm->ntids < n) {
		kill_reap_all(pid);
		return -1;
	}
	/* Let every thread reach pause(). */
	for (i = 0; i < n; i++)
		if (!shm->counting_thread &&
		    !wait_task_state(pid, shm->tids[i], 'S', 5000)) {
			kill_reap_all(pid);
			return -1;
		}
	return pid;
}

static int seize_all(pid_t pid, int n, unsigned long opts)
{
	int i;

	(void)pid;
	for (i = 0; i < n; i++)
		if (PTRE(PTRACE_SEIZE, shm->tids[i], 0, opts))
			return -1;
	return 0;
}

static pid_t tgid_of(pid_t tid)
{
	return proc_status_int(tid, "\nTgid:");
}

FIXTURE(mt) {
	pid_t pid;
	int n;
};

FIXTURE_SETUP(mt)
{
	fixture_tie_to_parent();
	shm = mmap(NULL, sizeof(*shm), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, shm);
	memset(shm, 0, sizeof(*shm));
	self->pid = -1;
	self->n = 3;
}

FIXTURE_TEARDOWN(mt)
{
	kill_reap_all(self->pid);
}

#define T(i)	(shm->tids[i])

/*
 * spawn_threads(self->n) into self->pid (asserts > 0), then asserts that
 * seize_all() with opts succeeds.
 */
static void start_seized(struct __test_metadata *_metadata,
			 FIXTURE_DATA(mt) *self, unsigned long opts)
{
	self->pid = spawn_threads(self->n);
	ASSERT_GT(self->pid, 0);
	ASSERT_EQ(0, seize_all(self->pid, self->n, opts));
}

/* Asserts tgkill(self->pid, tid, sig) and tid's stop for sig (__WALL). */
static void tgkill_stop(struct __test_metadata *_metadata,
			FIXTURE_DATA(mt) *self, pid_t tid, int sig)
{
	ASSERT_EQ(0, sys_tgkill(self->pid, tid, sig));
	ASSERT_EQ(ST_STOPPED(sig), wstat(tid, __WALL));
}

TEST_F(mt, interrupt_one_thread_only)
{
	int i;

	start_seized(_metadata, self, 0);
	ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, T(1), 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat(T(1), __WALL));
	EXPECT_EQ(0, wait_st(-1, NULL, __WALL | WNOHANG));
	EXPECT_EQ('t', traced_state(self->pid, T(1)));
	for (i = 0; i < self->n; i++)
		if (i != 1)
			EXPECT_EQ('S', task_state(self->pid, T(i)));
	/* Only the stopped thread accepts stopped-only requests. */
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_GETSIGINFO, T(0), 0, &(siginfo_t){}));
	EXPECT_EQ(0, PTRE(PTRACE_GETSIGINFO, T(1), 0, &(siginfo_t){}));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, T(1), 0, 0));
}

TEST_F(mt, stopped_thread_does_not_stop_others)
{
	long c1;
	int i;

	shm->counting_thread = 2;
	start_seized(_metadata, self, 0);
	ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, T(0), 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat(T(0), __WALL));
	c1 = shm->counter;
	for (i = 0; i < 5000 && shm->counter < c1 + 3; i++)
		usleep(1000);
	EXPECT_GE(shm->counter, c1 + 3);
	EXPECT_EQ('t', traced_state(self->pid, T(0)));
}

TEST_F(mt, interrupt_all_resume_one)
{
	int i;

	start_seized(_metadata, self, 0);
	for (i = 0; i < self->n; i++)
		ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, T(i), 0, 0));
	for (i = 0; i < self->n; i++)
		ASSERT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat(T(i), __WALL));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, T(2), 0, 0));
	EXPECT_TRUE(wait_task_state(self->pid, T(2), 'S', 5000));
	EXPECT_EQ('t', traced_state(self->pid, T(0)));
	EXPECT_EQ('t', traced_state(self->pid, T(1)));
	EXPECT_EQ(0, wait_st(-1, NULL, __WALL | WNOHANG));
}

TEST_F(mt, regs_are_per_thread)
{
	struct user_regs_struct r0, r1;

	start_seized(_metadata, self, 0);
	ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, T(0), 0, 0));
	ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, T(1), 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat(T(0), __WALL));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat(T(1), __WALL));
	ASSERT_EQ(0, get_regs(T(0), &r0));
	ASSERT_EQ(0, get_regs(T(1), &r1));
	EXPECT_NE(r0.rsp, r1.rsp);
	EXPECT_NE(r0.fs_base, r1.fs_base);
	/* Changing one thread's registers leaves the other alone. */
	r1.r13 = 0x1313;
	ASSERT_EQ(0, set_regs(T(1), &r1));
	ASSERT_EQ(0, get_regs(T(0), &r0));
	EXPECT_NE(0x1313UL, r0.r13);
}

TEST_F(mt, tgkill_reported_by_target_thread)
{
	start_seized(_metadata, self, 0);
	tgkill_stop(_metadata, self, T(2), SIGUSR2);
	EXPECT_EQ(SI_TKILL, stop_si_code(_metadata, T(2)));
	EXPECT_EQ(0, wait_st(-1, NULL, __WALL | WNOHANG));
	/* Delivering it makes that thread (only) exit. */
	resume_expect_wall(_metadata, T(2), PTRACE_CONT, SIGUSR2, ST_EXITED(0));
	EXPECT_EQ(0, wait_st(-1, NULL, __WALL | WNOHANG));
}

TEST_F(mt, group_signal_reported_by_unblocking_thread)
{
	self->pid = -1;
	shm->block_usr1_except = 3;	/* only thread 2 takes SIGUSR1 */
	start_seized(_metadata, self, 0);
	ASSERT_EQ(0, kill(self->pid, SIGUSR1));
	ASSERT_EQ(ST_STOPPED(SIGUSR1), wstat(T(2), __WALL));
	EXPECT_EQ(0, wait_st(-1, NULL, __WALL | WNOHANG));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, T(2), 0, 0));
}

TEST_F(mt, group_exit_reports_every_thread)
{
	int i;

	shm->block_usr1_except = 2;
	start_seized(_metadata, self, 0);
	tgkill_stop(_metadata, self, T(1), SIGUSR1);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, T(1), 0, SIGUSR1));
	/* The handler calls exit_group(5). */
	for (i = self->n - 1; i >= 0; i--)
		EXPECT_EQ(ST_EXITED(5), wstat(T(i), __WALL));
	self->pid = -1;
	EXPECT_EQ(-ECHILD, wait_st(-1, NULL, __WALL | WNOHANG));
}

TEST_F(mt, group_exit_traceexit_stops_every_thread)
{
	int i;

	shm->block_usr1_except = 1;
	start_seized(_metadata, self, PTRACE_O_TRACEEXIT);
	tgkill_stop(_metadata, self, T(0), SIGUSR1);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, T(0), 0, SIGUSR1));
	for (i = 0; i < self->n; i++) {
		ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXIT), wstat(T(i), __WALL));
		expect_eventmsg(_metadata, T(i), ST_EXITED(5));
	}
	for (i = 1; i < self->n; i++)
		resume_expect_wall(_metadata, T(i), PTRACE_CONT, 0, ST_EXITED(5));
	/* The leader is reported only once it is the last one. */
	resume_expect_wall(_metadata, T(0), PTRACE_CONT, 0, ST_EXITED(5));
	self->pid = -1;
}

TEST_F(mt, sigkill_threads_in_different_stops)
{
	int i;

	self->n = 4;
	start_seized(_metadata, self, PTRACE_O_TRACESYSGOOD);
	/* T0: signal-delivery-stop. */
	tgkill_stop(_metadata, self, T(0), SIGUSR2);
	/* T1: PTRACE_EVENT_STOP. */
	ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, T(1), 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat(T(1), __WALL));
	/* T2: syscall-entry-stop (pause() is restarted). */
	ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, T(2), 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat(T(2), __WALL));
	resume_assert_wall(_metadata, T(2), PTRACE_SYSCALL, 0, ST_SYSCALL);
	/* T3 keeps running. */
	ASSERT_EQ(0, kill(self->pid, SIGKILL));
	for (i = self->n - 1; i >= 0; i--)
		EXPECT_EQ(ST_KILLED(SIGKILL), wstat(T(i), __WALL));
	self->pid = -1;
}

TEST_F(mt, thread_exit_reported_to_tracer)
{
	start_seized(_metadata, self, PTRACE_O_TRACEEXIT);
	tgkill_stop(_metadata, self, T(1), SIGUSR2);
	resume_assert_wall(_metadata, T(1), PTRACE_CONT, SIGUSR2, ST_EVENT(PTRACE_EVENT_EXIT));
	resume_expect_wall(_metadata, T(1), PTRACE_CONT, 0, ST_EXITED(0));
	/* The others are untouched. */
	EXPECT_EQ(0, wait_st(-1, NULL, __WALL | WNOHANG));
	EXPECT_EQ('S', task_state(self->pid, T(0)));
}

TEST_F(mt, attach_one_thread_sigstop_stays_private)
{
	self->pid = spawn_threads(self->n);
	ASSERT_GT(self->pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_ATTACH, T(1), 0, 0));
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(T(1), __WALL));
	/* The SIGSTOP went to that thread and is held at its stop. */
	EXPECT_EQ('S', task_state(self->pid, T(0)));
	EXPECT_EQ('S', task_state(self->pid, T(2)));
	ASSERT_EQ(0, PTRE(PTRACE_DETACH, T(1), 0, 0));
	EXPECT_TRUE(wait_task_state(self->pid, T(1), 'S', 5000));
	EXPECT_EQ('S', task_state(self->pid, T(0)));
}

TEST_F(mt, injected_sigstop_group_stops_untraced_threads)
{
	int i;

	self->pid = spawn_threads(self->n);
	ASSERT_GT(self->pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_ATTACH, T(1), 0, 0));
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(T(1), __WALL));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, T(1), 0, SIGSTOP));
	/* The traced thread reports its group-stop, the others stop. */
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(T(1), __WALL));
	EXPECT_TRUE(wait_task_state(self->pid, T(0), 'T', 5000));
	EXPECT_TRUE(wait_task_state(self->pid, T(2), 'T', 5000));
	/* The real parent (us, too) sees the whole group stopped. */
	EXPECT_EQ(ST_STOPPED(SIGSTOP), wstat(self->pid, WUNTRACED));
	ASSERT_EQ(0, PTRE(PTRACE_DETACH, T(1), 0, 0));
	ASSERT_EQ(0, kill(self->pid, SIGCONT));
	for (i = 0; i < self->n; i++)
		EXPECT_TRUE(wait_task_state(self->pid, T(i), 'S', 5000));
}

TEST_F(mt, seized_clone_event_new_thread_event_stop)
{
	pid_t t;
	unsigned long msg = 0;

	self->pid = spawn_threads(1);
	ASSERT_GT(self->pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, self->pid, 0, PTRACE_O_TRACECLONE));
	/* Make the tracee create a thread: tgkill -> handler-free path. */
	interrupt_stop(_metadata, self->pid);
	/* Run clone(CLONE_VM|CLONE_THREAD|...) via pt_syscall_insn. */
	{
		struct user_regs_struct r, saved;

		ASSERT_EQ(0, get_regs(self->pid, &r));
		saved = r;
		r.rip = (unsigned long)pt_syscall_insn;
		r.rax = SYS_clone;
		r.rdi = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
			CLONE_THREAD | CLONE_SYSVSEM;
		r.rsi = (saved.rsp - 65536) & ~15UL;	/* child stack */
		r.rdx = 0;
		r.r10 = 0;
		r.r8 = 0;
		ASSERT_EQ(0, set_regs(self->pid, &r));
		ASSERT_EQ(0, PTRE(PTRACE_CONT, self->pid, 0, 0));
	}
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_CLONE), wstat(self->pid, 0));
	ASSERT_EQ(0, PTRE(PTRACE_GETEVENTMSG, self->pid, 0, &msg));
	t = msg;
	ASSERT_GT(t, 0);
	EXPECT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat(t, __WALL));
	EXPECT_EQ(self->pid, tgid_of(t));
}

TEST_F(mt, exec_by_thread_other_threads_exit_zero)
{
	unsigned long msg = 0;

	shm->exec_thread = 3;
	start_seized(_metadata, self, PTRACE_O_TRACEEXEC);
	shm->go = 1;
	/* T1 dies in de_thread() and is reported with exit code 0. */
	EXPECT_EQ(ST_EXITED(0), wstat(T(1), __WALL));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXEC), wstat(self->pid, __WALL));
	ASSERT_EQ(0, PTRE(PTRACE_GETEVENTMSG, self->pid, 0, &msg));
	EXPECT_EQ((unsigned long)T(2), msg);
	EXPECT_EQ(-ECHILD, wait_st(T(2), NULL, __WALL | WNOHANG));
	resume_expect_wall(_metadata, self->pid, PTRACE_CONT, 0, ST_EXITED(7));
	self->pid = -1;
}

/* Bounded loops: seize/interrupt/detach every thread, many times. */
TEST_F_TIMEOUT(mt, seize_interrupt_detach_loop, 180)
{
	int it, i;

	self->pid = spawn_threads(self->n);
	ASSERT_GT(self->pid, 0);
	for (it = 0; it < 200; it++) {
		ASSERT_EQ(0, seize_all(self->pid, self->n, 0));
		for (i = 0; i < self->n; i++)
			ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, T(i), 0, 0));
		for (i = 0; i < self->n; i++)
			ASSERT_EQ(ST_EVENT(PTRACE_EVENT_STOP),
				  wstat(T(i), __WALL));
		for (i = 0; i < self->n; i++)
			ASSERT_EQ(0, PTRE(PTRACE_DETACH, T(i), 0, 0));
	}
	EXPECT_EQ(0, wait_st(-1, NULL, __WALL | WNOHANG));
	EXPECT_EQ(0, wait_st(self->pid, NULL, WNOHANG));
}

TEST_F_TIMEOUT(mt, sigkill_vs_interrupt_loop, 180)
{
	int it, i;

	for (it = 0; it < 60; it++) {
		start_seized(_metadata, self, PTRACE_O_TRACEEXIT);
		for (i = 0; i < self->n; i++)
			ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, T(i), 0, 0));
		ASSERT_EQ(0, kill(self->pid, SIGKILL));
		/*
		 * Whether or not a thread reported its INTERRUPT stop first,
		 * each one ends in PTRACE_EVENT_EXIT and then dies of SIGKILL.
		 */
		for (i = 0; i < self->n; i++) {
			int st = wstat(T(i), __WALL);

			if (st == ST_EVENT(PTRACE_EVENT_STOP))
				st = wstat(T(i), __WALL);
			ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXIT), st);
			ASSERT_EQ(0, PTRE(PTRACE_CONT, T(i), 0, 0));
		}
		for (i = self->n - 1; i >= 0; i--)
			ASSERT_EQ(ST_KILLED(SIGKILL), wstat(T(i), __WALL));
		self->pid = -1;
	}
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--exit"))
		return atoi(argv[2]);
	saved_argv = argv;
	return test_harness_run(argc, argv);
}
