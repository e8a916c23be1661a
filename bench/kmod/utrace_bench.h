/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interface of utrace_bench.ko (bench/kmod), shared with bench/src/bench.c.
 * One session per open file of /dev/utrace_bench; closing it detaches its
 * engines.
 */
#ifndef UTRACE_BENCH_H
#define UTRACE_BENCH_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define UTRACE_BENCH_DEV		"/dev/utrace_bench"
#define UTRACE_BENCH_MAX_ENGINES	64

/* What every engine of the session counted: the least over the engines. */
struct utrace_bench_counts {
	__u64 entries;
	__u64 exits;
};

/* Attach ARG engines, with system call entry and exit events, to the caller. */
#define UTRACE_BENCH_IOC_ATTACH	_IO('u', 0x40)
#define UTRACE_BENCH_IOC_COUNTS	_IOR('u', 0x41, struct utrace_bench_counts)

#endif
