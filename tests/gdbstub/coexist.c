// SPDX-License-Identifier: GPL-2.0
/*
 * Workload of the strace coexistence rows: it makes the same system
 * calls whether or not gdb debugs it through /proc/PID/gdb, so that
 * 'strace -f' must print the same transcript either way.
 *
 * It waits for SIGUSR2 in a loop without system calls, so that neither
 * strace's attach nor gdb's stop of every thread interrupts a call (an
 * interrupted call shows as ERESTARTSYS and its restart).  Then a second
 * thread calls coexist_step() three times and writes 'watched' twice,
 * each with a system call before it, and spins; main spins without system calls
 * until the thread is done, writes one line and exits 0, which ends the
 * spinning thread (a join could, or could not, wait in futex(): a line
 * in one transcript and not in the other).  Gives up (exit 3) if the
 * signal does not come.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t go;
static volatile sig_atomic_t done, never;
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
	pthread_t th;

	if (signal(SIGUSR2, on_usr2) == SIG_ERR)
		return 2;
	printf("ready %d\n", getpid());
	fflush(stdout);
	if (!spin(&go))
		return 3;
	if (pthread_create(&th, NULL, worker, NULL))
		return 4;
	if (!spin(&done))
		return 5;
	if (write(1, line, strlen(line)) != (ssize_t)strlen(line))
		return 6;
	return watched == 2 ? 0 : 7;
}
