// SPDX-License-Identifier: GPL-2.0
/*
 * bench: the benchmark programs, one per subcommand.
 *
 *	bench NAME N [ARG]
 *
 * Each subcommand does its operation N times and prints one line
 *
 *	result NAME UNIT VALUE
 *
 * where VALUE is the guest's CLOCK_MONOTONIC time per operation (under
 * QEMU -icount this is a function of the instructions executed, so it is
 * deterministic).  Any unexpected failure prints "bench NAME: ..." on
 * stderr and exits 1; no result line is printed then.  Exit status 4
 * means the kernel lacks what the benchmark needs (the reason is the
 * last line on stderr): not measured, not a failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *name;

static void die(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	fprintf(stderr, "bench %s: ", name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (errno %d: %s)\n", e, strerror(e));
	exit(1);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void result(const char *unit, double ns, long n)
{
	double v = ns / n;

	if (!strncmp(unit, "us", 2))
		v /= 1000;
	printf("result %s %s %.3f\n", name, unit, v);
}

static pid_t xfork(void)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	return pid;
}

/* Wait for one child; it must exit with status 0. */
static void reap(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		die("waitpid %d", pid);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		die("child %d ended with status 0x%x", pid, st);
}

/* waitpid() that expects a ptrace stop; returns the status. */
static int wait_stop(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, __WALL) != pid)
		die("waitpid %d", pid);
	if (!WIFSTOPPED(st))
		die("child %d not stopped: status 0x%x", pid, st);
	return st;
}

static void xptrace(int req, pid_t pid, void *addr, void *data)
{
	if (ptrace(req, pid, addr, data) < 0)
		die("ptrace(%d, %d)", req, pid);
}

/* A child that stops itself under PTRACE_TRACEME, then runs fn(n). */
static pid_t traced_child(void (*fn)(long), long n)
{
	pid_t pid = xfork();

	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) < 0)
			_exit(10);
		raise(SIGSTOP);
		fn(n);
		_exit(0);
	}
	wait_stop(pid);
	return pid;
}

/* ---- untraced ---- */

/*
 * The untraced benchmarks are short operations with a 1% target, so they
 * run in ROUNDS rounds of n / ROUNDS and report the median round: a round
 * that a timer tick, an RCU callback batch or a kworker happened to land
 * in does not move the result.  All rounds are printed for the curious.
 */
#define ROUNDS 7

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void median_result(const char *unit, double (*round)(long, const char *),
			  long n, const char *arg)
{
	double t[ROUNDS];
	long per = n / ROUNDS > 0 ? n / ROUNDS : 1;

	round(per, arg);	/* warm up: caches, slabs, page tables */
	fprintf(stderr, "rounds of %ld, ns per operation:", per);
	for (int r = 0; r < ROUNDS; r++) {
		t[r] = round(per, arg);
		fprintf(stderr, " %.0f", t[r] / per);
	}
	fprintf(stderr, "\n");
	qsort(t, ROUNDS, sizeof(t[0]), cmp_double);
	result(unit, t[ROUNDS / 2], per);
}

static double r_getpid(long n, const char *arg)
{
	double t = now_ns();

	for (long i = 0; i < n; i++)
		syscall(SYS_getpid);
	return now_ns() - t;
}

static double r_fork(long n, const char *arg)
{
	double t = now_ns();

	for (long i = 0; i < n; i++) {
		pid_t pid = xfork();

		if (pid == 0)
			_exit(0);
		reap(pid);
	}
	return now_ns() - t;
}

/* One fork, then a chain of n execs of the tiny program, then wait. */
static double r_exec(long n, const char *tiny)
{
	char arg[24];
	double t;
	pid_t pid;

	snprintf(arg, sizeof(arg), "%ld", n);
	t = now_ns();
	pid = xfork();
	if (pid == 0) {
		execl(tiny, tiny, arg, (char *)NULL);
		_exit(127);
	}
	reap(pid);
	return now_ns() - t;
}

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	got++;
}

static double r_signal(long n, const char *arg)
{
	double t;

	got = 0;
	signal(SIGUSR1, on_usr1);
	t = now_ns();
	for (long i = 0; i < n; i++)
		kill(getpid(), SIGUSR1);
	t = now_ns() - t;
	if (got != n)
		die("%d of %ld signals handled", (int)got, n);
	return t;
}

static void *thread_fn(void *arg)
{
	return arg;
}

static double r_thread(long n, const char *arg)
{
	double t = now_ns();

	for (long i = 0; i < n; i++) {
		pthread_t th;

		errno = pthread_create(&th, NULL, thread_fn, NULL);
		if (errno)
			die("pthread_create");
		pthread_join(th, NULL);
	}
	return now_ns() - t;
}

static void b_getpid(long n) { median_result("ns/call", r_getpid, n, NULL); }
static void b_fork(long n) { median_result("us/fork", r_fork, n, NULL); }
static void b_signal(long n) { median_result("ns/signal", r_signal, n, NULL); }
static void b_thread(long n) { median_result("us/thread", r_thread, n, NULL); }

/* ---- ptrace ---- */

static void getppid_loop(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
}

/* PTRACE_SYSCALL: an entry and an exit stop per system call. */
static void b_ptrace_syscall(long n)
{
	pid_t pid = traced_child(getppid_loop, n);
	long stops = 0;
	double t = now_ns();
	int st;

	for (;;) {
		xptrace(PTRACE_SYSCALL, pid, 0, 0);
		if (waitpid(pid, &st, 0) != pid)
			die("waitpid");
		if (WIFEXITED(st))
			break;
		stops++;
	}
	t = now_ns() - t;
	if (WEXITSTATUS(st) || stops < 2 * n)
		die("status 0x%x after %ld stops for %ld calls", st, stops, n);
	result("us/syscall", t, n);
}

static void spin(long n)
{
	for (;;)
		asm volatile("" ::: "memory");
}

static void b_singlestep(long n)
{
	pid_t pid = traced_child(spin, 0);
	double t = now_ns();

	for (long i = 0; i < n; i++) {
		xptrace(PTRACE_SINGLESTEP, pid, 0, 0);
		if ((wait_stop(pid) >> 8) != SIGTRAP)
			die("step %ld did not stop with SIGTRAP", i);
	}
	t = now_ns() - t;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	result("us/step", t, n);
}

static void b_attach(long n)
{
	pid_t pid = xfork();
	double t;

	if (pid == 0) {
		for (;;)
			pause();
	}
	t = now_ns();
	for (long i = 0; i < n; i++) {
		xptrace(PTRACE_ATTACH, pid, 0, 0);
		wait_stop(pid);
		xptrace(PTRACE_DETACH, pid, 0, 0);
	}
	t = now_ns() - t;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	result("us/attach+detach", t, n);
}

#define BUF_WORDS (64 * 1024 / sizeof(long))
static long buf[BUF_WORDS];

static void b_peekdata(long n)
{
	pid_t pid;
	double t;
	long sum = 0;

	for (size_t i = 0; i < BUF_WORDS; i++)
		buf[i] = i;
	pid = traced_child(spin, 0);
	t = now_ns();
	for (long i = 0; i < n; i++) {
		errno = 0;
		sum += ptrace(PTRACE_PEEKDATA, pid, &buf[i % BUF_WORDS], 0);
		if (errno)
			die("PEEKDATA");
	}
	t = now_ns() - t;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	if (n <= (long)BUF_WORDS && sum != n * (n - 1) / 2)
		die("PEEKDATA read wrong data");
	result("ns/word", t, n);
}

/* process_vm_readv of the whole 64 KiB buffer, n times. */
static void b_vm_readv(long n)
{
	static long dst[BUF_WORDS];
	struct iovec l = { dst, sizeof(dst) }, r = { buf, sizeof(buf) };
	pid_t pid;
	double t;

	for (size_t i = 0; i < BUF_WORDS; i++)
		buf[i] = i;
	pid = traced_child(spin, 0);
	t = now_ns();
	if (process_vm_readv(pid, &l, 1, &r, 1, 0) < 0 && errno == ENOSYS) {
		kill(pid, SIGKILL);
		fprintf(stderr, "the kernel has no process_vm_readv (CONFIG_CROSS_MEMORY_ATTACH is not set)\n");
		exit(4);
	}
	for (long i = 0; i < n; i++)
		if (process_vm_readv(pid, &l, 1, &r, 1, 0) != sizeof(buf))
			die("process_vm_readv");
	t = now_ns() - t;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	if (dst[BUF_WORDS - 1] != BUF_WORDS - 1)
		die("process_vm_readv read wrong data");
	result("us/64KiB", t, n);
}

static void fork_loop(long n)
{
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			_exit(11);
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, NULL, 0) != pid)
			_exit(12);
	}
}

/* PTRACE_O_TRACEFORK: every fork reports, every child starts traced. */
static void b_tracefork(long n)
{
	pid_t pid = traced_child(fork_loop, n), w;
	long forks = 0;
	double t;
	int st;

	xptrace(PTRACE_SETOPTIONS, pid, 0, (void *)PTRACE_O_TRACEFORK);
	t = now_ns();
	xptrace(PTRACE_CONT, pid, 0, 0);
	for (;;) {
		w = waitpid(-1, &st, __WALL);
		if (w < 0)
			die("waitpid");
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			if (w == pid)
				break;
			continue;
		}
		if (st >> 8 == (SIGTRAP | (PTRACE_EVENT_FORK << 8)))
			forks++;
		/* Pass on real signals (SIGCHLD), swallow the stops. */
		int sig = WSTOPSIG(st);

		if (sig == SIGTRAP || sig == SIGSTOP)
			sig = 0;
		xptrace(PTRACE_CONT, w, 0, (void *)(long)sig);
	}
	t = now_ns() - t;
	if (!WIFEXITED(st) || WEXITSTATUS(st) || forks != n)
		die("status 0x%x after %ld fork events for %ld forks", st, forks, n);
	result("us/fork", t, n);
}

/*
 * The fixed workload for strace -f, strace -c and the utrace syscall
 * counter: per iteration getppid, a 1-byte write to /dev/null and an
 * lseek (not sched_yield: its cost depends on who else is runnable);
 * every 16th iteration a child that does the same 4 times.
 * With ARG "wait", it first blocks until a byte arrives on stdin (so an
 * engine can be attached before the work starts).
 */
static void work(int fd, long n)
{
	for (long i = 0; i < n; i++) {
		syscall(SYS_getppid);
		if (write(fd, "x", 1) != 1)
			die("write");
		lseek(fd, 0, SEEK_CUR);
	}
}

static void b_workload(long n, const char *arg)
{
	int fd = open("/dev/null", O_WRONLY);
	char c;
	double t;

	if (fd < 0)
		die("open /dev/null");
	if (arg && !strcmp(arg, "wait") && read(0, &c, 1) != 1)
		die("read the go byte");
	t = now_ns();
	for (long i = 0; i < n; i++) {
		work(fd, 1);
		if (i % 16 == 15) {
			pid_t pid = xfork();

			if (pid == 0) {
				work(fd, 4);
				_exit(0);
			}
			reap(pid);
		}
	}
	result("us/iteration", now_ns() - t, n);
}

/* The gdb target: 'break bp_hit'; each call is one breakpoint hit. */
__attribute__((noinline)) void bp_hit(long i)
{
	asm volatile("" : : "r"(i) : "memory");
}

static void b_breakpoint(long n)
{
	double t = now_ns();

	for (long i = 0; i < n; i++)
		bp_hit(i);
	result("us/hit", now_ns() - t, n);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(long);
	} simple[] = {
		{ "getpid", b_getpid },
		{ "fork", b_fork },
		{ "signal", b_signal },
		{ "thread", b_thread },
		{ "ptrace-syscall", b_ptrace_syscall },
		{ "singlestep", b_singlestep },
		{ "attach-detach", b_attach },
		{ "peekdata", b_peekdata },
		{ "vm-readv", b_vm_readv },
		{ "tracefork", b_tracefork },
		{ "breakpoint", b_breakpoint },
	};
	long n;

	if (argc < 3) {
		fprintf(stderr, "usage: bench NAME N [ARG]\n");
		return 2;
	}
	name = argv[1];
	n = atol(argv[2]);
	if (n <= 0)
		die("N must be positive, not '%s'", argv[2]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(name, "exec")) {
		if (argc < 4)
			die("usage: bench exec N TINY");
		median_result("us/exec", r_exec, n, argv[3]);
		return 0;
	}
	if (!strcmp(name, "workload")) {
		b_workload(n, argc > 3 ? argv[3] : NULL);
		return 0;
	}
	for (size_t i = 0; i < sizeof(simple) / sizeof(simple[0]); i++) {
		if (!strcmp(name, simple[i].name)) {
			simple[i].fn(n);
			return 0;
		}
	}
	fprintf(stderr, "bench: unknown benchmark '%s'\n", name);
	return 2;
}
