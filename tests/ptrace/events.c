// SPDX-License-Identifier: GPL-2.0-only
/*
 * Events: PTRACE_O_TRACEFORK, TRACEVFORK, TRACECLONE, TRACEEXEC (also from a
 * non-leader thread), TRACEVFORKDONE, TRACEEXIT and PTRACE_GETEVENTMSG.
 * (TRACESECCOMP/SUSPEND_SECCOMP are in seccomp.c, EXITKILL in attach.c.)
 */
#include <pthread.h>
#include "ptrace_util.h"

static char **saved_argv;

static unsigned long eventmsg(pid_t pid)
{
	unsigned long msg = 0xdeadbeef;

	if (PTRE(PTRACE_GETEVENTMSG, pid, 0, &msg))
		return 0xbad;
	return msg;
}

/* traceme_child_opts(fn, NULL), then asserts PTRACE_CONT to status. */
static pid_t spawn_opts_stop(struct __test_metadata *_metadata, child_fn fn,
			     unsigned long opts, int status)
{
	pid_t pid = traceme_child_opts(_metadata, fn, NULL, opts);

	resume_assert(_metadata, pid, PTRACE_CONT, 0, status);
	return pid;
}

/* The new task of pid's fork/vfork/clone event; asserts its id > 0. */
static pid_t new_tid(struct __test_metadata *_metadata, pid_t pid)
{
	pid_t g = eventmsg(pid);

	ASSERT_GT(g, 0);
	return g;
}

/*
 * The new task of pid's fork/vfork/clone event (id not checked); asserts
 * that its first stop (waited for with __WALL) is SIGSTOP.
 */
static pid_t new_task_stop(struct __test_metadata *_metadata, pid_t pid)
{
	pid_t g = eventmsg(pid);

	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(g, __WALL));
	return g;
}

TEST(fork_event_and_new_child_stop)
{
	siginfo_t si;
	pid_t pid = spawn_opts_stop(_metadata, body_fork, PTRACE_O_TRACEFORK,
				    ST_EVENT(PTRACE_EVENT_FORK));
	pid_t g = new_tid(_metadata, pid);

	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(g, __WALL));
	expect_siginfo(_metadata, g, &si, SIGSTOP, SI_USER, 0);
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SIGTRAP | (PTRACE_EVENT_FORK << 8), si.si_code);
	EXPECT_EQ(pid, si.si_pid);
	resume_expect_wall(_metadata, g, PTRACE_CONT, 0, ST_EXITED(9));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(fork_event_regs_at_event)
{
	struct user_regs_struct r;
	pid_t pid = spawn_opts_stop(_metadata, body_fork, PTRACE_O_TRACEFORK,
				    ST_EVENT(PTRACE_EVENT_FORK));
	pid_t g = new_task_stop(_metadata, pid);

	/* glibc's fork() uses clone(); the child sees 0 in rax. */
	ASSERT_EQ(0, get_regs(g, &r));
	EXPECT_EQ(0, (long)r.rax);
	EXPECT_EQ(SYS_clone, (long)r.orig_rax);
	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(SYS_clone, (long)r.orig_rax);
	resume_expect_wall(_metadata, g, PTRACE_CONT, 0, ST_EXITED(9));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

/*
 * A child that waits for a byte on a new pipe (asserted) and then exits
 * with fn(NULL) (1 if no byte came); the caller's SEIZE checks the pid.
 */
static pid_t gated_child(struct __test_metadata *_metadata, int fds[2],
			 child_fn fn)
{
	pid_t pid;

	ASSERT_EQ(0, pipe(fds));
	pid = fork_child();
	if (pid == 0) {
		if (pipe_read_byte(fds[0]) < 0)
			_exit(1);
		_exit(fn(NULL));
	}
	return pid;
}

TEST(fork_event_seize_new_child_event_stop)
{
	int fds[2];
	pid_t g, pid = gated_child(_metadata, fds, body_fork);

	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, PTRACE_O_TRACEFORK));
	ASSERT_EQ(0, pipe_write_byte(fds[1], 'x'));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_FORK), wstat(pid, 0));
	g = new_tid(_metadata, pid);
	/* Auto-attached children of a seized tracee are seized too. */
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat(g, __WALL));
	resume_expect_wall(_metadata, g, PTRACE_CONT, 0, ST_EXITED(9));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(fork_without_option_not_traced)
{
	pid_t pid = traceme_child(_metadata, body_fork, NULL);

	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
	EXPECT_EQ(-ECHILD, wait_st(-1, NULL, __WALL | WNOHANG));
}

TEST(fork_child_inherits_options)
{
	pid_t pid = spawn_opts_stop(_metadata, body_fork,
				    PTRACE_O_TRACEFORK | PTRACE_O_TRACEEXIT,
				    ST_EVENT(PTRACE_EVENT_FORK));
	pid_t g = new_task_stop(_metadata, pid);

	resume_assert_wall(_metadata, g, PTRACE_CONT, 0, ST_EVENT(PTRACE_EVENT_EXIT));
	EXPECT_EQ((unsigned long)ST_EXITED(9), eventmsg(g));
	resume_expect_wall(_metadata, g, PTRACE_CONT, 0, ST_EXITED(9));
	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_EVENT(PTRACE_EVENT_EXIT));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

static int body_vfork(void *arg)
{
	pid_t c;

	(void)arg;
	block_sigchld();
	c = vfork();
	if (c == 0)
		_exit(4);
	return reaped_with(c, 4);
}

TEST(vfork_event_and_vfork_done)
{
	pid_t pid = spawn_opts_stop(_metadata, body_vfork,
				    PTRACE_O_TRACEVFORK | PTRACE_O_TRACEVFORKDONE,
				    ST_EVENT(PTRACE_EVENT_VFORK));
	pid_t g = new_tid(_metadata, pid);

	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(g, __WALL));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	/* The parent cannot report VFORK_DONE before the child lets go. */
	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	resume_expect_wall(_metadata, g, PTRACE_CONT, 0, ST_EXITED(4));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_VFORK_DONE), wstat(pid, 0));
	EXPECT_EQ((unsigned long)g, eventmsg(pid));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(vfork_done_alone)
{
	pid_t pid = spawn_opts_stop(_metadata, body_vfork, PTRACE_O_TRACEVFORKDONE,
				    ST_EVENT(PTRACE_EVENT_VFORK_DONE));
	unsigned long g = eventmsg(pid);

	EXPECT_GT(g, 0);
	EXPECT_NE((unsigned long)pid, g);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(vfork_without_option_not_traced)
{
	pid_t pid = traceme_child_opts(_metadata, body_vfork, NULL, PTRACE_O_TRACEFORK);

	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

static void *thread_exit5(void *arg)
{
	(void)arg;
	return (void *)5L;
}

static int body_thread(void *arg)
{
	pthread_t th;
	void *ret;

	(void)arg;
	if (pthread_create(&th, NULL, thread_exit5, NULL))
		return 1;
	if (pthread_join(th, &ret))
		return 2;
	return ret == (void *)5L ? 0 : 3;
}

TEST(clone_event_for_thread)
{
	siginfo_t si;
	pid_t pid = spawn_opts_stop(_metadata, body_thread, PTRACE_O_TRACECLONE,
				    ST_EVENT(PTRACE_EVENT_CLONE));
	pid_t t = new_tid(_metadata, pid);

	ASSERT_NE(pid, t);
	/* A traced thread is waited for without __WALL. */
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(t, 0));
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, t, 0, &si));
	EXPECT_EQ(SIGSTOP, si.si_signo);
	EXPECT_EQ(SI_USER, si.si_code);
	resume_expect(_metadata, t, PTRACE_CONT, 0, ST_EXITED(0));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(clone_without_option_not_traced)
{
	pid_t pid = traceme_child_opts(_metadata, body_thread, NULL, PTRACE_O_TRACEFORK);

	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

static int body_clone_untraced(void *arg)
{
	pid_t c;

	(void)arg;
	block_sigchld();
	c = syscall(SYS_clone, CLONE_UNTRACED | SIGCHLD, NULL, NULL, NULL,
		    NULL);
	if (c == 0)
		_exit(5);
	return reaped_with(c, 5);
}

TEST(clone_untraced_suppresses_fork_event)
{
	pid_t pid = traceme_child_opts(_metadata, body_clone_untraced, NULL,
				       PTRACE_O_TRACEFORK | PTRACE_O_TRACECLONE);

	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(exec_event)
{
	struct user_regs_struct r;
	siginfo_t si;
	pid_t pid = spawn_opts_stop(_metadata, body_exec7, PTRACE_O_TRACEEXEC,
				    ST_EVENT(PTRACE_EVENT_EXEC));

	EXPECT_EQ((unsigned long)pid, eventmsg(pid));
	expect_siginfo(_metadata, pid, &si, SIGTRAP, SIGTRAP | (PTRACE_EVENT_EXEC << 8), pid);
	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(SYS_execve, (long)r.orig_rax);
	/* Still inside execve(): no return value yet. */
	EXPECT_EQ(-ENOSYS, (long)r.rax);
	/* No legacy SIGTRAP follows the event. */
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(7));
}

TEST(exec_seized_without_option_no_stop)
{
	int fds[2];
	pid_t pid = gated_child(_metadata, fds, body_exec7);

	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	release_expect(_metadata, pid, fds, 0, ST_EXITED(7));
}

TEST(exec_attach_mode_without_option_sigtrap)
{
	pid_t pid = traceme_child(_metadata, body_exec7, NULL);

	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGTRAP));
	EXPECT_EQ(SI_USER, stop_si_code(_metadata, pid));
	EXPECT_EQ(0UL, eventmsg(pid));
	/* Delivering the SIGTRAP would kill it: suppress it. */
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(7));
}

TEST(exec_event_ignores_injected_signal)
{
	pid_t pid = spawn_opts_stop(_metadata, body_exec7, PTRACE_O_TRACEEXEC,
				    ST_EVENT(PTRACE_EVENT_EXEC));

	resume_expect(_metadata, pid, PTRACE_CONT, SIGTERM, ST_EXITED(7));
}

TEST(exec_syscall_stops_around_exec_event)
{
	pid_t pid = traceme_child_opts(_metadata, body_exec7, NULL,
				       PTRACE_O_TRACEEXEC | PTRACE_O_TRACESYSGOOD);
	struct user_regs_struct r;
	int i;

	/* Skip to execve's entry stop. */
	for (i = 0; i < 50; i++) {
		resume_regs(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL, &r);
		if ((long)r.orig_rax == SYS_execve)
			break;
	}
	ASSERT_EQ(SYS_execve, (long)r.orig_rax);
	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_EVENT(PTRACE_EVENT_EXEC));
	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	expect_syscall_regs(_metadata, pid, &r, SYS_execve, 0);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(7));
}

TEST(exit_event_exit_code)
{
	pid_t pid = spawn_opts_stop(_metadata, body_exit3, PTRACE_O_TRACEEXIT,
				    ST_EVENT(PTRACE_EVENT_EXIT));

	EXPECT_EQ((unsigned long)ST_EXITED(3), eventmsg(pid));
	EXPECT_EQ(SIGTRAP | (PTRACE_EVENT_EXIT << 8), stop_si_code(_metadata, pid));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(3));
}

TEST(exit_event_killed_by_signal)
{
	pid_t pid = traceme_child_opts(_metadata, body_pause, NULL, PTRACE_O_TRACEEXIT);

	resume_assert(_metadata, pid, PTRACE_CONT, SIGTERM, ST_EVENT(PTRACE_EVENT_EXIT));
	EXPECT_EQ((unsigned long)SIGTERM, eventmsg(pid));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_KILLED(SIGTERM));
}

TEST(exit_event_on_sigkill)
{
	pid_t pid = traceme_child_opts(_metadata, body_pause, NULL, PTRACE_O_TRACEEXIT);

	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXIT), wstat(pid, 0));
	EXPECT_EQ((unsigned long)SIGKILL, eventmsg(pid));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_KILLED(SIGKILL));
}

/*
 * exit_group() sets SIGNAL_GROUP_EXIT; prepare_signal() then drops every
 * signal, SIGKILL included, so the tracee stays in its exit stop.
 */
TEST(sigkill_dropped_at_exit_stop_after_exit_group)
{
	pid_t pid = spawn_opts_stop(_metadata, body_exit3, PTRACE_O_TRACEEXIT,
				    ST_EVENT(PTRACE_EVENT_EXIT));

	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(0, PTRE(PTRACE_KILL, pid, 0, 0));
	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	EXPECT_EQ('t', traced_state(pid, pid));
	EXPECT_EQ((unsigned long)ST_EXITED(3), eventmsg(pid));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(3));
}

TEST(exit_event_regs_readable)
{
	struct user_regs_struct r;
	pid_t pid = spawn_opts_stop(_metadata, body_exit3, PTRACE_O_TRACEEXIT,
				    ST_EVENT(PTRACE_EVENT_EXIT));

	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(SYS_exit_group, (long)r.orig_rax);
	EXPECT_EQ(3, (long)r.rdi);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(3));
}

TEST(geteventmsg_signal_stop_zero)
{
	pid_t pid = traceme_child(_metadata, NULL, NULL);

	EXPECT_EQ(0UL, eventmsg(pid));
	kill_reap(pid);
}

TEST(geteventmsg_syscall_stops)
{
	pid_t pid = traceme_child_opts(_metadata, body_getppid_once, NULL, PTRACE_O_TRACESYSGOOD);

	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	EXPECT_EQ((unsigned long)PTRACE_EVENTMSG_SYSCALL_ENTRY, eventmsg(pid));
	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	EXPECT_EQ((unsigned long)PTRACE_EVENTMSG_SYSCALL_EXIT, eventmsg(pid));
	kill_reap(pid);
}

TEST(geteventmsg_running_esrch)
{
	unsigned long msg;
	pid_t pid = seized_child(_metadata, body_pause, NULL, 0);

	EXPECT_EQ(-ESRCH, PTRE(PTRACE_GETEVENTMSG, pid, 0, &msg));
	kill_reap(pid);
}

/*
 * execve() from a non-leader thread: the exec'ing thread takes over the
 * thread group id.  The tracer sees PTRACE_EVENT_EXEC on the tgid with the
 * old tid as the event message, and the old tid is gone.
 */
static void *thread_exec(void *arg)
{
	(void)arg;
	execl("/proc/self/exe", saved_argv[0], "--exit", "7", NULL);
	return NULL;
}

static int body_thread_exec(void *arg)
{
	pthread_t th;

	(void)arg;
	if (pthread_create(&th, NULL, thread_exec, NULL))
		return 1;
	for (;;)
		pause();
	return 2;
}

/*
 * body_thread_exec() with options opts: asserts its clone event and the
 * new thread's SIGSTOP stop, resumes both; returns the pid, *t the thread.
 */
static pid_t spawn_thread_exec(struct __test_metadata *_metadata,
			       unsigned long opts, pid_t *t)
{
	pid_t pid = spawn_opts_stop(_metadata, body_thread_exec, opts,
				    ST_EVENT(PTRACE_EVENT_CLONE));

	*t = new_task_stop(_metadata, pid);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, *t, 0, 0));
	return pid;
}

TEST(exec_from_non_leader_thread)
{
	pid_t t, w, pid = spawn_thread_exec(_metadata, PTRACE_O_TRACECLONE |
					    PTRACE_O_TRACEEXEC, &t);
	int st;

	/* The first report is the exec event, under the tgid. */
	w = wait_st(-1, &st, __WALL);
	ASSERT_EQ(pid, w);
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXEC), st);
	EXPECT_EQ((unsigned long)t, eventmsg(pid));
	EXPECT_EQ(-ECHILD, wait_st(t, &st, __WALL | WNOHANG));
	resume_expect_wall(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(7));
	EXPECT_EQ(-ECHILD, wait_st(-1, &st, __WALL | WNOHANG));
}

TEST(exec_from_non_leader_thread_with_traceexit)
{
	pid_t t, pid = spawn_thread_exec(_metadata, PTRACE_O_TRACECLONE |
					 PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT,
					 &t);
	int st;

	/*
	 * The old leader, killed by de_thread(), stops at its exit; a group
	 * exec gives it exit code 0.
	 */
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXIT), wstat(pid, __WALL));
	EXPECT_EQ(0UL, eventmsg(pid));
	EXPECT_EQ(0, wait_st(t, &st, __WALL | WNOHANG));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	/* Then the exec completes in the exec'ing thread, now the tgid. */
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXEC), wstat(pid, __WALL));
	EXPECT_EQ((unsigned long)t, eventmsg(pid));
	resume_assert_wall(_metadata, pid, PTRACE_CONT, 0, ST_EVENT(PTRACE_EVENT_EXIT));
	resume_expect_wall(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(7));
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--exit"))
		return atoi(argv[2]);
	saved_argv = argv;
	return test_harness_run(argc, argv);
}
