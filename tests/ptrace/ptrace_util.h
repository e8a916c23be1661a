// SPDX-License-Identifier: GPL-2.0-only
/*
 * Shared helpers for the ptrace conformance tests.
 *
 * All ptrace requests go through the raw system call (ptr()), so that the
 * request numbers and structures come from the kernel's own uapi headers
 * (linux/ptrace.h) and not from the older glibc <sys/ptrace.h>.  Note the
 * raw PEEK* semantics: the word is stored at *data, the return value is 0.
 *
 * Every child created with fork_child() gets PR_SET_PDEATHSIG(SIGKILL) so
 * that a failed test (the harness _exit()s the test process) never leaves a
 * stopped tracee behind.
 */
#ifndef PTRACE_UTIL_H
#define PTRACE_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <grp.h>
#include <linux/ptrace.h>

#include "kselftest_harness.h"

/*
 * kselftest_harness.h runs every test in a child that calls setpgrp()
 * first, so a SIGKILL aimed at the program's process group (the runner's
 * timeout) would miss the test children and, through them, stopped
 * tracees.  This definition replaces libc's setpgrp() in these statically
 * linked programs: it still creates the new process group, and also ties
 * the test child's life to the harness process with PR_SET_PDEATHSIG.
 * Every tracee created by fork_child() is tied to its parent the same way.
 */
int setpgrp(void)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	return setpgid(0, 0);
}

/*
 * TEST_F bodies run in one more fork()ed child (without setpgrp()); every
 * FIXTURE_SETUP calls this so that that child dies with its parent too.
 */
static inline void fixture_tie_to_parent(void)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
}

/* Request numbers newer than some uapi/glibc combinations. */
#ifndef PTRACE_GET_RSEQ_CONFIGURATION
#define PTRACE_GET_RSEQ_CONFIGURATION	0x420f
#endif
#ifndef PTRACE_SET_SYSCALL_USER_DISPATCH_CONFIG
#define PTRACE_SET_SYSCALL_USER_DISPATCH_CONFIG	0x4210
#define PTRACE_GET_SYSCALL_USER_DISPATCH_CONFIG	0x4211
#endif
#ifndef PTRACE_PEEKUSER
#define PTRACE_PEEKUSER		PTRACE_PEEKUSR
#define PTRACE_POKEUSER		PTRACE_POKEUSR
#endif
#ifndef PTRACE_SINGLEBLOCK
#define PTRACE_SINGLEBLOCK	33
#endif
#ifndef PTRACE_SYSEMU
#define PTRACE_SYSEMU		31
#define PTRACE_SYSEMU_SINGLESTEP 32
#endif
#ifndef PTRACE_GETFPREGS
#define PTRACE_GETFPREGS	14
#define PTRACE_SETFPREGS	15
#endif
#ifndef PTRACE_GETFPXREGS
#define PTRACE_GETFPXREGS	18
#define PTRACE_SETFPXREGS	19
#endif
#ifndef PTRACE_GET_THREAD_AREA
#define PTRACE_GET_THREAD_AREA	25
#endif
#ifndef PTRACE_ARCH_PRCTL
#define PTRACE_ARCH_PRCTL	30
#endif
#ifndef __WALL
#define __WALL		0x40000000
#define __WCLONE	0x80000000
#endif
#ifndef TRAP_BRKPT
#define TRAP_BRKPT	1
#define TRAP_TRACE	2
#endif
#ifndef TRAP_HWBKPT
#define TRAP_HWBKPT	4
#endif

/* Exact wait status words. */
#define ST_EXITED(code)		(((code) & 0xff) << 8)
#define ST_KILLED(sig)		((sig) & 0x7f)
#define ST_STOPPED(sig)		((((sig) & 0xff) << 8) | 0x7f)
#define ST_SYSCALL		ST_STOPPED(SIGTRAP | 0x80)
#define ST_CONTINUED		0xffff
#define ST_EVENT(ev)		((((SIGTRAP | ((ev) << 8)) & 0xffff) << 8) | 0x7f)
#define ST_EVENT_SIG(sig, ev)	(((((sig) | ((ev) << 8)) & 0xffff) << 8) | 0x7f)
#define ST_GROUPSTOP(sig)	ST_EVENT_SIG(sig, PTRACE_EVENT_STOP)

static inline long ptr(long req, pid_t pid, unsigned long addr,
		       unsigned long data)
{
	return syscall(SYS_ptrace, req, (long)pid, addr, data);
}

#define PTR(req, pid, addr, data) \
	ptr((req), (pid), (unsigned long)(addr), (unsigned long)(data))

/* Returns 0 or -errno: a compact way to assert an exact errno. */
static inline long ptr_err(long req, pid_t pid, unsigned long addr,
			   unsigned long data)
{
	long r = ptr(req, pid, addr, data);

	return r == -1 ? -errno : r;
}

#define PTRE(req, pid, addr, data) \
	ptr_err((req), (pid), (unsigned long)(addr), (unsigned long)(data))

/* Peek one word with the raw syscall; returns 0 or -errno. */
static inline long peek(long req, pid_t pid, unsigned long addr,
			unsigned long *val)
{
	return ptr_err(req, pid, addr, (unsigned long)val);
}

static inline pid_t sys_gettid(void)
{
	return syscall(SYS_gettid);
}

static inline int sys_tgkill(pid_t tgid, pid_t tid, int sig)
{
	return syscall(SYS_tgkill, tgid, tid, sig);
}

/* waitpid() that retries on EINTR; returns pid or -errno. */
static inline pid_t wait_st(pid_t pid, int *status, int flags)
{
	pid_t r;

	do {
		r = waitpid(pid, status, flags);
	} while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

/* Wait and return the status word, or a negative errno. */
static inline int wstat(pid_t pid, int flags)
{
	int status = 0;
	pid_t r = wait_st(pid, &status, flags);

	if (r < 0)
		return r;
	if (r != pid && pid > 0)
		return -1000;
	return status;
}

/*
 * Poll for a status with a time limit (milliseconds).  Returns the status,
 * -ETIMEDOUT if nothing was reported, or another -errno.
 */
static inline int wstat_timeout(pid_t pid, int flags, int ms)
{
	int status, i;

	for (i = 0; i < ms; i++) {
		pid_t r = wait_st(pid, &status, flags | WNOHANG);

		if (r < 0)
			return r;
		if (r > 0)
			return status;
		usleep(1000);
	}
	return -ETIMEDOUT;
}

static inline void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * fork() whose child dies with its parent.  The child also gets default
 * dispositions for the signals the tests use.
 */
static inline pid_t fork_child(void)
{
	pid_t parent = getpid();
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(99);
	}
	return pid;
}

/* Child side: stop with a plain kill() so the next syscall is known. */
static inline void child_traceme_stop(void)
{
	if (ptr(PTRACE_TRACEME, 0, 0, 0))
		_exit(98);
	kill(getpid(), SIGSTOP);
}

typedef int (*child_fn)(void *arg);

/*
 * Fork a child that does PTRACE_TRACEME, stops itself with SIGSTOP and then
 * runs fn(arg), exiting with its return value.  The parent side waits for
 * the SIGSTOP signal-delivery-stop.  Returns the pid or a negative value.
 */
static inline pid_t spawn_traceme(child_fn fn, void *arg)
{
	pid_t pid = fork_child();
	int st;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		child_traceme_stop();
		_exit(fn ? fn(arg) : 0);
	}
	st = wstat(pid, __WALL);
	if (st != ST_STOPPED(SIGSTOP)) {
		kill(pid, SIGKILL);
		wstat(pid, __WALL);
		return -2;
	}
	return pid;
}

/* Fork an untraced child running fn(arg). */
static inline pid_t spawn(child_fn fn, void *arg)
{
	pid_t pid = fork_child();

	if (pid == 0)
		_exit(fn ? fn(arg) : 0);
	return pid;
}

/* Child body: sleep until killed. */
static inline int body_pause(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return 0;
}

/*
 * Kill and reap a child, ignoring errors (cleanup helper).  Tracees sitting
 * in PTRACE_EVENT_EXIT stops are resumed so that they can finish dying.
 */
static inline void kill_reap(pid_t pid)
{
	int st;

	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	while (wait_st(pid, &st, __WALL) == pid)
		if (WIFSTOPPED(st))
			ptr(PTRACE_CONT, pid, 0, 0);
}

/*
 * Kill a (possibly multi-threaded, traced) process and reap everything we
 * are the parent or tracer of: traced threads must be reaped before the
 * leader becomes reapable.
 */
static inline void kill_reap_all(pid_t pid)
{
	pid_t w;
	int st;

	if (pid > 0)
		kill(pid, SIGKILL);
	while ((w = wait_st(-1, &st, __WALL)) > 0)
		if (WIFSTOPPED(st))
			ptr(PTRACE_CONT, w, 0, 0);
}

/* Single-character scheduler state from /proc/<pid>/task/<tid>/stat. */
static inline char task_state(pid_t pid, pid_t tid)
{
	char path[64], buf[512], *p;
	int fd, n;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* Wait (up to ms) until a task is in the given state; true on success. */
static inline bool wait_task_state(pid_t pid, pid_t tid, char state, int ms)
{
	int i;

	for (i = 0; i < ms; i++) {
		if (task_state(pid, tid) == state)
			return true;
		msleep(1);
	}
	return task_state(pid, tid) == state;
}

/*
 * The /proc state of a thread whose ptrace stop was just reaped with
 * waitpid().  A tracee makes its stop visible to wait() before it
 * notifies its tracer and goes to sleep, so the tracer can read the state
 * while the tracee is still on its way; it is TASK_TRACED ('t') all along,
 * except on PREEMPT_RT.  There spinlock_t sleeps: a tracee that waits for
 * one on the way (the tracer's siglock in do_notify_parent_cldstop())
 * reads 'D' while it waits and 'R' once woken, until it holds the lock
 * and its saved TASK_TRACED is back.  The tracer cannot tell otherwise
 * (ptrace requests wait for it, wait_task_inactive() knows the saved
 * state).  So on a PREEMPT_RT kernel wait up to a second while the state
 * reads 'D' or 'R'; elsewhere read it once: anything but 't' is a bug.
 */
static inline char traced_state(pid_t pid, pid_t tid)
{
	char st = task_state(pid, tid);
	struct utsname u;
	int i;

	if (uname(&u) || !strstr(u.version, "PREEMPT_RT"))
		return st;
	for (i = 0; i < 1000 && (st == 'D' || st == 'R'); i++) {
		msleep(1);
		st = task_state(pid, tid);
	}
	return st;
}

/* Pipes used for parent/child synchronisation. */
static inline int pipe_write_byte(int fd, char c)
{
	return write(fd, &c, 1) == 1 ? 0 : -1;
}

static inline int pipe_read_byte(int fd)
{
	char c;
	ssize_t r;

	do {
		r = read(fd, &c, 1);
	} while (r < 0 && errno == EINTR);
	return r == 1 ? (unsigned char)c : -1;
}

static inline int read_file_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return n;
}

/* The number after field (e.g. "\nTgid:") in /proc/<pid>/status, or -1. */
static inline int proc_status_int(pid_t pid, const char *field)
{
	char path[64], buf[4096], *p;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (read_file_str(path, buf, sizeof(buf)) <= 0)
		return -1;
	p = strstr(buf, field);
	return p ? atoi(p + strlen(field)) : -1;
}

static inline int write_file_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n < 0 ? -errno : 0;
}

static inline void block_sigchld(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

/* For child bodies: 0 iff their child c was reaped with ST_EXITED(code). */
static inline int reaped_with(pid_t c, int code)
{
	int st;

	if (c < 0 || waitpid(c, &st, 0) != c)
		return 1;
	return st == ST_EXITED(code) ? 0 : 2;
}

/* fork() a child that exits with code at once; returns fork()'s value. */
static inline pid_t fork_exiting(int code)
{
	pid_t c = fork();

	if (c == 0)
		_exit(code);
	return c;
}

/* Child body: fork a child exiting with 9, 0 iff it was reaped with that. */
static inline int body_fork(void *arg)
{
	(void)arg;
	block_sigchld();
	return reaped_with(fork_exiting(9), 9);
}

/* Child body: call getppid() once, return 0. */
static inline int body_getppid_once(void *arg)
{
	(void)arg;
	syscall(SYS_getppid);
	return 0;
}

/*
 * Child body: getppid(), whose result a tracer may change; arg selects
 * what it must have returned for exit code 0: 1: our own pid (the syscall
 * became getpid), 2: 77, 3: -1/ENOSYS, 4: -1/EPERM.
 */
static inline int body_getppid_expect(void *arg)
{
	long r = syscall(SYS_getppid);

	if (arg == (void *)1)
		return r == getpid() ? 0 : 1;
	if (arg == (void *)2)
		return r == 77 ? 0 : 1;
	if (arg == (void *)3)
		return (r == -1 && errno == ENOSYS) ? 0 : 1;
	if (arg == (void *)4)
		return (r == -1 && errno == EPERM) ? 0 : 1;
	return 2;
}

/* Child body: return 3. */
static inline int body_exit3(void *arg)
{
	(void)arg;
	return 3;
}

/*
 * Child body: exec this program again as "--exit 7" (every main() that
 * uses it returns 7 for that); 99 if the exec fails.
 */
static inline int body_exec7(void *arg)
{
	(void)arg;
	execl("/proc/self/exe", program_invocation_name, "--exit", "7", NULL);
	return 99;
}

/* Child body: wait for one byte on the pipe fd passed as arg, then exit 42. */
static inline int body_wait_pipe(void *arg)
{
	return pipe_read_byte((int)(long)arg) < 0 ? 1 : 42;
}

/*
 * Helpers for test bodies.  Like the kernel's own selftests they take the
 * harness's _metadata so that ASSERT_*() and EXPECT_*() work inside them;
 * a failed ASSERT_*() ends the test just as it would in the body.  Each
 * helper performs exactly the checks its comment names, nothing more.
 */

/* Asserts pid > 0 for a child from spawn_traceme() or spawn(). */
static inline pid_t child_ok(struct __test_metadata *_metadata, pid_t pid)
{
	ASSERT_GT(pid, 0);
	return pid;
}

/* spawn_traceme() (the child sits in its SIGSTOP stop), child_ok(). */
static inline pid_t traceme_child(struct __test_metadata *_metadata,
				  child_fn fn, void *arg)
{
	return child_ok(_metadata, spawn_traceme(fn, arg));
}

/*
 * For bodies that prepare some state and then stop themselves with
 * kill(getpid(), SIGSTOP): traceme_child(), then resume_assert() of
 * PTRACE_CONT to that second ST_STOPPED(SIGSTOP).
 */
static inline pid_t traceme_child_ready(struct __test_metadata *_metadata,
					child_fn fn, void *arg)
{
	pid_t pid = traceme_child(_metadata, fn, arg);

	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, 0));
	return pid;
}

/* traceme_child(), then asserts that PTRACE_SETOPTIONS(opts) returns 0. */
static inline pid_t traceme_child_opts(struct __test_metadata *_metadata,
				       child_fn fn, void *arg,
				       unsigned long opts)
{
	pid_t pid = traceme_child(_metadata, fn, arg);

	ASSERT_EQ(0, PTRE(PTRACE_SETOPTIONS, pid, 0, opts));
	return pid;
}

/* spawn() of an untraced child, child_ok(). */
static inline pid_t plain_child(struct __test_metadata *_metadata,
				child_fn fn, void *arg)
{
	return child_ok(_metadata, spawn(fn, arg));
}

/* plain_child(), then asserts that PTRACE_SEIZE with opts returns 0. */
static inline pid_t seized_child(struct __test_metadata *_metadata,
				 child_fn fn, void *arg, unsigned long opts)
{
	pid_t pid = plain_child(_metadata, fn, arg);

	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, opts));
	return pid;
}

/*
 * Asserts pipe(fds) == 0 and fork_child() >= 0; returns fork_child()'s
 * value: 0 in the child, which typically waits for a byte on fds[0].
 */
static inline pid_t fork_with_pipe(struct __test_metadata *_metadata,
				   int fds[2])
{
	pid_t pid;

	ASSERT_EQ(0, pipe(fds));
	pid = fork_child();
	ASSERT_GE(pid, 0);
	return pid;
}

/*
 * Asserts pipe(fds) == 0, then plain_child(fn, fds[0]): typically a body
 * that blocks reading the pipe until release_expect() writes to it.
 */
static inline pid_t piped_child(struct __test_metadata *_metadata,
				child_fn fn, int fds[2])
{
	ASSERT_EQ(0, pipe(fds));
	return plain_child(_metadata, fn, (void *)(long)fds[0]);
}

/* Asserts the write of one byte to fds[1]; expects the next wait status. */
static inline void release_expect(struct __test_metadata *_metadata,
				  pid_t pid, int fds[2], int wflags, int status)
{
	ASSERT_EQ(0, pipe_write_byte(fds[1], 'x'));
	EXPECT_EQ(status, wstat(pid, wflags));
}

/*
 * Asserts that resume request req with signal sig returns 0, then
 * release_expect() with waitpid flags 0.
 */
static inline void resume_release_expect(struct __test_metadata *_metadata,
					 pid_t pid, long req, long sig,
					 int fds[2], int status)
{
	ASSERT_EQ(0, PTRE(req, pid, 0, sig));
	release_expect(_metadata, pid, fds, 0, status);
}

/* Asserts PTRACE_INTERRUPT == 0 and then the PTRACE_EVENT_STOP status. */
static inline void interrupt_stop(struct __test_metadata *_metadata, pid_t pid)
{
	ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat(pid, 0));
}

/* Asserts PTRACE_SEIZE(opts) == 0, then interrupt_stop(). */
static inline void seize_interrupt(struct __test_metadata *_metadata,
				   pid_t pid, unsigned long opts)
{
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, opts));
	interrupt_stop(_metadata, pid);
}

/* plain_child(), then seize_interrupt(opts): the child in PTRACE_EVENT_STOP. */
static inline pid_t interrupted_child(struct __test_metadata *_metadata,
				      child_fn fn, void *arg,
				      unsigned long opts)
{
	pid_t pid = plain_child(_metadata, fn, arg);

	seize_interrupt(_metadata, pid, opts);
	return pid;
}

/* Asserts PTRACE_ATTACH == 0 and then the SIGSTOP stop status. */
static inline void attach_stop(struct __test_metadata *_metadata, pid_t pid)
{
	ASSERT_EQ(0, PTRE(PTRACE_ATTACH, pid, 0, 0));
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, 0));
}

/*
 * Resume requests (CONT, SYSCALL, SINGLESTEP, DETACH, KILL, ...) with
 * signal sig: asserts that the request returns 0, then returns the next
 * wait status (waitpid flags wflags).  Use the wrappers below.
 */
static inline int resume_wait(struct __test_metadata *_metadata, pid_t pid,
			      long req, long sig, int wflags)
{
	ASSERT_EQ(0, PTRE(req, pid, 0, sig));
	return wstat(pid, wflags);
}

/* Resume, then assert (resume_assert) or expect the status (flags 0). */
static inline void resume_assert(struct __test_metadata *_metadata, pid_t pid,
				 long req, long sig, int status)
{
	ASSERT_EQ(status, resume_wait(_metadata, pid, req, sig, 0));
}

static inline void resume_expect(struct __test_metadata *_metadata, pid_t pid,
				 long req, long sig, int status)
{
	EXPECT_EQ(status, resume_wait(_metadata, pid, req, sig, 0));
}

/* The same, waiting with __WALL (threads, auto-attached children). */
static inline void resume_assert_wall(struct __test_metadata *_metadata,
				      pid_t pid, long req, long sig, int status)
{
	ASSERT_EQ(status, resume_wait(_metadata, pid, req, sig, __WALL));
}

static inline void resume_expect_wall(struct __test_metadata *_metadata,
				      pid_t pid, long req, long sig, int status)
{
	EXPECT_EQ(status, resume_wait(_metadata, pid, req, sig, __WALL));
}

/*
 * Asserts PTRACE_GETSIGINFO into *si, then expects si_signo, si_code and
 * si_pid; the caller checks any further fields of *si itself.
 */
static inline void expect_siginfo(struct __test_metadata *_metadata, pid_t pid,
				  siginfo_t *si, int signo, int code, pid_t sender)
{
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, si));
	EXPECT_EQ(signo, si->si_signo);
	EXPECT_EQ(code, si->si_code);
	EXPECT_EQ(sender, si->si_pid);
}

/* Asserts PTRACE_GETSIGINFO and returns the si_code of the stop. */
static inline int stop_si_code(struct __test_metadata *_metadata, pid_t pid)
{
	siginfo_t si;

	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	return si.si_code;
}

/* Expects a syscall-exit-stop's syscall info: op, rval and is_error. */
static inline void expect_info_exit(struct __test_metadata *_metadata,
				    const struct ptrace_syscall_info *info,
				    long long rval, int is_error)
{
	EXPECT_EQ(PTRACE_SYSCALL_INFO_EXIT, info->op);
	EXPECT_EQ(rval, info->exit.rval);
	EXPECT_EQ(is_error, info->exit.is_error);
}

/* Asserts PTRACE_GETEVENTMSG, then expects the message to be msg. */
static inline void expect_eventmsg(struct __test_metadata *_metadata, pid_t pid,
				   unsigned long msg)
{
	unsigned long v = 0;

	ASSERT_EQ(0, PTRE(PTRACE_GETEVENTMSG, pid, 0, &v));
	EXPECT_EQ(msg, v);
}

/* Registers of a stopped tracee (the tracer's own layout: 64 or 32 bits). */
static inline int get_regs(pid_t pid, struct user_regs_struct *r)
{
	return ptr_err(PTRACE_GETREGS, pid, 0, (unsigned long)r);
}

static inline int set_regs(pid_t pid, struct user_regs_struct *r)
{
	return ptr_err(PTRACE_SETREGS, pid, 0, (unsigned long)r);
}

#ifdef __x86_64__
#define REG_IP(r)	((r).rip)
#define REG_AX(r)	((r).rax)
#define REG_ORIG_AX(r)	((r).orig_rax)
#else
#define REG_IP(r)	((r).eip)
#define REG_AX(r)	((r).eax)
#define REG_ORIG_AX(r)	((r).orig_eax)
#endif

/* The stopped tracee's instruction pointer, 0 if GETREGS fails. */
static inline unsigned long get_ip(pid_t pid)
{
	struct user_regs_struct r;

	return get_regs(pid, &r) ? 0 : REG_IP(r);
}

/*
 * Point the stopped tracee at some code in the test binary, with ax in
 * rax/eax; asserts GETREGS and SETREGS.
 */
static inline void set_ip(struct __test_metadata *_metadata, pid_t pid,
			  const void *ip, long ax)
{
	struct user_regs_struct r;

	ASSERT_EQ(0, get_regs(pid, &r));
	REG_IP(r) = (unsigned long)ip;
	REG_AX(r) = ax;
	ASSERT_EQ(0, set_regs(pid, &r));
}

/* A body_pause traceme_child() pointed at ip by set_ip(). */
static inline pid_t traceme_child_at(struct __test_metadata *_metadata,
				     const void *ip, long ax)
{
	pid_t pid = traceme_child(_metadata, body_pause, NULL);

	set_ip(_metadata, pid, ip, ax);
	return pid;
}

/* resume_assert(), then asserts get_regs() into *r. */
static inline void resume_regs(struct __test_metadata *_metadata, pid_t pid,
			       long req, long sig, int status,
			       struct user_regs_struct *r)
{
	resume_assert(_metadata, pid, req, sig, status);
	ASSERT_EQ(0, get_regs(pid, r));
}

/* Asserts set_regs(*r), then resume_expect() of PTRACE_CONT to status. */
static inline void cont_with_regs(struct __test_metadata *_metadata,
				  pid_t pid, struct user_regs_struct *r,
				  int status)
{
	ASSERT_EQ(0, set_regs(pid, r));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, status);
}

/*
 * At a syscall stop whose syscall is skipped (SYSEMU): moves the ip back
 * over the 2-byte syscall instruction with ax = orig_ax so that the
 * syscall really runs this time; then cont_with_regs() to status.
 */
static inline void rerun_syscall(struct __test_metadata *_metadata, pid_t pid,
				 struct user_regs_struct *r, int status)
{
	REG_IP(*r) -= 2;
	REG_AX(*r) = REG_ORIG_AX(*r);
	cont_with_regs(_metadata, pid, r, status);
}

/*
 * Single-steps the tracee once per entry of offs[n], asserting each
 * SIGTRAP stop, and expects its instruction pointer at base + offs[i].
 */
static inline void expect_step_sequence(struct __test_metadata *_metadata,
					pid_t pid, const char *base,
					const int *offs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		resume_assert(_metadata, pid, PTRACE_SINGLESTEP, 0,
			      ST_STOPPED(SIGTRAP));
		EXPECT_EQ((unsigned long)base + offs[i], get_ip(pid));
	}
}

/*
 * Drop to uid/gid nobody (65534), all capabilities go with it.  Changing
 * credentials resets the dumpable flag to suid_dumpable (normally 0), which
 * would make the process (and its children) unattachable for other
 * unprivileged processes; make it dumpable again like a normal process.
 */
static inline int become_nobody(void)
{
	if (setgroups(0, NULL))
		return -1;
	if (setresgid(65534, 65534, 65534))
		return -1;
	if (setresuid(65534, 65534, 65534))
		return -1;
	return prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

#ifdef __x86_64__
/*
 * Code the tracer points a stopped tracee's rip at.  Offsets from
 * pt_step_code: nop(0) nop(1) mov $imm32,%eax(2, 5 bytes) inc %eax(7, 2 bytes)
 * jmp 1f(9, 2 bytes) ud2(11) 1: nop(13) mov %eax,%edi(14) movl $60,%eax(16)
 * syscall(21).  So stepping from pt_step_code visits +1, +2, +7, +9, +13,
 * +14 and the tracee then exits with 0x12345679 & 0xff = 0x79.
 *
 * pt_syscall_insn: "syscall" (2 bytes), then nop (+2), then exit(%rax)
 * (+3: mov %eax,%edi; movl $60,%eax; syscall).
 *
 * pt_exit_r12: exit(%r12).
 */
asm(".pushsection .text\n"
    ".globl pt_step_code\n"
    "pt_step_code:\n"
    "	nop\n"
    "	nop\n"
    "	movl $0x12345678, %eax\n"
    "	inc %eax\n"
    "	.byte 0xeb, 0x02\n"		/* jmp +2 */
    "	ud2\n"
    "	nop\n"
    "	mov %eax, %edi\n"
    "	.byte 0xb8, 60, 0, 0, 0\n"	/* movl $60, %eax */
    "	syscall\n"
    "	ud2\n"
    ".globl pt_syscall_insn\n"
    "pt_syscall_insn:\n"
    "	syscall\n"
    "	nop\n"
    "	mov %eax, %edi\n"
    "	.byte 0xb8, 60, 0, 0, 0\n"
    "	syscall\n"
    "	ud2\n"
    ".globl pt_exit_r12\n"
    "pt_exit_r12:\n"
    "	mov %r12, %rdi\n"
    "	.byte 0xb8, 60, 0, 0, 0\n"
    "	syscall\n"
    "	ud2\n"
    ".popsection\n");
extern const char pt_step_code[], pt_syscall_insn[], pt_exit_r12[];

/* Asserts get_regs() into *r, then expects orig_rax == nr and rax == rax. */
static inline void expect_syscall_regs(struct __test_metadata *_metadata,
				       pid_t pid, struct user_regs_struct *r,
				       long nr, long rax)
{
	ASSERT_EQ(0, get_regs(pid, r));
	EXPECT_EQ(nr, (long)r->orig_rax);
	EXPECT_EQ(rax, (long)r->rax);
}
#endif

#endif /* PTRACE_UTIL_H */
