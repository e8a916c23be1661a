/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fixed workload's constants.  tests/clients/check.py reads these
 * #defines to derive what each client must report, so an expectation
 * never comes from a client's own output.
 */
#ifndef WORKLOAD_H
#define WORKLOAD_H

#define GETPID_CALLS	5	/* getpid() calls in main(), nowhere else in the workload */
#define HELPER_GETPID	1	/* getpid() calls in the helper */
#define BAD_CLOSES	2	/* close(-1) calls in main(): each fails with EBADF */
#define WORK_A		6	/* arguments of work_step() */
#define WORK_B		7
#define WATCH_FIRST	17	/* values main() stores in 'watched', in order */
#define WATCH_SECOND	42
#define CHILD_TAG	11	/* argument of child_before_exec(), argv[1] of the helper */
#define HELPER_EXIT	3	/* the helper's exit status */
#define GO_BYTE		'G'	/* main() to the thread, once pthread_create() returned */
#define THREAD_BYTE	'T'	/* the thread's answer */
#define HELPER_NAME	"workload-helper"

#endif
