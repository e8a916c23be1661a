// SPDX-License-Identifier: GPL-2.0-only
/*
 * Who may open /proc/PID/gdb: exactly who may PTRACE_ATTACH, with the
 * same errno.  Each case makes a target process with some credentials, then
 * tries both from a tracer process with other credentials (and YAMA's
 * ptrace_scope set for the case), and checks both errnos against what
 * ptrace's rules (ptrace(2), Documentation/admin-guide/LSM/Yama.rst) give.
 * The few cases where the stub means to differ say why.
 *
 *   perm        (as root, in the guest)
 *
 * Prints one line per case: "PASS<TAB>message" or "FAIL<TAB>message";
 * tests/gdbstub/gdbstub-test.sh turns them into TAP rows.  Exit status 0
 * if every case passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SCOPE_FILE "/proc/sys/kernel/yama/ptrace_scope"

struct creds {
	uid_t uid;
	gid_t gid;
	int no_sys_ptrace;	/* drop CAP_SYS_PTRACE (keep the others) */
};

static const struct creds root = { 0, 0, 0 };
static const struct creds user1000 = { 1000, 1000, 0 };

static int failures;

static void result(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void result(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s\t", ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	failures += !ok;
}

static const char *ename(int err)
{
	switch (err) {
	case 0: return "0";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ESRCH: return "ESRCH";
	case ENOENT: return "ENOENT";
	case EBUSY: return "EBUSY";
	default: return strerror(err);
	}
}

static void die(const char *what)
{
	printf("FAIL\tperm: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void set_scope(int scope)
{
	FILE *f = fopen(SCOPE_FILE, "w");

	if (!f || fprintf(f, "%d\n", scope) < 0 || fclose(f))
		die("writing " SCOPE_FILE);
}

static int get_scope(void)
{
	FILE *f = fopen(SCOPE_FILE, "r");
	int scope;

	if (!f || fscanf(f, "%d", &scope) != 1)
		die("reading " SCOPE_FILE);
	fclose(f);
	return scope;
}

/* Become @c, in a child that is about to act. */
static void become(const struct creds *c)
{
	if (c->no_sys_ptrace) {
		struct __user_cap_header_struct h = {
			.version = _LINUX_CAPABILITY_VERSION_3,
		};
		struct __user_cap_data_struct d[2];

		if (syscall(SYS_capget, &h, d))
			die("capget");
		d[CAP_SYS_PTRACE / 32].effective &= ~(1u << (CAP_SYS_PTRACE % 32));
		d[CAP_SYS_PTRACE / 32].permitted &= ~(1u << (CAP_SYS_PTRACE % 32));
		if (syscall(SYS_capset, &h, d))
			die("capset");
	}
	if (!c->uid && !c->gid)
		return;
	if (setgroups(0, NULL) || setresgid(c->gid, c->gid, c->gid) ||
	    setresuid(c->uid, c->uid, c->uid))
		die("setting credentials");
	/* The change made us non-dumpable; children inherit this. */
	prctl(PR_SET_DUMPABLE, 1);
}

/*
 * PTRACE_ATTACH: 0 or its errno.  Detached again once the attach stop is
 * seen; a thread that another engine holds stopped (a gdb session) does
 * not get there, and our exit detaches it then.
 */
static int try_ptrace(pid_t pid)
{
	int status, i;

	if (ptrace(PTRACE_ATTACH, pid, 0, 0))
		return errno;
	for (i = 0; i < 200; i++) {
		pid_t w = waitpid(pid, &status, __WALL | WNOHANG);

		if (w < 0)
			die("waitpid after PTRACE_ATTACH");
		if (w == pid) {
			if (ptrace(PTRACE_DETACH, pid, 0, 0))
				die("PTRACE_DETACH");
			break;
		}
		usleep(10000);
	}
	return 0;
}

/* open("/proc/PID/gdb"): 0 (then closed again) or its errno. */
static int try_gdb(pid_t pid)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/gdb", pid);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

enum how { TRY_PTRACE, TRY_GDB };

static int try(enum how how, pid_t pid)
{
	return how == TRY_PTRACE ? try_ptrace(pid) : try_gdb(pid);
}

/*
 * In a child with credentials @c: try @how on @pid (0: the child's own
 * child, forked with @c first, so the tracer is its ancestor).  The
 * errno comes back as the exit status.
 */
static int try_as(const struct creds *c, enum how how, pid_t pid)
{
	pid_t kid = fork(), own = 0;
	int status;

	if (kid < 0)
		die("fork");
	if (!kid) {
		become(c);
		if (!pid) {
			own = fork();
			if (own < 0)
				die("fork");
			if (!own) {
				pause();
				_exit(0);
			}
			pid = own;
		}
		status = try(how, pid);
		if (own) {
			kill(own, SIGKILL);
			waitpid(own, NULL, 0);
		}
		_exit(status);
	}
	if (waitpid(kid, &status, 0) != kid || !WIFEXITED(status))
		die("waiting for the tracer");
	return WEXITSTATUS(status);
}

/* A process with credentials @c that waits; dumpable unless told not. */
static pid_t start_target(const struct creds *c, int dumpable)
{
	int p[2];
	pid_t pid;
	char x;

	if (pipe(p))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		close(p[0]);
		become(c);
		/* A credential change made us non-dumpable: say which. */
		prctl(PR_SET_DUMPABLE, dumpable);
		if (write(p[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (read(p[0], &x, 1) != 1)
		die("target start");
	close(p[0]);
	return pid;
}

static void end_target(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* One row: both errnos against what is wanted (@why: a difference). */
static void report(const char *name, int p, int g, int want_ptrace,
		   int want_gdb, const char *why)
{
	result(p == want_ptrace && g == want_gdb,
	       "perm: %s (PTRACE_ATTACH %s, /proc/PID/gdb %s; want %s, %s%s%s)",
	       name, ename(p), ename(g), ename(want_ptrace), ename(want_gdb),
	       why ? "; " : "", why ? why : "");
}

/* Both tries on @pid as @tracer under @scope, against what is wanted. */
static void check(const char *name, int scope, const struct creds *tracer,
		  pid_t pid, int want_ptrace, int want_gdb, const char *why)
{
	int p, g;

	set_scope(scope);
	p = try_as(tracer, TRY_PTRACE, pid);
	g = try_as(tracer, TRY_GDB, pid);
	report(name, p, g, want_ptrace, want_gdb, why);
}

static void target_case(const char *name, int scope,
			const struct creds *tracer, const struct creds *tc,
			int dumpable, int want)
{
	pid_t pid = start_target(tc, dumpable);

	check(name, scope, tracer, pid, want, want, NULL);
	end_target(pid);
}

static volatile pid_t thread_tid;

static void *thread_sleep(void *arg)
{
	(void)arg;
	thread_tid = gettid();
	for (;;)
		pause();
	return NULL;
}

int main(void)
{
	const struct creds user1001 = { 1001, 1001, 0 };
	const struct creds user1000_gid1001 = { 1000, 1001, 0 };
	const struct creds root_no_ptrace = { 0, 0, 1 };
	int scope0 = get_scope(), status;
	pid_t pid, tracer;
	pthread_t t;
	int fd;

	/* Credentials, without YAMA's restrictions (ptrace_scope 0). */
	target_case("root, another user's process", 0, &root, &user1000, 1, 0);
	target_case("a user, own process", 0, &user1000, &user1000, 1, 0);
	target_case("a user, another user's process", 0, &user1000,
		    &user1001, 1, EPERM);
	target_case("a user, own non-dumpable process", 0, &user1000,
		    &user1000, 0, EPERM);
	target_case("a user, root's process", 0, &user1000, &root, 1, EPERM);
	target_case("a user, own uid with another gid", 0, &user1000,
		    &user1000_gid1001, 1, EPERM);
	target_case("root without CAP_SYS_PTRACE, another user's process", 0,
		    &root_no_ptrace, &user1000, 1, EPERM);

	/* YAMA: 1 = descendants only, 2 = CAP_SYS_PTRACE only. */
	target_case("ptrace_scope 1, a user, own process not a descendant", 1,
		    &user1000, &user1000, 1, EPERM);
	check("ptrace_scope 1, a user, own descendant", 1, &user1000, 0,
	      0, 0, NULL);
	check("ptrace_scope 2, a user, own descendant", 2, &user1000, 0,
	      EPERM, EPERM, NULL);
	target_case("ptrace_scope 2, root, another user's process", 2, &root,
		    &user1000, 1, 0);

	/* Processes nobody may attach to, whoever asks. */
	check("root, a kernel thread (kthreadd)", 0, &root, 2, EPERM, EPERM,
	      NULL);
	set_scope(0);
	report("root, its own process", try_ptrace(getpid()),
	       try_gdb(getpid()), EPERM, EPERM, NULL);
	if (pthread_create(&t, NULL, thread_sleep, NULL))
		die("pthread_create");
	while (!thread_tid)
		usleep(1000);
	/* Its /proc/TID/gdb: the thread's own view of the process. */
	report("root, a thread of its own process", try_ptrace(thread_tid),
	       try_gdb(thread_tid), EPERM, EPERM, NULL);

	/* A zombie: ptrace refuses it (exit_state), and so must the open. */
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid)
		_exit(0);
	{
		siginfo_t si;

		if (waitid(P_PID, pid, &si, WEXITED | WNOWAIT))
			die("waitid");
	}
	check("root, a zombie", 0, &root, pid, EPERM, EPERM, NULL);
	waitpid(pid, NULL, 0);
	check("root, a reaped process", 0, &root, pid, ESRCH, ENOENT,
	      "its /proc directory is gone");

	/* Where the stub means to differ: it is not a ptracer. */
	pid = start_target(&user1000, 1);
	tracer = fork();
	if (tracer < 0)
		die("fork");
	if (!tracer) {
		if (ptrace(PTRACE_ATTACH, pid, 0, 0) ||
		    waitpid(pid, &status, __WALL) != pid)
			_exit(1);
		ptrace(PTRACE_CONT, pid, 0, 0);
		pause();
		_exit(0);
	}
	for (int i = 0; i < 1000; i++) {
		char path[64], line[128];
		FILE *f;
		int tp = 0;

		snprintf(path, sizeof(path), "/proc/%d/status", pid);
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			if (!strncmp(line, "TracerPid:", 10))
				tp = atoi(line + 10);
		if (f)
			fclose(f);
		if (tp)
			break;
		usleep(10000);
	}
	check("root, a process another tracer ptraces", 0, &root, pid, EPERM, 0,
	      "the stub works beside a ptracer");
	kill(tracer, SIGKILL);
	waitpid(tracer, NULL, 0);
	end_target(pid);

	pid = start_target(&user1000, 1);
	{
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/gdb", pid);
		fd = open(path, O_RDWR);
		if (fd < 0)
			die("first open of /proc/PID/gdb");
	}
	check("root, a process with a gdb session open", 0, &root, pid, 0,
	      EBUSY, "one session per process; ptrace works beside it");
	close(fd);
	end_target(pid);

	set_scope(scope0);
	return failures ? 1 : 0;
}
