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
 *
 * Two take an ARG: "engines N K" (N getpid calls with K counting utrace
 * engines on the thread) and "attach-threads N THREADS" (N rounds of attaching an
 * engine to every thread of a THREADS-thread process).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * "engines" drives the counting engines of bench/kmod/utrace_bench.ko
 * (utrace_bench.h, on the include path from bench/run.sh).
 * "attach-threads" drives the test module's misc device
 * (lib/test_utrace.c); its ABI header lives in the kernel tree's lib/,
 * which bench/run.sh puts on the include path.  Without it that
 * benchmark exits 4 (not measured).
 */
#include "utrace_bench.h"
#if __has_include("test_utrace_uapi.h")
#include "test_utrace_uapi.h"
#define HAVE_TEST_UTRACE 1
#else
#define HAVE_TEST_UTRACE 0
#endif

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

/* Operations per round of median_result(). */
static long round_size(long n)
{
	return n / ROUNDS > 0 ? n / ROUNDS : 1;
}

/* Operations that median_result() ran, warm-up included (for the log). */
static long median_ops;

static void median_result(const char *unit, double (*round)(long, const char *),
			  long n, const char *arg)
{
	double t[ROUNDS];
	long per = round_size(n);

	median_ops = per * (ROUNDS + 1);

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

/*
 * The same in a process that a tracer attached to and detached from
 * first: with CONFIG_UTRACE=y its ptrace engine stays attached, idle, for
 * the next tracer, and must cost nothing meanwhile.  A helper child seizes
 * us, interrupts us while we wait for it, and detaches.
 */
static void b_signal_detached(long n)
{
	pid_t me = getpid(), h = fork();
	int st;

	if (h < 0)
		die("fork");
	if (h == 0) {
		if (ptrace(PTRACE_SEIZE, me, 0, 0) ||
		    ptrace(PTRACE_INTERRUPT, me, 0, 0))
			_exit(1);
		if (waitpid(me, &st, __WALL) != me || !WIFSTOPPED(st))
			_exit(2);
		if (ptrace(PTRACE_DETACH, me, 0, 0))
			_exit(3);
		_exit(0);
	}
	if (waitpid(h, &st, 0) != h || st)
		die("the tracer helper: status 0x%x", st);
	median_result("ns/signal", r_signal, n, NULL);
}
static void b_thread(long n) { median_result("us/thread", r_thread, n, NULL); }

/*
 * rseq-switch: two threads of one process ping-pong through a futex
 * word: one operation is a round trip, two context switches on one CPU
 * (guest.sh pins everything to CPU 0; the program pins itself to the CPU
 * it runs on, for a run by hand).  Both threads have rseq registered
 * (glibc does it for every thread since 2.35; without it, the program
 * registers its own area), so every switch sets TIF_NOTIFY_RESUME and
 * each return to user mode takes resume_user_mode_work(), where the
 * utrace hook tests the thread's utrace flags.
 */
static long futex(int *word, int op, int val)
{
	return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

/* Sleep until *word is no longer val. */
static void wait_while(int *word, int val)
{
	while (__atomic_load_n(word, __ATOMIC_ACQUIRE) == val)
		if (futex(word, FUTEX_WAIT_PRIVATE, val) < 0 &&
		    errno != EAGAIN && errno != EINTR)
			die("FUTEX_WAIT");
}

static void set_and_wake(int *word, int val)
{
	__atomic_store_n(word, val, __ATOMIC_RELEASE);
	if (futex(word, FUTEX_WAKE_PRIVATE, 1) < 0)
		die("FUTEX_WAKE");
}

/* The area the program registers itself when glibc did not. */
static __thread struct rseq own_rseq;

/*
 * Make sure the calling thread has rseq registered and the kernel keeps
 * its cpu_id up to date.  Exit 4 (not measured) if the kernel has no
 * rseq.
 */
static void rseq_check(void)
{
	struct rseq *rs = &own_rseq;

	if (__rseq_size) {
		rs = (struct rseq *)((char *)__builtin_thread_pointer() + __rseq_offset);
	} else {
		own_rseq.cpu_id = RSEQ_CPU_ID_UNINITIALIZED;
		/* 32: the original size, which every kernel with rseq takes. */
		if (syscall(SYS_rseq, &own_rseq, 32, 0, RSEQ_SIG) < 0) {
			if (errno == ENOSYS) {
				fprintf(stderr, "the kernel has no rseq (CONFIG_RSEQ=n)\n");
				exit(4);
			}
			die("rseq registration");
		}
	}
	if ((int)__atomic_load_n(&rs->cpu_id, __ATOMIC_RELAXED) < 0)
		die("rseq is registered but its cpu_id is %d", (int)rs->cpu_id);
}

static int turn;	/* 0: the main thread's turn, 1: the partner's */
static int partner_stop;

static void *switch_partner(void *arg)
{
	rseq_check();
	for (;;) {
		wait_while(&turn, 0);
		if (__atomic_load_n(&partner_stop, __ATOMIC_ACQUIRE))
			return NULL;
		set_and_wake(&turn, 0);
	}
}

static double r_switch(long n, const char *arg)
{
	double t = now_ns();

	for (long i = 0; i < n; i++) {
		set_and_wake(&turn, 1);
		wait_while(&turn, 1);
	}
	return now_ns() - t;
}

/*
 * Pin the calling thread (and the threads it creates later) to the CPU
 * it runs on: guest.sh has pinned everything to CPU 0 already; this is
 * for a run by hand.  Returns the CPU.
 */
static int pin_here(void)
{
	cpu_set_t cpus;
	int cpu = sched_getcpu();

	if (cpu < 0)
		die("sched_getcpu");
	CPU_ZERO(&cpus);
	CPU_SET(cpu, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		die("sched_setaffinity to CPU %d", cpu);
	return cpu;
}

/*
 * The rusage of this process and of its children that it reaped, summed:
 * the tracees of the ptrace benchmarks are reaped before they return.
 */
static void rusage_all(struct rusage *ru)
{
	struct rusage c;

	if (getrusage(RUSAGE_SELF, ru) || getrusage(RUSAGE_CHILDREN, &c))
		die("getrusage");
	ru->ru_nvcsw += c.ru_nvcsw;
	ru->ru_nivcsw += c.ru_nivcsw;
}

/*
 * Nanoseconds that the CPUs have idled since boot: the sum of
 * /proc/timer_list's idle_sleeptime, or -1 if it cannot be read.  Under
 * -icount (sleep=off) guest time jumps to the next timer while a CPU
 * idles, so a row whose time changed with the same instructions may
 * have idled more.
 */
static long long idle_ns(void)
{
	FILE *f = fopen("/proc/timer_list", "r");
	char line[256];
	long long sum = 0, v;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " .idle_sleeptime : %lld nsecs", &v) == 1)
			sum += v;
	fclose(f);
	return sum;
}

/* Context switches of the whole process so far. */
static long switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		die("getrusage");
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

static void b_rseq_switch(long n)
{
	long ops = (ROUNDS + 1) * round_size(n), sw;
	pthread_t th;
	int cpu = pin_here();

	rseq_check();
	fprintf(stderr, "rseq: %s, pinned to CPU %d\n",
		__rseq_size ? "registered by glibc" : "registered by bench", cpu);
	errno = pthread_create(&th, NULL, switch_partner, NULL);
	if (errno)
		die("pthread_create");
	sw = switches();
	median_result("ns/round-trip", r_switch, n, NULL);
	sw = switches() - sw;
	fprintf(stderr, "%.2f context switches per round trip\n", (double)sw / ops);
	/* On one CPU the partner must run and sleep again in every round trip. */
	if (sw < 2 * ops)
		die("%ld context switches for %ld round trips: not taking turns on one CPU", sw, ops);
	__atomic_store_n(&partner_stop, 1, __ATOMIC_RELEASE);
	set_and_wake(&turn, 1);
	errno = pthread_join(th, NULL);
	if (errno)
		die("pthread_join");
}

/*
 * signal-mt: signals to a multi-threaded process.  The main thread has
 * SIGUSR1 blocked and sends it to the whole process with kill(getpid()), so
 * complete_signal() passes over it and picks one of SIGMT_THREADS
 * threads that wait in pause() with it unblocked; that thread takes it
 * through get_signal() to a handler, which counts it and wakes the main
 * thread, and goes back to pause().  One operation is one such round
 * trip; the next signal is sent only when the handler has run.
 */
#define SIGMT_THREADS 4

static int sigmt_handled, sigmt_ready;

static void on_usr1_mt(int sig)
{
	int e = errno;

	__atomic_add_fetch(&sigmt_handled, 1, __ATOMIC_RELEASE);
	futex(&sigmt_handled, FUTEX_WAKE_PRIVATE, 1);
	errno = e;
}

static void *sigmt_waiter(void *arg)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	errno = pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	if (errno)
		die("pthread_sigmask");
	__atomic_add_fetch(&sigmt_ready, 1, __ATOMIC_RELEASE);
	futex(&sigmt_ready, FUTEX_WAKE_PRIVATE, 1);
	for (;;)
		pause();
	return arg;
}

/* Sleep until *word is want. */
static void wait_for(int *word, int want)
{
	int v;

	while ((v = __atomic_load_n(word, __ATOMIC_ACQUIRE)) != want)
		if (futex(word, FUTEX_WAIT_PRIVATE, v) < 0 &&
		    errno != EAGAIN && errno != EINTR)
			die("FUTEX_WAIT");
}

static double r_signal_mt(long n, const char *arg)
{
	pid_t me = getpid();
	int sent = __atomic_load_n(&sigmt_handled, __ATOMIC_ACQUIRE);
	double t = now_ns();

	for (long i = 0; i < n; i++) {
		if (kill(me, SIGUSR1))
			die("kill");
		wait_for(&sigmt_handled, ++sent);
	}
	return now_ns() - t;
}

static void b_signal_mt(long n)
{
	struct sigaction sa = { .sa_handler = on_usr1_mt };
	pthread_t th;
	sigset_t s;

	pin_here();
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		die("sigaction");
	/* The waiters inherit the blocked signal and unblock it themselves. */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	errno = pthread_sigmask(SIG_BLOCK, &s, NULL);
	if (errno)
		die("pthread_sigmask");
	for (int i = 0; i < SIGMT_THREADS; i++) {
		errno = pthread_create(&th, NULL, sigmt_waiter, NULL);
		if (errno)
			die("pthread_create");
	}
	for (int r; (r = __atomic_load_n(&sigmt_ready, __ATOMIC_ACQUIRE)) != SIGMT_THREADS;)
		wait_while(&sigmt_ready, r);
	median_result("ns/signal", r_signal_mt, n, NULL);
	/* exit() takes the waiting threads along. */
}

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

/*
 * The same for a gdb that attaches to the running program (through
 * /proc/PID/gdb): the loop starts once gdb has set bp_go.
 */
volatile int bp_go;

static void wait_bp_go(void)
{
	for (int i = 0; !bp_go; i++) {
		if (i == 120000)
			die("gdb did not set bp_go within 120 s");
		usleep(1000);
	}
}

static void b_breakpoint_attach(long n)
{
	wait_bp_go();
	b_breakpoint(n);
}

/*
 * The conditional breakpoint rows: 'break bp_hit if $rdi == -1'
 * is false on the n timed hits, then true once after the measurement,
 * so that gdb's count of hits (1) shows the breakpoint was in.
 */
static void b_breakpoint_cond(long n)
{
	wait_bp_go();
	b_breakpoint(n);
	bp_hit(-1);
}

/* ---- scale: utrace engines, through the test module ---- */

#if HAVE_TEST_UTRACE
static const char tu_dev[] = "/dev/test_utrace";

/* A session of the test module: closing it detaches its engines. */
static int tu_open(void)
{
	int fd = open(tu_dev, O_RDWR | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT) {
		fprintf(stderr, "no %s: the test_utrace module is not loaded\n", tu_dev);
		exit(4);
	}
	if (fd < 0)
		die("open %s", tu_dev);
	return fd;
}

/* Attach (create) a new engine to thread @tid; returns its id. */
static int tu_attach(int fd, pid_t tid, unsigned long cookie)
{
	struct test_utrace_attach a = {
		.tid = tid,
		.flags = TEST_UTRACE_ATTACH_CREATE,
		.ops = TEST_UTRACE_OPS_A,
		.data = cookie,
	};
	int id = ioctl(fd, TEST_UTRACE_IOC_ATTACH, &a);

	if (id <= 0)
		die("ATTACH to thread %d returned %d", tid, id);
	return id;
}

static void tu_stats(int fd, unsigned int id, struct test_utrace_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->id = id;
	if (ioctl(fd, TEST_UTRACE_IOC_STATS, st) < 0)
		die("STATS of engine %u", id);
}

static int idle_started;

static void *idle_thread(void *arg)
{
	__atomic_add_fetch(&idle_started, 1, __ATOMIC_SEQ_CST);
	for (;;)
		pause();
	return arg;
}

/*
 * A process of @nthreads threads (its main thread included), all asleep
 * in pause() by the time this returns; their thread ids go to @tids.
 */
static pid_t threaded_child(int nthreads, pid_t *tids)
{
	int p[2], got = 0;
	char c, path[64];
	struct dirent *d;
	pid_t pid;
	DIR *dir;

	if (pipe(p) < 0)
		die("pipe");
	pid = xfork();
	if (pid == 0) {
		pthread_attr_t a;
		pthread_t th;

		close(p[0]);
		pthread_attr_init(&a);
		pthread_attr_setstacksize(&a, 64 * 1024);
		for (int i = 1; i < nthreads; i++) {
			int e = pthread_create(&th, &a, idle_thread, NULL);

			if (e) {
				fprintf(stderr, "bench %s: only %d of %d threads fit: pthread_create: %s\n",
					name, i, nthreads, strerror(e));
				_exit(20);
			}
		}
		while (__atomic_load_n(&idle_started, __ATOMIC_SEQ_CST) < nthreads - 1)
			sched_yield();
		if (write(p[1], "r", 1) != 1)
			_exit(21);
		for (;;)
			pause();
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1) {
		waitpid(pid, NULL, 0);
		errno = 0;
		die("the child could not start %d threads (above)", nthreads);
	}
	close(p[0]);

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		die("opendir %s", path);
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		if (got == nthreads)
			die("%s has more than %d threads", path, nthreads);
		tids[got++] = atoi(d->d_name);
	}
	closedir(dir);
	if (got != nthreads)
		die("%s has %d threads, not %d", path, got, nthreads);

	/* Wait until every thread sleeps: none runs while we time. */
	for (int tries = 0, i = 0; i < nthreads; ) {
		char buf[512], *s;
		int fd;
		ssize_t len;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tids[i]);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			die("open %s", path);
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			die("read %s", path);
		buf[len] = 0;
		s = strrchr(buf, ')');
		if (s && s[1] == ' ' && s[2] == 'S') {
			i++;
			continue;
		}
		if (++tries > 10000)
			die("thread %d of %d does not go to sleep", tids[i], pid);
		usleep(1000);
	}
	return pid;
}

/*
 * attach-threads R NTHREADS: a new process of NTHREADS threads per round;
 * time attaching one engine (ATTACH with CREATE, no events) to each of
 * its threads, then close the session (which detaches them all).  One
 * warm-up round, then R rounds; the median round is the result, in ns per
 * attach.  Closing is timed too, for the log.
 */
static void b_attach_threads(long rounds, const char *arg)
{
	int nthreads = arg ? atoi(arg) : 0;
	struct test_utrace_stats st0, st1;
	double *t;
	pid_t *tids;

	if (nthreads < 1 || nthreads > TEST_UTRACE_MAX_ENGINES)
		die("usage: bench attach-threads ROUNDS NTHREADS (1 .. %d threads)",
		    TEST_UTRACE_MAX_ENGINES);
	t = calloc(rounds + 1, sizeof(*t));
	tids = calloc(nthreads, sizeof(*tids));
	if (!t || !tids)
		die("calloc");
	fprintf(stderr, "%d threads; rounds (the first is a warm-up), ns per attach / per detach at close:",
		nthreads);
	for (long r = 0; r <= rounds; r++) {
		pid_t pid = threaded_child(nthreads, tids);
		int fd = tu_open();
		double a, c;

		tu_stats(fd, 0, &st0);
		a = now_ns();
		for (int i = 0; i < nthreads; i++)
			tu_attach(fd, tids[i], i + 1);
		a = now_ns() - a;
		tu_stats(fd, 0, &st1);
		c = now_ns();
		close(fd);
		c = now_ns() - c;
		kill(pid, SIGKILL);
		if (waitpid(pid, NULL, 0) != pid)
			die("waitpid %d", pid);
		if (st1.attached - st0.attached != (unsigned long)nthreads)
			die("%llu engines attached, not %d",
			    (unsigned long long)(st1.attached - st0.attached), nthreads);
		fprintf(stderr, " %.0f/%.0f", a / nthreads, c / nthreads);
		t[r] = a;
	}
	fprintf(stderr, "\n");
	qsort(t + 1, rounds, sizeof(*t), cmp_double);
	result("ns/attach", t[1 + rounds / 2], nthreads);
	free(t);
	free(tids);
}
#else
static void b_attach_threads(long n, const char *arg)
{
	fprintf(stderr, "bench was built without test_utrace_uapi.h (see bench/run.sh)\n");
	exit(4);
}
#endif

/* ---- scale: engines per event, through bench/kmod/utrace_bench.ko ---- */

/*
 * engines N K: N getpid calls (in rounds, median, as the getpid row) with
 * K engines attached to this thread, each with SYSCALL_ENTRY and
 * SYSCALL_EXIT events.  The engines of utrace_bench.ko count the reports
 * in their own data and return UTRACE_RESUME, nothing else: the cost
 * measured is the core's, not a test fixture's.  K = 0 runs the same code
 * with an open session and no engine: the baseline.
 */
static void b_engines(long n, const char *arg)
{
	long k = arg ? atol(arg) : -1;
	struct utrace_bench_counts c;
	long calls;
	int fd;

	if (k < 0 || k > UTRACE_BENCH_MAX_ENGINES)
		die("usage: bench engines N K (K = 0 .. %d engines)", UTRACE_BENCH_MAX_ENGINES);
	fd = open(UTRACE_BENCH_DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		fprintf(stderr, "no %s: the utrace_bench module is not loaded\n", UTRACE_BENCH_DEV);
		exit(4);
	}
	if (fd < 0)
		die("open %s", UTRACE_BENCH_DEV);
	if (k && ioctl(fd, UTRACE_BENCH_IOC_ATTACH, k) != 0)
		die("ATTACH of %ld engines", k);
	median_result("ns/call", r_getpid, n, NULL);

	/* Every engine saw every getpid, the warm-up round included. */
	calls = round_size(n) * (ROUNDS + 1);
	if (k) {
		if (ioctl(fd, UTRACE_BENCH_IOC_COUNTS, &c) != 0)
			die("COUNTS");
		if (c.entries < (unsigned long)calls || c.exits < (unsigned long)calls)
			die("an engine got %llu entry and %llu exit reports for %ld calls",
			    (unsigned long long)c.entries, (unsigned long long)c.exits, calls);
	}
	fprintf(stderr, "%ld engine(s), each got >= %ld entry and exit reports\n", k, calls);
	close(fd);
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
		{ "signal-detached", b_signal_detached },
		{ "thread", b_thread },
		{ "rseq-switch", b_rseq_switch },
		{ "signal-mt", b_signal_mt },
		{ "ptrace-syscall", b_ptrace_syscall },
		{ "singlestep", b_singlestep },
		{ "attach-detach", b_attach },
		{ "peekdata", b_peekdata },
		{ "vm-readv", b_vm_readv },
		{ "tracefork", b_tracefork },
		{ "breakpoint", b_breakpoint },
		{ "breakpoint-attach", b_breakpoint_attach },
		{ "breakpoint-cond", b_breakpoint_cond },
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
	if (!strcmp(name, "engines")) {
		b_engines(n, argc > 3 ? argv[3] : NULL);
		return 0;
	}
	if (!strcmp(name, "attach-threads")) {
		b_attach_threads(n, argc > 3 ? argv[3] : NULL);
		return 0;
	}
	if (!strcmp(name, "workload")) {
		b_workload(n, argc > 3 ? argv[3] : NULL);
		return 0;
	}
	for (size_t i = 0; i < sizeof(simple) / sizeof(simple[0]); i++) {
		if (!strcmp(name, simple[i].name)) {
			struct rusage r0, r1;
			long long idle0, idle1;
			long ops;

			idle0 = idle_ns();
			rusage_all(&r0);
			simple[i].fn(n);
			rusage_all(&r1);
			idle1 = idle_ns();
			/* A row measured in rounds ran more than n. */
			ops = median_ops ? median_ops : n;
			/*
			 * For the log, not a result: a row whose time jumps
			 * between kernels with the same code may have changed
			 * how often the scheduler preempts (see
			 * docs/design.md, attach-detach).
			 */
			fprintf(stderr, "context switches per operation (this process and its children): voluntary %.2f, involuntary %.2f\n",
				(double)(r1.ru_nvcsw - r0.ru_nvcsw) / ops,
				(double)(r1.ru_nivcsw - r0.ru_nivcsw) / ops);
			if (idle0 >= 0 && idle1 >= 0)
				fprintf(stderr, "idle time per operation (every CPU, setup included): %.1f ns\n",
					(double)(idle1 - idle0) / ops);
			return 0;
		}
	}
	fprintf(stderr, "bench: unknown benchmark '%s'\n", name);
	return 2;
}
