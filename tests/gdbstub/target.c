// SPDX-License-Identifier: GPL-2.0
/*
 * Target of the /proc/PID/gdb test.  Two threads; deterministic once gdb
 * has connected: the main thread waits in read() on a pipe, the second
 * thread polls 'go' (which gdb sets) and then writes the byte that lets
 * main go on.  Main then starts a third thread, created while gdb is
 * attached, which calls tick(10); once it is joined, main calls tick(1),
 * tick(2), tick(3) with a getpid() before each, raises SIGUSR1 'sigs'
 * times (0 unless gdb sets it; a handler counts them), runs vec_test()
 * if gdb set 'vecs', and exits with 0.
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
/* For a breakpoint condition that reads memory through a pointer. */
volatile int *volatile cptr = &counter;
volatile int sigs;
volatile int vecs;
int vec_out[8];
static volatile sig_atomic_t usr1;
static int pipefd[2];

__attribute__((noinline)) int tick(int n)
{
	counter += n;
	return counter;
}

/* Where gdb looks at vec_out, which vec_test() stored. */
__attribute__((noinline)) void vec_done(void)
{
	asm volatile("" ::: "memory");
}

/*
 * Known values in ymm0 and ymm1 at the label vec_here, where gdb reads
 * them and may change ymm1; then ymm1 goes to vec_out.  The label is in
 * the asm, so no compiler-made code runs between the loads, gdb's stop
 * and the store.
 */
static void vec_test(void)
{
	static const int a[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const int b[8] = { -1, -2, -3, -4, -5, -6, -7, -8 };

	asm volatile("vmovdqu %1, %%ymm0\n\t"
		     "vmovdqu %2, %%ymm1\n\t"
		     ".globl vec_here\n"
		     "vec_here:\n\t"
		     "nop\n\t"
		     "vmovdqu %%ymm1, %0\n\t"
		     "vzeroupper"
		     : "=m" (vec_out) : "m" (a), "m" (b) : "xmm0", "xmm1");
	vec_done();
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
	if (vecs)
		vec_test();
	pthread_join(th, NULL);
	if (usr1 != sigs)
		return 7;
	return counter == 16 ? 0 : 5;
}
