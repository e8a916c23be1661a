// SPDX-License-Identifier: GPL-2.0-only
/*
 * bystander: run a command with a second utrace engine on all its threads.
 *
 *   bystander [-n N] [-d USEC] [-e EVENTS] [-v] COMMAND [ARG...]
 *
 * Opens /dev/test_utrace (lib/test_utrace.c, CONFIG_TEST_UTRACE=m) and
 * attaches a "bystander" engine to the calling thread: quiet (its
 * callbacks only count, so a long run does not fill the session's log),
 * attaching the same engine to every new thread (CLONE auto-attach),
 * with the default script (every callback returns UTRACE_RESUME, the
 * system call and signal actions pass on unchanged), except that every
 * Nth system call exit of each thread returns UTRACE_STOP and the module
 * resumes the thread a jiffy or so later (a "bounce" stop).  Then it
 * execs COMMAND, so the engine follows every process of COMMAND,
 * ptrace tracers and tracees alike.
 *
 * The engines live as long as the session, which is the open file: the
 * descriptor is deliberately not close-on-exec, so every process of the
 * command inherits it, and the module detaches all engines when the last
 * one has gone (or closed it).  It is moved to a high number so that the
 * command's own descriptors are numbered as without the wrapper.
 *
 *   -n N      bounce every N system call exits of a thread (0: never;
 *             default 16)
 *   -d USEC   resume a bounce stop after USEC microseconds, rounded up
 *             to jiffies (default 0: one jiffy)
 *   -e MASK   event mask (hex, TEST_UTRACE_EVENT() bits) instead of
 *             SYSCALL_ENTRY|SYSCALL_EXIT|CLONE|EXEC|EXIT|DEATH|SIGNAL_*
 *   -v        say what was attached, on stderr
 *
 * Exit status: 125 when the engine cannot be set up (no /dev/test_utrace:
 * the module is not loaded), so that a test never silently runs without
 * it; 126 or 127 when COMMAND cannot be executed; else COMMAND's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include "test_utrace_uapi.h"

#ifndef TEST_UTRACE_SCRIPT_QUIET
#error "this lib/test_utrace_uapi.h predates quiet engines and bounce stops: update lib/test_utrace.c and its header"
#endif

#define DEVICE		"/dev/test_utrace"
#define EXIT_SETUP	125

/*
 * Every event but SIGNAL_TERM and SIGNAL_CORE: an engine that asks for
 * those keeps complete_signal() from turning a fatal signal into an
 * immediate group kill (it must see the signal first, as a ptracer
 * does), so a fatal signal no longer wakes killable sleeps
 * (seccomp_bpf's user_notification_wait_killable_fatal then hangs).
 * That is part of what asking for those events means, not something a
 * bystander may change.
 */
#define DEFAULT_EVENTS	(TEST_UTRACE_EVENT(SYSCALL_ENTRY) |		\
			 TEST_UTRACE_EVENT(SYSCALL_EXIT) |		\
			 TEST_UTRACE_EVENT(CLONE) |			\
			 TEST_UTRACE_EVENT(EXEC) |			\
			 TEST_UTRACE_EVENT(EXIT) |			\
			 TEST_UTRACE_EVENT(DEATH) |			\
			 TEST_UTRACE_EVENT(SIGNAL) |			\
			 TEST_UTRACE_EVENT(SIGNAL_IGN) |		\
			 TEST_UTRACE_EVENT(SIGNAL_STOP))

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("bystander: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_SETUP);
}

static unsigned long number(const char *opt, const char *s, int base)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, base);
	if (errno || !*s || *end)
		die("%s: not a number: '%s'", opt, s);
	return v;
}

/* Move @fd to a free descriptor near the top of the 1024 a select() sees. */
static int move_high(int fd)
{
	struct rlimit rl;
	long top = 1024;
	int high;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)top)
		top = rl.rlim_cur;
	if (top <= fd + 16)
		return fd;
	high = fcntl(fd, F_DUPFD, (int)top - 16);
	if (high < 0)
		die("fcntl(F_DUPFD, %ld): %s", top - 16, strerror(errno));
	close(fd);
	return high;
}

int main(int argc, char **argv)
{
	unsigned long long events = DEFAULT_EVENTS;
	unsigned long every = 16, delay_us = 0;
	struct test_utrace_attach at = {
		.flags = TEST_UTRACE_ATTACH_CREATE,
		.ops = TEST_UTRACE_OPS_A,
		.data = 0x6279737461ULL,	/* "bysta" */
	};
	struct test_utrace_script sc = {
		.flags = TEST_UTRACE_SCRIPT_SYSCALL_KEEP |
			 TEST_UTRACE_SCRIPT_CLONE_ATTACH |
			 TEST_UTRACE_SCRIPT_QUIET,
		.syscall_nr = -1,
		.syscall_action = TEST_UTRACE_SYSCALL_RUN,
	};
	struct test_utrace_stats st = {};
	struct test_utrace_cmd cmd = {};
	int verbose = 0, fd, id, i, c;

	while ((c = getopt(argc, argv, "+n:d:e:v")) != -1) {
		switch (c) {
		case 'n':
			every = number("-n", optarg, 10);
			break;
		case 'd':
			delay_us = number("-d", optarg, 10);
			break;
		case 'e':
			events = number("-e", optarg, 16);
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			die("usage: bystander [-n N] [-d USEC] [-e MASK] [-v] COMMAND [ARG...]");
		}
	}
	if (optind >= argc)
		die("usage: bystander [-n N] [-d USEC] [-e MASK] [-v] COMMAND [ARG...]");

	/* Not O_CLOEXEC: the session must outlive the exec below. */
	fd = open(DEVICE, O_RDWR);
	if (fd < 0)
		die("cannot open %s: %s (is test_utrace.ko loaded?); not running %s without its second engine",
		    DEVICE, strerror(errno), argv[optind]);
	fd = move_high(fd);

	at.tid = syscall(SYS_gettid);
	id = ioctl(fd, TEST_UTRACE_IOC_ATTACH, &at);
	if (id <= 0)
		die("TEST_UTRACE_IOC_ATTACH to thread %d: %s", at.tid,
		    strerror(errno));

	sc.id = id;
	for (i = 0; i < TEST_UTRACE_NEVENTS; i++) {
		sc.on[i].action = TEST_UTRACE_RESUME;
		sc.on[i].then = TEST_UTRACE_RESUME;
	}
	sc.bounce_events = TEST_UTRACE_EVENT(SYSCALL_EXIT);
	sc.bounce_every = every;
	sc.bounce_delay_us = delay_us;
	if (ioctl(fd, TEST_UTRACE_IOC_SCRIPT, &sc))
		die("TEST_UTRACE_IOC_SCRIPT: %s", strerror(errno));

	cmd.id = id;
	cmd.events = events;
	if (ioctl(fd, TEST_UTRACE_IOC_SET_EVENTS, &cmd))
		die("TEST_UTRACE_IOC_SET_EVENTS 0x%llx: %s", events,
		    strerror(errno));

	/* The engine must see this system call, or it is not there. */
	getppid();
	st.id = id;
	if (ioctl(fd, TEST_UTRACE_IOC_STATS, &st))
		die("TEST_UTRACE_IOC_STATS: %s", strerror(errno));
	if ((events & TEST_UTRACE_EVENT(SYSCALL_ENTRY)) &&
	    !st.calls[TEST_UTRACE_EV_SYSCALL_ENTRY])
		die("engine %d got no system call entry report", id);

	if (verbose)
		fprintf(stderr,
			"bystander: engine %d on thread %d (fd %d): events 0x%llx, bounce every %lu system call exits for %lu us\n",
			id, at.tid, fd, events, every, delay_us);

	execvp(argv[optind], argv + optind);
	c = errno;
	fprintf(stderr, "bystander: cannot execute %s: %s\n", argv[optind],
		strerror(c));
	return c == ENOENT ? 127 : 126;
}
