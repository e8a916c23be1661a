// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenarios a review of ptrace-on-utrace found and no other test reaches:
 * io_uring workers as tracees, block-step state when the tracer exits in
 * a signal-delivery-stop, SIGCONT racing a PTRACE_LISTEN stop, and
 * PTRACE_TRACEME racing PTRACE_DETACH.  They need two CPUs to race for
 * real (the comparison guests have two).  Every test is bounded and
 * checks exact results; the expected values follow from the 6.12 legacy
 * code paths named next to each test.
 */
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <linux/io_uring.h>
#include "ptrace_util.h"

#define RACE_TIMEOUT	120

/* ---- io_uring, raw system calls (no liburing in the guest) ---- */

struct uring {
	int fd;
	char *ring;			/* SQ and CQ rings, one mapping */
	struct io_uring_sqe *sqes;
	struct io_sqring_offsets off;
};

static int uring_setup(struct uring *u, unsigned int entries)
{
	struct io_uring_params p;
	size_t len;

	memset(&p, 0, sizeof(p));
	u->fd = syscall(__NR_io_uring_setup, entries, &p);
	if (u->fd < 0)
		return -errno;
	/* One mapping for both rings: IORING_FEAT_SINGLE_MMAP (5.4). */
	len = p.sq_off.array + p.sq_entries * sizeof(__u32);
	if (p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe) > len)
		len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	u->ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, u->fd,
		       IORING_OFF_SQ_RING);
	if (u->ring == MAP_FAILED)
		return -errno;
	u->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED, u->fd, IORING_OFF_SQES);
	if (u->sqes == MAP_FAILED)
		return -errno;
	u->off = p.sq_off;
	return 0;
}

/* Submit one read of @len bytes from @fd into @buf, forced to io-wq. */
static int uring_read_async(struct uring *u, int fd, void *buf, unsigned int len)
{
	__u32 *tail = (__u32 *)(u->ring + u->off.tail);
	__u32 *array = (__u32 *)(u->ring + u->off.array);
	__u32 mask = *(__u32 *)(u->ring + u->off.ring_mask);
	__u32 t = *tail;
	struct io_uring_sqe *sqe = &u->sqes[t & mask];

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_READ;
	sqe->flags = IOSQE_ASYNC;
	sqe->fd = fd;
	sqe->addr = (unsigned long)buf;
	sqe->len = len;
	sqe->off = -1;		/* the file position: a pipe has none */
	array[t & mask] = t & mask;
	__atomic_store_n(tail, t + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, u->fd, 1, 0, 0, NULL, 0) != 1)
		return -errno;
	return 0;
}

/* The tid of @pid's io-wq worker ("iou-wrk-<pid>"), polling up to 10 s. */
static pid_t find_uring_worker(pid_t pid)
{
	char path[96], comm[32];
	int i;

	for (i = 0; i < 1000; i++) {
		char dpath[64];
		struct dirent *de;
		DIR *d;

		snprintf(dpath, sizeof(dpath), "/proc/%d/task", pid);
		d = opendir(dpath);
		if (!d)
			return -1;
		while ((de = readdir(d))) {
			pid_t tid = atoi(de->d_name);

			if (tid <= 0 || tid == pid)
				continue;
			snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
			if (read_file_str(path, comm, sizeof(comm)) > 0 &&
			    !strncmp(comm, "iou-wrk-", 8)) {
				closedir(d);
				return tid;
			}
		}
		closedir(d);
		msleep(10);
	}
	return -1;
}

/*
 * Child: an io_uring read on a pipe nobody writes to, forced to io-wq, so
 * the process has one user worker (PF_USER_WORKER | PF_IO_WORKER) waiting
 * for work; then it pauses.  Exits 3 if io_uring is not available.
 */
static int body_uring_worker(void *arg)
{
	static char buf[8];
	struct uring u = { .fd = -1 };
	int fds[2];

	(void)arg;
	if (pipe(fds) || uring_setup(&u, 4) || uring_read_async(&u, fds[0], buf, 1))
		return 3;
	for (;;)
		pause();
}

FIXTURE(iowq) {
	pid_t pid, worker;
};

FIXTURE_SETUP(iowq)
{
	fixture_tie_to_parent();
	self->pid = plain_child(_metadata, body_uring_worker, NULL);
	self->worker = find_uring_worker(self->pid);
	if (self->worker < 0) {
		int st = wstat_timeout(self->pid, WNOHANG, 0);

		kill_reap(self->pid);
		/* CONFIG_IO_URING=n, or io_uring_disabled: say so. */
		if (st == ST_EXITED(3))
			SKIP(return, "io_uring is not available");
		ASSERT_GT(self->worker, 0);
	}
}

FIXTURE_TEARDOWN(iowq)
{
	kill_reap_all(self->pid);
}

/*
 * PTRACE_INTERRUPT of an io-wq worker: its idle wait is interruptible and
 * it calls get_signal() when a signal (here the trap) is pending, so it
 * stops in do_jobctl_trap() like any thread (6.12 ptrace_attach() only
 * refuses PF_KTHREAD).  Both threads report PTRACE_EVENT_STOP.
 */
TEST_F_TIMEOUT(iowq, seize_interrupt_worker_and_main, RACE_TIMEOUT)
{
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, self->pid, 0, 0));
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, self->worker, 0, 0));
	ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, self->pid, 0, 0));
	ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, self->worker, 0, 0));
	EXPECT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat_timeout(self->pid, __WALL, 10000));
	EXPECT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat_timeout(self->worker, __WALL, 10000));
	EXPECT_EQ('t', traced_state(self->pid, self->worker));
	EXPECT_EQ(0, PTRE(PTRACE_DETACH, self->worker, 0, 0));
	EXPECT_EQ(0, PTRE(PTRACE_DETACH, self->pid, 0, 0));
	EXPECT_TRUE(wait_task_state(self->pid, self->worker, 'S', 10000));
}

/*
 * A group stop with both threads seized: the main thread reports the
 * SIGSTOP's signal-delivery-stop; resumed with it, it starts the group
 * stop, which sets JOBCTL_STOP_PENDING on the worker as on every thread
 * (do_signal_stop() skips none), so both report a PTRACE_EVENT_STOP with
 * SIGSTOP.  SIGCONT then ends it for both (PTRACE_LISTEN lets a seized
 * thread see it).
 */
TEST_F_TIMEOUT(iowq, group_stop_takes_the_worker, RACE_TIMEOUT)
{
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, self->pid, 0, 0));
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, self->worker, 0, 0));
	ASSERT_EQ(0, kill(self->pid, SIGSTOP));
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat_timeout(self->pid, __WALL, 10000));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, self->pid, 0, SIGSTOP));
	EXPECT_EQ(ST_GROUPSTOP(SIGSTOP), wstat_timeout(self->pid, __WALL, 10000));
	EXPECT_EQ(ST_GROUPSTOP(SIGSTOP), wstat_timeout(self->worker, __WALL, 10000));
	EXPECT_EQ(0, PTRE(PTRACE_LISTEN, self->pid, 0, 0));
	EXPECT_EQ(0, PTRE(PTRACE_LISTEN, self->worker, 0, 0));
	ASSERT_EQ(0, kill(self->pid, SIGCONT));
	/* The SIGCONT re-traps both with SIGTRAP (no group stop any more). */
	EXPECT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat_timeout(self->worker, __WALL, 10000));
	EXPECT_EQ(0, PTRE(PTRACE_DETACH, self->worker, 0, 0));
	EXPECT_TRUE(wait_task_state(self->pid, self->worker, 'S', 10000));
}

/* ---- the other races: a fixture that only ties children to the test ---- */

FIXTURE(race) {
	int unused;
};

FIXTURE_SETUP(race)
{
	fixture_tie_to_parent();
}

FIXTURE_TEARDOWN(race)
{
}

/* ---- block-step state when the tracer exits in a stop ---- */

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/*
 * Take current's siglock from hard interrupt context once in this boot:
 * an ITIMER_REAL expiry sends SIGALRM from the hrtimer interrupt.  Lockdep
 * only knows that siglock is an IRQ lock once it has seen that.
 */
static int siglock_from_hardirq(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 1000 } };
	int i;

	signal(SIGALRM, on_alarm);
	if (setitimer(ITIMER_REAL, &it, NULL))
		return -errno;
	for (i = 0; i < 1000 && !alarms; i++)
		msleep(10);
	signal(SIGALRM, SIG_DFL);
	return alarms ? 0 : -ETIMEDOUT;
}

/*
 * The tracer, a child of the test: stops @pid, queues SIGUSR1, resumes it
 * with PTRACE_SINGLEBLOCK, so the tracee sets up the block step and stops
 * at once in the SIGUSR1 signal-delivery-stop; then exits with @pid
 * stopped there, stepping armed (TIF_BLOCKSTEP), stop reaped.  Exit code:
 * 0, or the step that failed.
 */
static int body_blockstep_tracer(void *arg)
{
	pid_t pid = (pid_t)(long)arg;

	if (ptr(PTRACE_SEIZE, pid, 0, 0) || ptr(PTRACE_INTERRUPT, pid, 0, 0))
		return 1;
	if (wstat(pid, 0) != ST_EVENT(PTRACE_EVENT_STOP))
		return 2;
	if (kill(pid, SIGUSR1))
		return 3;
	if (ptr(PTRACE_SINGLEBLOCK, pid, 0, 0))
		return 4;
	if (wstat(pid, 0) != ST_STOPPED(SIGUSR1))
		return 5;
	return 0;
}

/*
 * exit_ptrace() unlinks the tracee without ptrace_disable(), so the
 * tracee drops the step itself when it wakes (stepping-fixes); with
 * TIF_BLOCKSTEP that must not enable interrupts under siglock (lockdep,
 * debug kernel).  The reaped stop's exit_code is 0, so SIGUSR1 is
 * cancelled (6.12 ptrace_signal()), and the untraced tracee runs on to
 * exit 42 without a SIGTRAP.
 */
TEST_F_TIMEOUT(race, blockstep_tracer_exit_in_signal_stop, RACE_TIMEOUT)
{
	int fds[2];
	pid_t pid, tracer;

	ASSERT_EQ(0, siglock_from_hardirq());
	pid = piped_child(_metadata, body_wait_pipe, fds);
	tracer = plain_child(_metadata, body_blockstep_tracer, (void *)(long)pid);
	ASSERT_EQ(ST_EXITED(0), wstat(tracer, 0));
	/* Untraced and running again: it waits for its byte. */
	ASSERT_TRUE(wait_task_state(pid, pid, 'S', 10000));
	release_expect(_metadata, pid, fds, 0, ST_EXITED(42));
}

/* ---- SIGCONT racing a PTRACE_LISTEN stop ---- */

static int body_spin_pipe(void *arg)
{
	int fd = (int)(long)arg;
	char c;

	fcntl(fd, F_SETFL, O_NONBLOCK);
	while (read(fd, &c, 1) != 1)
		;
	return 42;
}

/* Hammer @pid with 2000 SIGSTOP/SIGCONT pairs, the last one a SIGCONT. */
static int body_stop_cont(void *arg)
{
	pid_t pid = (pid_t)(long)arg;
	int i;

	for (i = 0; i < 2000; i++)
		if (kill(pid, SIGSTOP) || kill(pid, SIGCONT))
			return 1;
	return 0;
}

/*
 * What strace does with a seized tracee: PTRACE_LISTEN at a group stop,
 * PTRACE_CONT at anything else, with the signal of a signal-delivery-stop.
 * While another process hammers the tracee with SIGSTOP/SIGCONT, every
 * SIGCONT must end the stop (6.12: prepare_signal() -> ptrace_trap_notify()
 * while the group stop and the trap are entered under one siglock hold).
 * The last signal is a SIGCONT, so the tracee runs in the end and takes
 * its byte: exit 42.  A lost notification leaves it listening forever.
 */
TEST_F_TIMEOUT(race, listen_sigstop_sigcont_storm, RACE_TIMEOUT)
{
	int fds[2], st, hammer_st = -1, stops = 0;
	pid_t pid, hammer, w;
	bool released = false;

	ASSERT_EQ(0, pipe(fds));
	pid = plain_child(_metadata, body_spin_pipe, (void *)(long)fds[0]);
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	hammer = plain_child(_metadata, body_stop_cont, (void *)(long)pid);
	for (;;) {
		w = wait_st(-1, &st, __WALL);
		ASSERT_GT(w, 0);
		if (w == hammer) {
			hammer_st = st;
			/* All sent, the last a SIGCONT: now let it finish. */
			ASSERT_EQ(0, pipe_write_byte(fds[1], 'x'));
			released = true;
			continue;
		}
		ASSERT_EQ(pid, w);
		if (!WIFSTOPPED(st))
			break;
		stops++;
		if (st >> 16 == PTRACE_EVENT_STOP && WSTOPSIG(st) != SIGTRAP) {
			ASSERT_EQ(0, PTRE(PTRACE_LISTEN, pid, 0, 0));
		} else if (st >> 16) {
			ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
		} else {
			ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, WSTOPSIG(st)));
		}
	}
	EXPECT_TRUE(released);
	EXPECT_EQ(ST_EXITED(0), hammer_st);
	EXPECT_EQ(ST_EXITED(42), st);
	EXPECT_GT(stops, 0);
}

/*
 * Wait for @pid's next stop, playing strace: PTRACE_LISTEN at a group
 * stop, PTRACE_CONT at a PTRACE_EVENT_STOP trap; returns the first other
 * status (a signal-delivery-stop), or a negative errno (-ETIMEDOUT).
 */
static int wait_listening(pid_t pid, int ms)
{
	int st;

	for (;;) {
		st = wstat_timeout(pid, 0, ms);
		if (st < 0 || !WIFSTOPPED(st) || st >> 16 != PTRACE_EVENT_STOP)
			return st;
		if (ptr(WSTOPSIG(st) == SIGTRAP ? PTRACE_CONT : PTRACE_LISTEN,
			pid, 0, 0))
			return -errno;
	}
}

/*
 * The tracer resumes the SIGSTOP's signal-delivery-stop with SIGSTOP and
 * at once sends SIGCONT, which lands before, during or after the group
 * stop trap.  Whichever: the SIGCONT's own signal-delivery-stop follows
 * (a PTRACE_LISTEN stop is re-trapped by JOBCTL_TRAP_NOTIFY), as with
 * 6.12 do_jobctl_trap(), which computes the trap's status word and enters
 * the stop in one siglock hold.
 */
TEST_F_TIMEOUT(race, sigcont_during_group_stop_trap_200, RACE_TIMEOUT)
{
	int fds[2], i;
	pid_t pid;

	ASSERT_EQ(0, pipe(fds));
	pid = plain_child(_metadata, body_spin_pipe, (void *)(long)fds[0]);
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	for (i = 0; i < 200; i++) {
		ASSERT_EQ(0, kill(pid, SIGSTOP));
		ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat_timeout(pid, 0, 10000));
		ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, SIGSTOP));
		ASSERT_EQ(0, kill(pid, SIGCONT));
		ASSERT_EQ(ST_STOPPED(SIGCONT), wait_listening(pid, 10000)) {
			TH_LOG("iteration %d: no SIGCONT stop", i);
			kill_reap(pid);
		}
		ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, SIGCONT));
	}
	release_expect(_metadata, pid, fds, 0, ST_EXITED(42));
}

/* ---- PTRACE_TRACEME racing PTRACE_DETACH ---- */

/* Set before each fork: the pipe from the first tracer to the tracee. */
static int traceme_pipe[2];

/*
 * Child: waits until its first tracer has seized it (a byte on the pipe),
 * then spins on PTRACE_TRACEME (EPERM while that tracer has it), and once
 * it is its parent's tracee, stops itself with SIGSTOP.
 */
static int body_traceme_spin(void *arg)
{
	(void)arg;
	if (pipe_read_byte(traceme_pipe[0]) < 0)
		return 1;
	while (ptr(PTRACE_TRACEME, 0, 0, 0))
		;
	kill(getpid(), SIGSTOP);
	return 42;
}

/*
 * The middle process: the tracee's first tracer.  Seizes it, lets it
 * spin, stops it, detaches it: the tracee's PTRACE_TRACEME (to its real
 * parent, the test) races the end of this PTRACE_DETACH.
 */
static int body_detacher(void *arg)
{
	pid_t pid = (pid_t)(long)arg;

	if (ptr(PTRACE_SEIZE, pid, 0, 0) || pipe_write_byte(traceme_pipe[1], 'x'))
		return 1;
	if (ptr(PTRACE_INTERRUPT, pid, 0, 0))
		return 2;
	if (wstat(pid, __WALL) != ST_EVENT(PTRACE_EVENT_STOP))
		return 3;
	if (ptr(PTRACE_DETACH, pid, 0, 0))
		return 4;
	return 0;
}

/*
 * Whatever the interleaving, once PTRACE_TRACEME returned 0 the child is
 * traced: its SIGSTOP is a signal-delivery-stop its parent sees (6.12
 * ptrace_traceme() links it; the old tracer's detach is over by then),
 * with the signal's siginfo (a group stop's status word is the same, but
 * a non-seized group stop has none: PTRACE_GETSIGINFO fails).
 */
TEST_F_TIMEOUT(race, traceme_races_detach_200, RACE_TIMEOUT)
{
	siginfo_t si;
	int i;

	for (i = 0; i < 200; i++) {
		pid_t pid, detacher;

		ASSERT_EQ(0, pipe(traceme_pipe));
		pid = plain_child(_metadata, body_traceme_spin, NULL);
		detacher = plain_child(_metadata, body_detacher, (void *)(long)pid);
		close(traceme_pipe[0]);
		close(traceme_pipe[1]);
		ASSERT_EQ(ST_EXITED(0), wstat(detacher, 0));
		ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat_timeout(pid, 0, 10000)) {
			TH_LOG("iteration %d", i);
			kill_reap(pid);
		}
		/* A signal-delivery-stop, not a group stop: it has a siginfo. */
		ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si)) {
			TH_LOG("iteration %d: stopped, but not traced", i);
			kill_reap(pid);
		}
		ASSERT_EQ(SIGSTOP, si.si_signo);
		ASSERT_EQ(SI_USER, si.si_code);
		ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
		ASSERT_EQ(ST_EXITED(42), wstat(pid, 0));
	}
}

/* ---- task_work before a syscall stop ---- */

/* Set before the fork: the pipe whose write end the tracee closes. */
static int close_pipe[2];

/*
 * dup2() over the pipe's write end drops the file with fput(), which
 * defers the release to task_work (close() itself releases at once).
 */
static int body_close_writer(void *arg)
{
	(void)arg;
	syscall(SYS_dup2, close_pipe[0], close_pipe[1]);
	return 42;
}

/*
 * ptrace_notify() runs pending task_work before the stop (6.12), so at
 * the syscall-exit stop of dup2() the write end's last reference is gone:
 * the tracer already reads EOF from the pipe whose only writer the
 * tracee replaced.
 */
TEST_F_TIMEOUT(race, syscall_exit_stop_runs_task_work, RACE_TIMEOUT)
{
	struct user_regs_struct regs;
	char c;
	pid_t pid;

	ASSERT_EQ(0, pipe2(close_pipe, O_NONBLOCK));
	pid = traceme_child(_metadata, body_close_writer, NULL);
	ASSERT_EQ(0, close(close_pipe[1]));
	ASSERT_EQ(0, PTRE(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD));
	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	ASSERT_EQ(0, get_regs(pid, &regs));
	ASSERT_EQ(SYS_dup2, (long)regs.orig_rax);
	/* Entry stop: the tracee still holds the write end. */
	EXPECT_EQ(-1, read(close_pipe[0], &c, 1));
	EXPECT_EQ(EAGAIN, errno);
	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	ASSERT_EQ(0, get_regs(pid, &regs));
	EXPECT_EQ(close_pipe[1], (long)regs.rax);
	/* Exit stop: the file is released, the pipe has no writer. */
	EXPECT_EQ(0, read(close_pipe[0], &c, 1));
	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(42));
	close(close_pipe[0]);
}

/* ---- threads exiting during a group stop ---- */

/* A thread: @arg getppid() calls, then it exits alone. */
static void *thread_spin_exit(void *arg)
{
	long n = (long)arg, i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	syscall(SYS_exit, 0);
	return NULL;
}

struct exiting_threads {
	int fd;		/* the leader's pipe */
	int spread;	/* thread i exits after i * spread calls */
};

/* Four threads that exit one after the other; the leader spins on its pipe. */
static int body_threads_exit(void *arg)
{
	struct exiting_threads *et = arg;
	pthread_t th;
	long i;

	for (i = 0; i < 4; i++)
		if (pthread_create(&th, NULL, thread_spin_exit,
				   (void *)(i * et->spread)))
			return 3;
	return body_spin_pipe((void *)(long)et->fd);
}

/*
 * A stop signal finds threads exiting at every step of the group stop.
 * An exiting thread takes its part on its way out (6.12 exit_signals()
 * -> task_participate_group_stop()), so the group stop always completes:
 * the parent sees the stop and the continue, and the leader runs on to
 * exit 42.
 */
TEST_F_TIMEOUT(race, threads_exit_during_group_stop_100, RACE_TIMEOUT)
{
	struct exiting_threads et;
	int fds[2], i;
	pid_t pid;

	for (i = 0; i < 100; i++) {
		ASSERT_EQ(0, pipe(fds));
		et.fd = fds[0];
		et.spread = 20 * (i % 10);
		pid = plain_child(_metadata, body_threads_exit, &et);
		close(fds[0]);
		ASSERT_EQ(0, kill(pid, SIGSTOP));
		ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat_timeout(pid, WUNTRACED, 10000)) {
			TH_LOG("iteration %d: no group stop", i);
		}
		ASSERT_EQ(0, kill(pid, SIGCONT));
		ASSERT_EQ(ST_CONTINUED, wstat_timeout(pid, WCONTINUED, 10000)) {
			TH_LOG("iteration %d: no continue", i);
		}
		ASSERT_EQ(0, pipe_write_byte(fds[1], 'x'));
		ASSERT_EQ(ST_EXITED(42), wstat_timeout(pid, 0, 10000)) {
			TH_LOG("iteration %d", i);
		}
		close(fds[1]);
	}
}

/* ---- attach, detach, kill and exec racing in a multi-threaded tracee ---- */

#define EXIT_ENV	"PTRACE_RACES_EXIT_WITH"

/* An exec'd copy of this program exits at once with this status. */
static void __attribute__((constructor)) exit_with(void)
{
	const char *code = getenv(EXIT_ENV);

	if (code)
		_exit(atoi(code));
}

static void *thread_spin(void *arg)
{
	(void)arg;
	for (;;)
		syscall(SYS_getppid);
	return NULL;
}

/*
 * Three threads calling getppid() for ever; after @arg calls of its own
 * the leader execs a copy of this program that exits 7, which kills them.
 */
static int body_threads_exec(void *arg)
{
	static char * const argv[] = { "races", NULL };
	static char * const envp[] = { EXIT_ENV "=7", NULL };
	long n = (long)arg, i;
	pthread_t th;

	for (i = 0; i < 3; i++)
		if (pthread_create(&th, NULL, thread_spin, NULL))
			return 3;
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	execve("/proc/self/exe", argv, envp);
	return 4;
}

/* The thread ids of @pid, the leader last; at most @max. */
static int list_tids(pid_t pid, pid_t *tids, int max)
{
	char path[64];
	struct dirent *de;
	int n = 0, i;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max - 1) {
		pid_t tid = atoi(de->d_name);

		if (tid > 0 && tid != pid)
			tids[n++] = tid;
	}
	closedir(d);
	for (i = 0; i < n / 2; i++) {
		pid_t t = tids[i];

		tids[i] = tids[n - 1 - i];
		tids[n - 1 - i] = t;
	}
	tids[n++] = pid;
	return n;
}

/*
 * Seize @tid, interrupt it, wait for it and detach it, while it may exit
 * (the exec kills it) at any point.  One thread at a time: exec waits in
 * de_thread(), holding cred_guard_mutex, until the tracer reaps the
 * threads it killed, so a tracer must not block in PTRACE_SEIZE while it
 * has a traced thread that may die.  Each call returns 0 or the error a
 * thread that is gone gives; a seized thread stops or dies within 10 s.
 * Returns the leader's final status once this reaped it, else -1.
 */
static int trace_one(struct __test_metadata *_metadata, pid_t pid, pid_t tid)
{
	long r = ptr_err(PTRACE_SEIZE, tid, 0, 0);
	int st;

	EXPECT_TRUE(r == 0 || r == -ESRCH || r == -EPERM) {
		TH_LOG("PTRACE_SEIZE %d: %ld", tid, r);
	}
	if (r)
		return -1;
	r = ptr_err(PTRACE_INTERRUPT, tid, 0, 0);
	EXPECT_TRUE(r == 0 || r == -ESRCH) {
		TH_LOG("PTRACE_INTERRUPT %d: %ld", tid, r);
	}
	for (;;) {
		st = wstat_timeout(tid, __WALL, 10000);
		if (st < 0) {
			EXPECT_EQ(0, st) {
				TH_LOG("seized thread %d: no stop, no exit", tid);
			}
			return -1;
		}
		if (!WIFSTOPPED(st))
			return tid == pid ? st : -1;
		EXPECT_EQ(ST_EVENT(PTRACE_EVENT_STOP), st);
		r = ptr_err(PTRACE_DETACH, tid, 0, 0);
		if (!r)
			return -1;
		/* Killed meanwhile: reap it, or the exec waits for ever. */
		EXPECT_EQ(-ESRCH, r);
	}
}

/*
 * A tracer seizes, interrupts and detaches every thread of a process,
 * three rounds, while its threads run on the other CPU and its leader
 * execs at a different point each time; every other time the process
 * gets a SIGKILL after the first round.  The process ends with the exec'd
 * copy's exit 7, or SIGKILL if that came first.
 */
TEST_F_TIMEOUT(race, threads_attach_detach_kill_exec_50, RACE_TIMEOUT)
{
	int i, round, k, n, st;
	pid_t pid, tids[16];

	for (i = 0; i < 50; i++) {
		st = -1;
		pid = plain_child(_metadata, body_threads_exec,
				  (void *)(long)(300 * (i % 7)));
		for (round = 0; round < 3 && st < 0; round++) {
			n = list_tids(pid, tids, 16);
			for (k = 0; k < n && st < 0; k++)
				st = trace_one(_metadata, pid, tids[k]);
			if (round == 0 && (i & 1) && st < 0)
				ASSERT_EQ(0, kill(pid, SIGKILL));
		}
		if (st < 0)
			st = wstat_timeout(pid, __WALL, 10000);
		if (!(i & 1) || st != ST_KILLED(SIGKILL)) {
			EXPECT_EQ(ST_EXITED(7), st) {
				TH_LOG("iteration %d", i);
			}
		}
		if (st < 0)
			kill_reap(pid);
	}
}

/* ---- PTRACE_SEIZE with PTRACE_O_TRACEEXIT racing a thread's exit ---- */

#define PF_EXITING_FLAG	0x4	/* include/linux/sched.h, /proc stat field 9 */

struct late_exit {
	int tid_w;	/* the thread writes its tid here */
	int go_r;	/* and exits when a byte arrives here */
};

/*
 * A thread with a file table of its own and a few thousand open files:
 * do_exit() closes them after exit_signals() has set PF_EXITING, which
 * keeps the thread between the two for a while.
 */
static void *thread_late_exit(void *arg)
{
	struct late_exit *le = arg;
	pid_t tid = sys_gettid();
	char c;

	if (unshare(CLONE_FILES))
		syscall(SYS_exit, 3);
	while (open("/dev/null", O_RDONLY) >= 0)
		;
	if (write(le->tid_w, &tid, sizeof(tid)) != sizeof(tid) ||
	    read(le->go_r, &c, 1) != 1)
		syscall(SYS_exit, 4);
	syscall(SYS_exit, 0);
	return NULL;
}

static int body_late_exit(void *arg)
{
	struct late_exit *le = arg;
	struct rlimit rl;
	pthread_t th;

	if (!getrlimit(RLIMIT_NOFILE, &rl)) {
		rl.rlim_cur = rl.rlim_max < 8192 ? rl.rlim_max : 8192;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (pthread_create(&th, NULL, thread_late_exit, le))
		return 3;
	pause();
	return 5;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* PF_EXITING of @tid in @pid: 1 or 0; -1 once the thread is gone. */
static int thread_exiting(pid_t pid, pid_t tid)
{
	char path[64], buf[512], *p;
	unsigned long flags;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	if (read_file_str(path, buf, sizeof(buf)) < 0)
		return -1;
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) != 1)
		return -1;
	return !!(flags & PF_EXITING_FLAG);
}

/*
 * 6.12 do_exit() reports PTRACE_EVENT_EXIT before exit_signals() sets
 * PF_EXITING.  A tracer that seizes with PTRACE_O_TRACEEXIT before the
 * thread exits sees the EXIT stop, then the exit; one that seizes once
 * PF_EXITING shows (and interrupts) sees only the exit: legacy attaches
 * to an exiting thread that is not yet a zombie, and ptrace on utrace
 * must do the same although utrace refuses new engines from PF_EXITING
 * on.  Even iterations seize before, odd ones after; the odd ones must
 * land in the window at least once, or the test proved nothing.
 */
TEST_F_TIMEOUT(race, seize_traceexit_before_and_after_exit_signals_20,
	       RACE_TIMEOUT)
{
	int tid_fds[2], go_fds[2], i, st, r, e, landed = 0;
	struct late_exit le;
	long long end;
	pid_t pid, tid;

	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, pipe(tid_fds));
		ASSERT_EQ(0, pipe(go_fds));
		le.tid_w = tid_fds[1];
		le.go_r = go_fds[0];
		pid = plain_child(_metadata, body_late_exit, &le);
		close(tid_fds[1]);
		close(go_fds[0]);
		ASSERT_EQ((ssize_t)sizeof(tid), read(tid_fds[0], &tid, sizeof(tid)));
		close(tid_fds[0]);
		if (!(i & 1)) {
			ASSERT_EQ(0, ptr_err(PTRACE_SEIZE, tid, 0,
					     PTRACE_O_TRACEEXIT));
			ASSERT_EQ(0, pipe_write_byte(go_fds[1], 'x'));
			ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXIT),
				  wstat_timeout(tid, __WALL, 10000)) {
				TH_LOG("iteration %d: no EXIT stop", i);
			}
			ASSERT_EQ(0, ptr_err(PTRACE_CONT, tid, 0, 0));
		} else {
			ASSERT_EQ(0, pipe_write_byte(go_fds[1], 'x'));
			end = now_ms() + 10000;
			while ((e = thread_exiting(pid, tid)) == 0)
				ASSERT_LT(now_ms(), end);
			r = e < 0 ? -ESRCH :
			    ptr_err(PTRACE_SEIZE, tid, 0, PTRACE_O_TRACEEXIT);
			EXPECT_TRUE(r == 0 || r == -EPERM || r == -ESRCH) {
				TH_LOG("iteration %d: PTRACE_SEIZE %d", i, r);
			}
			if (r) {
				close(go_fds[1]);
				kill_reap(pid);
				continue;
			}
			landed++;
			EXPECT_EQ(0, ptr_err(PTRACE_INTERRUPT, tid, 0, 0));
		}
		st = wstat_timeout(tid, __WALL, 10000);
		EXPECT_EQ(ST_EXITED(0), st) {
			TH_LOG("iteration %d: thread status %#x", i, st);
		}
		close(go_fds[1]);
		kill_reap(pid);
	}
	TH_LOG("%d of 10 seizes landed after exit_signals()", landed);
	EXPECT_LT(0, landed);
}

TEST_HARNESS_MAIN
