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

static void block_sigchld(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

static pid_t spawn_opts(child_fn fn, void *arg, unsigned long opts)
{
	pid_t pid = spawn_traceme(fn, arg);

	if (pid > 0 && PTRE(PTRACE_SETOPTIONS, pid, 0, opts)) {
		kill_reap(pid);
		return -1;
	}
	return pid;
}

/* Fork a child exiting with 9, return 0 iff it was reaped with status 9. */
static int body_fork(void *arg)
{
	pid_t c;
	int st;

	(void)arg;
	block_sigchld();
	c = fork();
	if (c == 0)
		_exit(9);
	if (c < 0 || waitpid(c, &st, 0) != c)
		return 1;
	return st == ST_EXITED(9) ? 0 : 2;
}

TEST(fork_event_and_new_child_stop)
{
	siginfo_t si;
	pid_t pid = spawn_opts(body_fork, NULL, PTRACE_O_TRACEFORK);
	pid_t g;

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_FORK), wstat(pid, 0));
	g = eventmsg(pid);
	ASSERT_GT(g, 0);
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(g, __WALL));
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, g, 0, &si));
	EXPECT_EQ(SIGSTOP, si.si_signo);
	EXPECT_EQ(SI_USER, si.si_code);
	EXPECT_EQ(0, si.si_pid);
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SIGTRAP | (PTRACE_EVENT_FORK << 8), si.si_code);
	EXPECT_EQ(pid, si.si_pid);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, g, 0, 0));
	EXPECT_EQ(ST_EXITED(9), wstat(g, __WALL));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

TEST(fork_event_regs_at_event)
{
	struct user_regs_struct r;
	pid_t pid = spawn_opts(body_fork, NULL, PTRACE_O_TRACEFORK);
	pid_t g;

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_FORK), wstat(pid, 0));
	g = eventmsg(pid);
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(g, __WALL));
	/* glibc's fork() uses clone(); the child sees 0 in rax. */
	ASSERT_EQ(0, get_regs(g, &r));
	EXPECT_EQ(0, (long)r.rax);
	EXPECT_EQ(SYS_clone, (long)r.orig_rax);
	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(SYS_clone, (long)r.orig_rax);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, g, 0, 0));
	EXPECT_EQ(ST_EXITED(9), wstat(g, __WALL));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

TEST(fork_event_seize_new_child_event_stop)
{
	pid_t pid, g;
	int fds[2];

	ASSERT_EQ(0, pipe(fds));
	pid = fork_child();
	if (pid == 0) {
		if (pipe_read_byte(fds[0]) < 0)
			_exit(1);
		_exit(body_fork(NULL));
	}
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, PTRACE_O_TRACEFORK));
	ASSERT_EQ(0, pipe_write_byte(fds[1], 'x'));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_FORK), wstat(pid, 0));
	g = eventmsg(pid);
	ASSERT_GT(g, 0);
	/* Auto-attached children of a seized tracee are seized too. */
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat(g, __WALL));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, g, 0, 0));
	EXPECT_EQ(ST_EXITED(9), wstat(g, __WALL));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

TEST(fork_without_option_not_traced)
{
	pid_t pid = spawn_traceme(body_fork, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
	EXPECT_EQ(-ECHILD, wait_st(-1, NULL, __WALL | WNOHANG));
}

TEST(fork_child_inherits_options)
{
	pid_t pid = spawn_opts(body_fork, NULL,
			       PTRACE_O_TRACEFORK | PTRACE_O_TRACEEXIT);
	pid_t g;

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_FORK), wstat(pid, 0));
	g = eventmsg(pid);
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(g, __WALL));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, g, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXIT), wstat(g, __WALL));
	EXPECT_EQ((unsigned long)ST_EXITED(9), eventmsg(g));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, g, 0, 0));
	EXPECT_EQ(ST_EXITED(9), wstat(g, __WALL));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXIT), wstat(pid, 0));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

static int body_vfork(void *arg)
{
	pid_t c;
	int st;

	(void)arg;
	block_sigchld();
	c = vfork();
	if (c == 0)
		_exit(4);
	if (c < 0 || waitpid(c, &st, 0) != c)
		return 1;
	return st == ST_EXITED(4) ? 0 : 2;
}

TEST(vfork_event_and_vfork_done)
{
	pid_t pid = spawn_opts(body_vfork, NULL,
			       PTRACE_O_TRACEVFORK | PTRACE_O_TRACEVFORKDONE);
	pid_t g;

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_VFORK), wstat(pid, 0));
	g = eventmsg(pid);
	ASSERT_GT(g, 0);
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(g, __WALL));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	/* The parent cannot report VFORK_DONE before the child lets go. */
	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, g, 0, 0));
	EXPECT_EQ(ST_EXITED(4), wstat(g, __WALL));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_VFORK_DONE), wstat(pid, 0));
	EXPECT_EQ((unsigned long)g, eventmsg(pid));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

TEST(vfork_done_alone)
{
	pid_t pid = spawn_opts(body_vfork, NULL, PTRACE_O_TRACEVFORKDONE);
	unsigned long g;

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_VFORK_DONE), wstat(pid, 0));
	g = eventmsg(pid);
	EXPECT_GT(g, 0);
	EXPECT_NE((unsigned long)pid, g);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

TEST(vfork_without_option_not_traced)
{
	pid_t pid = spawn_opts(body_vfork, NULL, PTRACE_O_TRACEFORK);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
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
	pid_t pid = spawn_opts(body_thread, NULL, PTRACE_O_TRACECLONE);
	pid_t t;

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_CLONE), wstat(pid, 0));
	t = eventmsg(pid);
	ASSERT_GT(t, 0);
	ASSERT_NE(pid, t);
	/* A traced thread is waited for without __WALL. */
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(t, 0));
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, t, 0, &si));
	EXPECT_EQ(SIGSTOP, si.si_signo);
	EXPECT_EQ(SI_USER, si.si_code);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, t, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(t, 0));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

TEST(clone_without_option_not_traced)
{
	pid_t pid = spawn_opts(body_thread, NULL, PTRACE_O_TRACEFORK);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

static int body_clone_untraced(void *arg)
{
	pid_t c;
	int st;

	(void)arg;
	block_sigchld();
	c = syscall(SYS_clone, CLONE_UNTRACED | SIGCHLD, NULL, NULL, NULL,
		    NULL);
	if (c == 0)
		_exit(5);
	if (c < 0 || waitpid(c, &st, 0) != c)
		return 1;
	return st == ST_EXITED(5) ? 0 : 2;
}

TEST(clone_untraced_suppresses_fork_event)
{
	pid_t pid = spawn_opts(body_clone_untraced, NULL,
			       PTRACE_O_TRACEFORK | PTRACE_O_TRACECLONE);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

static int body_exec7(void *arg)
{
	(void)arg;
	execl("/proc/self/exe", saved_argv[0], "--exit", "7", NULL);
	return 99;
}

TEST(exec_event)
{
	struct user_regs_struct r;
	siginfo_t si;
	pid_t pid = spawn_opts(body_exec7, NULL, PTRACE_O_TRACEEXEC);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXEC), wstat(pid, 0));
	EXPECT_EQ((unsigned long)pid, eventmsg(pid));
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SIGTRAP, si.si_signo);
	EXPECT_EQ(SIGTRAP | (PTRACE_EVENT_EXEC << 8), si.si_code);
	EXPECT_EQ(pid, si.si_pid);
	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(SYS_execve, (long)r.orig_rax);
	/* Still inside execve(): no return value yet. */
	EXPECT_EQ(-ENOSYS, (long)r.rax);
	/* No legacy SIGTRAP follows the event. */
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(7), wstat(pid, 0));
}

TEST(exec_seized_without_option_no_stop)
{
	int fds[2];
	pid_t pid;

	ASSERT_EQ(0, pipe(fds));
	pid = fork_child();
	if (pid == 0) {
		if (pipe_read_byte(fds[0]) < 0)
			_exit(1);
		_exit(body_exec7(NULL));
	}
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	ASSERT_EQ(0, pipe_write_byte(fds[1], 'x'));
	EXPECT_EQ(ST_EXITED(7), wstat(pid, 0));
}

TEST(exec_attach_mode_without_option_sigtrap)
{
	siginfo_t si;
	pid_t pid = spawn_traceme(body_exec7, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_STOPPED(SIGTRAP), wstat(pid, 0));
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SI_USER, si.si_code);
	EXPECT_EQ(0UL, eventmsg(pid));
	/* Delivering the SIGTRAP would kill it: suppress it. */
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(7), wstat(pid, 0));
}

TEST(exec_event_ignores_injected_signal)
{
	pid_t pid = spawn_opts(body_exec7, NULL, PTRACE_O_TRACEEXEC);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXEC), wstat(pid, 0));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, SIGTERM));
	EXPECT_EQ(ST_EXITED(7), wstat(pid, 0));
}

TEST(exec_syscall_stops_around_exec_event)
{
	pid_t pid = spawn_opts(body_exec7, NULL,
			       PTRACE_O_TRACEEXEC | PTRACE_O_TRACESYSGOOD);
	struct user_regs_struct r;
	int i;

	ASSERT_GT(pid, 0);
	/* Skip to execve's entry stop. */
	for (i = 0; i < 50; i++) {
		ASSERT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, 0));
		ASSERT_EQ(ST_SYSCALL, wstat(pid, 0));
		ASSERT_EQ(0, get_regs(pid, &r));
		if ((long)r.orig_rax == SYS_execve)
			break;
	}
	ASSERT_EQ(SYS_execve, (long)r.orig_rax);
	ASSERT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXEC), wstat(pid, 0));
	ASSERT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, 0));
	ASSERT_EQ(ST_SYSCALL, wstat(pid, 0));
	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(SYS_execve, (long)r.orig_rax);
	EXPECT_EQ(0, (long)r.rax);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(7), wstat(pid, 0));
}

static int body_exit3(void *arg)
{
	(void)arg;
	return 3;
}

TEST(exit_event_exit_code)
{
	siginfo_t si;
	pid_t pid = spawn_opts(body_exit3, NULL, PTRACE_O_TRACEEXIT);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXIT), wstat(pid, 0));
	EXPECT_EQ((unsigned long)ST_EXITED(3), eventmsg(pid));
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SIGTRAP | (PTRACE_EVENT_EXIT << 8), si.si_code);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(3), wstat(pid, 0));
}

TEST(exit_event_killed_by_signal)
{
	pid_t pid = spawn_opts(body_pause, NULL, PTRACE_O_TRACEEXIT);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, SIGTERM));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXIT), wstat(pid, 0));
	EXPECT_EQ((unsigned long)SIGTERM, eventmsg(pid));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_KILLED(SIGTERM), wstat(pid, 0));
}

TEST(exit_event_on_sigkill)
{
	pid_t pid = spawn_opts(body_pause, NULL, PTRACE_O_TRACEEXIT);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXIT), wstat(pid, 0));
	EXPECT_EQ((unsigned long)SIGKILL, eventmsg(pid));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_KILLED(SIGKILL), wstat(pid, 0));
}

/*
 * exit_group() sets SIGNAL_GROUP_EXIT; prepare_signal() then drops every
 * signal, SIGKILL included, so the tracee stays in its exit stop.
 */
TEST(sigkill_dropped_at_exit_stop_after_exit_group)
{
	pid_t pid = spawn_opts(body_exit3, NULL, PTRACE_O_TRACEEXIT);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXIT), wstat(pid, 0));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(0, PTRE(PTRACE_KILL, pid, 0, 0));
	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	EXPECT_EQ('t', task_state(pid, pid));
	EXPECT_EQ((unsigned long)ST_EXITED(3), eventmsg(pid));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(3), wstat(pid, 0));
}

TEST(exit_event_regs_readable)
{
	struct user_regs_struct r;
	pid_t pid = spawn_opts(body_exit3, NULL, PTRACE_O_TRACEEXIT);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXIT), wstat(pid, 0));
	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(SYS_exit_group, (long)r.orig_rax);
	EXPECT_EQ(3, (long)r.rdi);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(3), wstat(pid, 0));
}

TEST(geteventmsg_signal_stop_zero)
{
	pid_t pid = spawn_traceme(NULL, NULL);

	ASSERT_GT(pid, 0);
	EXPECT_EQ(0UL, eventmsg(pid));
	kill_reap(pid);
}

static int body_getppid(void *arg)
{
	(void)arg;
	syscall(SYS_getppid);
	return 0;
}

TEST(geteventmsg_syscall_stops)
{
	pid_t pid = spawn_opts(body_getppid, NULL, PTRACE_O_TRACESYSGOOD);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, 0));
	ASSERT_EQ(ST_SYSCALL, wstat(pid, 0));
	EXPECT_EQ((unsigned long)PTRACE_EVENTMSG_SYSCALL_ENTRY, eventmsg(pid));
	ASSERT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, 0));
	ASSERT_EQ(ST_SYSCALL, wstat(pid, 0));
	EXPECT_EQ((unsigned long)PTRACE_EVENTMSG_SYSCALL_EXIT, eventmsg(pid));
	kill_reap(pid);
}

TEST(geteventmsg_running_esrch)
{
	unsigned long msg;
	pid_t pid = spawn(body_pause, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
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

TEST(exec_from_non_leader_thread)
{
	pid_t pid = spawn_opts(body_thread_exec, NULL,
			       PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC);
	pid_t t, w;
	int st;

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_CLONE), wstat(pid, 0));
	t = eventmsg(pid);
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(t, __WALL));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, t, 0, 0));
	/* The first report is the exec event, under the tgid. */
	w = wait_st(-1, &st, __WALL);
	ASSERT_EQ(pid, w);
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXEC), st);
	EXPECT_EQ((unsigned long)t, eventmsg(pid));
	EXPECT_EQ(-ECHILD, wait_st(t, &st, __WALL | WNOHANG));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(7), wstat(pid, __WALL));
	EXPECT_EQ(-ECHILD, wait_st(-1, &st, __WALL | WNOHANG));
}

TEST(exec_from_non_leader_thread_with_traceexit)
{
	pid_t pid = spawn_opts(body_thread_exec, NULL,
			       PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC |
			       PTRACE_O_TRACEEXIT);
	pid_t t;
	int st;

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_CLONE), wstat(pid, 0));
	t = eventmsg(pid);
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(t, __WALL));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, t, 0, 0));
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
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXIT), wstat(pid, __WALL));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(7), wstat(pid, __WALL));
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--exit"))
		return atoi(argv[2]);
	saved_argv = argv;
	return test_harness_run(argc, argv);
}
