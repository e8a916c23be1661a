// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fixed workload the real-client tests trace (tests/clients/README
 * section of tests/README.md).  Deterministic by construction: one thing
 * at a time, the thread is joined before the fork, the child is waited
 * for, and SIGCHLD stays blocked (where a tracer would see it delivered
 * depends on timing).  Built -O0 -g so gdb's view of it is stable.
 *
 * In order: GETPID_CALLS getpid(), work_step(WORK_A, WORK_B), two stores
 * to 'watched', SIGUSR1 to itself (handler on_usr1), BAD_CLOSES failing
 * close(-1), a pthread that waits for GO_BYTE on one pipe and answers
 * THREAD_BYTE on another, a fork whose child calls
 * child_before_exec(CHILD_TAG) and execs the helper, which exits with
 * HELPER_EXIT.  Exit status 0 when all of that happened.
 *
 * The thread waits for GO_BYTE so that it cannot exit (and clear its tid
 * word, CLONE_CHILD_CLEARTID) before the tracer has seen pthread_create()'s
 * clone3 return: strace reads clone3's parent_tid from that same word.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

volatile int watched;
static volatile sig_atomic_t usr1_seen;
static int go[2], answer[2];
static char helper[4096];

static void say(const char *s)
{
	if (write(STDOUT_FILENO, s, strlen(s)) < 0)
		_exit(20);
}

__attribute__((noinline)) int work_step(int a, int b)
{
	int sum = a + b;
	int prod = a * b;

	return prod - sum;
}

__attribute__((noinline)) void on_usr1(int sig)
{
	usr1_seen = sig;
}

static void *thread_main(void *arg)
{
	char c = 0;

	if (read(go[0], &c, 1) != 1 || c != GO_BYTE)
		return NULL;
	c = THREAD_BYTE;
	if (write(answer[1], &c, 1) != 1)
		return NULL;
	return arg;
}

__attribute__((noinline)) void child_before_exec(int tag)
{
	char arg[16];
	char *argv[] = { HELPER_NAME, arg, NULL };
	char *envp[] = { NULL };

	snprintf(arg, sizeof(arg), "%d", tag);
	execve(helper, argv, envp);
	_exit(21);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	sigset_t chld;
	pthread_t thread;
	void *ret = NULL;
	pid_t self = 0, child;
	int i, status;
	char c = 0;
	const char *slash;

	(void)argc;
	slash = strrchr(argv[0], '/');
	snprintf(helper, sizeof(helper), "%.*s%s",
		 slash ? (int)(slash - argv[0] + 1) : 0, argv[0], HELPER_NAME);

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &chld, NULL))
		return 10;
	say("workload: start\n");

	for (i = 0; i < GETPID_CALLS; i++)
		self = getpid();

	if (work_step(WORK_A, WORK_B) != WORK_A * WORK_B - (WORK_A + WORK_B))
		return 11;

	watched = WATCH_FIRST;
	watched = WATCH_SECOND;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	if (sigaction(SIGUSR1, &sa, NULL) || kill(self, SIGUSR1) || usr1_seen != SIGUSR1)
		return 12;

	for (i = 0; i < BAD_CLOSES; i++)
		if (close(-1) != -1 || errno != EBADF)
			return 13;

	if (pipe(go) || pipe(answer))
		return 14;
	if (pthread_create(&thread, NULL, thread_main, &answer))
		return 15;
	c = GO_BYTE;
	if (write(go[1], &c, 1) != 1 || read(answer[0], &c, 1) != 1 || c != THREAD_BYTE)
		return 16;
	if (pthread_join(thread, &ret) || ret != &answer)
		return 17;

	child = fork();
	if (child < 0)
		return 18;
	if (child == 0)
		child_before_exec(CHILD_TAG);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != HELPER_EXIT)
		return 19;

	say("workload: done\n");
	return 0;
}
