// SPDX-License-Identifier: GPL-2.0-only
/*
 * Who may open /proc/PID/gdb: exactly who may PTRACE_ATTACH, with the
 * same errno.  Each case makes a target process with some credentials, then
 * tries both from a tracer process with other credentials (and YAMA's
 * ptrace_scope set for the case), and checks both errnos against what
 * ptrace's rules (ptrace(2), Documentation/admin-guide/LSM/Yama.rst) give.
 * The few cases where the stub means to differ say why.
 *
 * Then the rule for an exec that gains privilege: under a tracer that may
 * not trace the new program (no CAP_SYS_PTRACE), a set-user-ID program
 * runs without the gain, under ptrace and under the stub alike.
 *
 *   perm        (as root, in the guest)
 *   perm euid   (prints its effective uid: the set-user-ID helper)
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
#include <sys/stat.h>
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

/*
 * A set-user-ID root copy of this program, in a directory of its own on
 * /tmp (a tmpfs; the root file system is the host's, read-only).
 */
static char suid_dir[] = "/tmp/perm-suid.XXXXXX";
static char suid_prog[64];

static void make_suid_copy(void)
{
	char buf[65536];
	ssize_t n;
	int in, out;

	if (!mkdtemp(suid_dir) || chmod(suid_dir, 0755))
		die("making a directory for the set-user-ID helper");
	snprintf(suid_prog, sizeof(suid_prog), "%s/perm", suid_dir);
	in = open("/proc/self/exe", O_RDONLY);
	out = open(suid_prog, O_WRONLY | O_CREAT | O_EXCL, 0700);
	if (in < 0 || out < 0)
		die("copying the set-user-ID helper");
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			die("writing the set-user-ID helper");
	if (n < 0 || close(out) || fchmodat(AT_FDCWD, suid_prog, 04755, 0))
		die("writing the set-user-ID helper");
	close(in);
}

static void remove_suid_copy(void)
{
	unlink(suid_prog);
	rmdir(suid_dir);
}

/* Read one packet's reply from the stub ("$...#xx"), skipping acks. */
static int gdb_read_reply(int fd)
{
	int hashes = -1;
	char c;

	while (read(fd, &c, 1) == 1) {
		if (hashes < 0 && c == '#')
			hashes = 0;
		else if (hashes >= 0 && ++hashes == 2)
			return write(fd, "+", 1) == 1 ? 0 : -1;
	}
	return -1;
}

enum tracer { NO_TRACER, PTRACER, GDB_STUB };

/*
 * The tracer of exec_euid(), in a child with credentials @c: attach to
 * @pid as @how says, say so on @ready, and let @pid run until it exits
 * (ptrace) or execs (the stub ends the session: end of file).
 */
static void trace_exec(const struct creds *c, enum tracer how, pid_t pid,
		       int ready)
{
	char path[64], x;
	int status, fd;

	become(c);
	alarm(60);
	if (how == PTRACER) {
		if (ptrace(PTRACE_ATTACH, pid, 0, 0) ||
		    waitpid(pid, &status, __WALL) != pid ||
		    ptrace(PTRACE_CONT, pid, 0, 0) || write(ready, "a", 1) != 1)
			_exit(1);
		/* The exec's SIGTRAP and the stop signals are not passed. */
		while (waitpid(pid, &status, __WALL) == pid &&
		       WIFSTOPPED(status))
			ptrace(PTRACE_CONT, pid, 0, 0);
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%d/gdb", pid);
	fd = open(path, O_RDWR);
	if (fd < 0 || write(fd, "$?#3f", 5) != 5 || gdb_read_reply(fd) ||
	    write(fd, "$c#63", 5) != 5 || write(ready, "a", 1) != 1)
		_exit(1);
	while (read(fd, &x, 1) == 1)
		;
	_exit(0);
}

/*
 * A process of user 1000 execs the set-user-ID root helper, traced as
 * @how by a tracer with credentials @c: the helper's effective uid, or
 * -1 if it did not say.
 */
static int exec_euid(const struct creds *c, enum tracer how)
{
	int ready[2], go[2], out[2], att[2], euid = -1, status;
	pid_t pid, tracer = 0;
	char x, line[32];
	ssize_t n;

	if (pipe(ready) || pipe(go) || pipe(out) || pipe(att))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		become(&user1000);
		alarm(60);
		if (write(ready[1], "r", 1) != 1 || read(go[0], &x, 1) != 1)
			_exit(1);
		dup2(out[1], 1);
		execl(suid_prog, suid_prog, "euid", (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	if (read(ready[0], &x, 1) != 1)
		die("exec target start");
	if (how != NO_TRACER) {
		tracer = fork();
		if (tracer < 0)
			die("fork");
		if (!tracer)
			trace_exec(c, how, pid, att[1]);
	}
	/* End of file if the tracer exits without attaching. */
	close(att[1]);
	if (how != NO_TRACER && read(att[0], &x, 1) != 1)
		result(0, "perm: setuid exec: the tracer attaches (%s)",
		       how == PTRACER ? "PTRACE_ATTACH" : "/proc/PID/gdb");
	if (write(go[1], "g", 1) != 1)
		die("exec target go");
	n = read(out[0], line, sizeof(line) - 1);
	if (n > 0) {
		line[n] = 0;
		euid = atoi(line);
	}
	waitpid(pid, &status, 0);
	if (tracer)
		waitpid(tracer, &status, 0);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	close(out[0]);
	close(att[0]);
	return euid;
}

/* Both tracers' view of the exec against the effective uid wanted. */
static void exec_case(const char *name, const struct creds *c, int want)
{
	int p = exec_euid(c, PTRACER), g = exec_euid(c, GDB_STUB);

	result(p == want && g == want,
	       "perm: setuid exec, %s (euid under PTRACE_ATTACH %d, under /proc/PID/gdb %d; want %d)",
	       name, p, g, want);
}

int main(int argc, char **argv)
{
	const struct creds user1001 = { 1001, 1001, 0 };
	const struct creds user1000_gid1001 = { 1000, 1001, 0 };
	const struct creds root_no_ptrace = { 0, 0, 1 };
	int scope0, status, euid;
	pid_t pid, tracer;
	pthread_t t;
	int fd;

	/* The set-user-ID helper. */
	if (argc > 1 && !strcmp(argv[1], "euid")) {
		printf("%u\n", geteuid());
		return 0;
	}
	scope0 = get_scope();

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

	/* An exec that gains privilege, under tracers that may or may not. */
	set_scope(0);
	make_suid_copy();
	euid = exec_euid(&root, NO_TRACER);
	result(euid == 0,
	       "perm: setuid exec, untraced (euid %d; want 0: the helper is set-user-ID root)",
	       euid);
	exec_case("a user's tracer", &user1000, 1000);
	exec_case("root's tracer", &root, 0);
	remove_suid_copy();

	set_scope(scope0);
	return failures ? 1 : 0;
}
