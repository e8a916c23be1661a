// SPDX-License-Identifier: GPL-2.0
/*
 * Target of the /proc/PID/gdb test.  Two threads; deterministic once gdb
 * has connected: the main thread waits in read() on a pipe, the second
 * thread polls 'go' (which gdb sets) and then writes the byte that lets
 * main go on.  Main then starts a third thread, created while gdb is
 * attached, which calls tick(10); once it is joined, main calls tick(1),
 * tick(2), tick(3) with a getpid() before each, raises SIGUSR1 'sigs'
 * times (0 unless gdb sets it; a handler counts them), and exits with 0.
 * Gives up after about 120 s so that a broken stub cannot leave it
 * behind.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

volatile int go;
volatile int counter;
volatile int sigs;
static volatile sig_atomic_t usr1;
static int pipefd[2];

__attribute__((noinline)) int tick(int n)
{
	counter += n;
	return counter;
}

static void *waker(void *arg)
{
	int i;

	for (i = 0; i < 6000 && !go; i++)
		usleep(20000);
	if (write(pipefd[1], "g", 1) != 1)
		exit(3);
	return arg;
}

static void on_usr1(int sig)
{
	(void)sig;
	usr1++;
}

static void *late(void *arg)
{
	tick(10);
	return arg;
}

int main(void)
{
	pthread_t th, th2;
	char c;
	int i;

	if (signal(SIGUSR1, on_usr1) == SIG_ERR || pipe(pipefd) ||
	    pthread_create(&th, NULL, waker, NULL))
		return 2;
	printf("ready %d\n", getpid());
	fflush(stdout);
	if (read(pipefd[0], &c, 1) != 1 || !go)
		return 4;
	if (pthread_create(&th2, NULL, late, NULL) || pthread_join(th2, NULL))
		return 6;
	for (i = 1; i <= 3; i++) {
		getpid();
		tick(i);
	}
	for (i = 0; i < sigs; i++)
		raise(SIGUSR1);
	pthread_join(th, NULL);
	if (usr1 != sigs)
		return 7;
	return counter == 16 ? 0 : 5;
}
