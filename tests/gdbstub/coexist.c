// SPDX-License-Identifier: GPL-2.0
/*
 * Workload of the strace coexistence rows: it makes the same system
 * calls whether or not gdb debugs it through /proc/PID/gdb, so that
 * 'strace -f' must print the same transcript either way.
 *
 * A sleeper thread waits in read() on a pipe from before strace attaches
 * until the end: every stop that gdb makes finds it asleep in that call,
 * and a stop that interrupted it would show in its transcript as
 * ERESTARTSYS and a restarted read().  Main makes sure it sleeps before
 * it says "ready" (nothing traces it yet), then waits for SIGUSR2 in a
 * loop without system calls: gdb's first stop reads main's registers,
 * which would interrupt a sleeping main.  Then a worker thread calls
 * coexist_step() three times and writes 'watched' twice, each with a
 * system call before it, and spins; main spins until the worker is
 * done, writes a byte to the sleeper, waits (spinning) for it to wake,
 * writes one line and exits 0, which ends the spinning threads (a join
 * could, or could not, wait in futex(): a line in one transcript and
 * not in the other).  Gives up (exit 3) if the signal does not come.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t go;
static volatile sig_atomic_t done, woke, never;
static volatile pid_t sleeper_tid;
static int pipefd[2];
volatile int watched;

/* Where gdb puts its breakpoint. */
__attribute__((noinline)) int coexist_step(int i)
{
	return i * 2;
}

static void on_usr2(int sig)
{
	(void)sig;
	go = 1;
}

/* Spin until *@flag is set, without a system call; false if it is not. */
static int spin(volatile sig_atomic_t *flag)
{
	unsigned long long n;

	for (n = 0; !*flag; n++)
		if (n == 1ULL << 36)
			return 0;
	return 1;
}

static void *sleeper(void *arg)
{
	char c;

	sleeper_tid = gettid();
	if (read(pipefd[0], &c, 1) != 1)
		return arg;
	woke = 1;
	spin(&never);
	return arg;
}

/* Wait until the sleeper sleeps in read(): state 'S' in its stat file. */
static int sleeping(void)
{
	char path[64], buf[256], *p;
	int i;

	for (i = 0; i < 5000; i++) {
		FILE *f;

		if (sleeper_tid) {
			snprintf(path, sizeof(path), "/proc/self/task/%d/stat",
				 (int)sleeper_tid);
			f = fopen(path, "r");
			p = f && fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
			if (f)
				fclose(f);
			if (p && p[1] == ' ' && p[2] == 'S')
				return 1;
		}
		usleep(1000);
	}
	return 0;
}

static void *worker(void *arg)
{
	int i;

	for (i = 1; i <= 3; i++) {
		getpid();
		coexist_step(i);
	}
	getppid();
	watched = 1;
	getppid();
	watched = 2;
	done = 1;
	spin(&never);
	return arg;
}

int main(void)
{
	static const char line[] = "coexist: done\n";
	pthread_t th, sl;

	if (signal(SIGUSR2, on_usr2) == SIG_ERR || pipe(pipefd) ||
	    pthread_create(&sl, NULL, sleeper, NULL) || !sleeping())
		return 2;
	printf("ready %d\n", getpid());
	fflush(stdout);
	if (!spin(&go))
		return 3;
	if (pthread_create(&th, NULL, worker, NULL))
		return 4;
	if (!spin(&done))
		return 5;
	if (write(pipefd[1], "x", 1) != 1 || !spin(&woke))
		return 8;
	if (write(1, line, strlen(line)) != (ssize_t)strlen(line))
		return 6;
	return watched == 2 ? 0 : 7;
}
