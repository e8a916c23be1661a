// SPDX-License-Identifier: GPL-2.0-only
/*
 * Signal state: GETSIGINFO/SETSIGINFO (also for fault signals), PEEKSIGINFO
 * (private and shared queues), GETSIGMASK/SETSIGMASK, and the newer
 * per-task configuration requests GET_RSEQ_CONFIGURATION and
 * GET/SET_SYSCALL_USER_DISPATCH_CONFIG.
 */
#include <linux/audit.h>
#include "ptrace_util.h"

#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH	59
#define PR_SYS_DISPATCH_OFF		0
#define PR_SYS_DISPATCH_ON		1
#endif
#ifndef SYS_USER_DISPATCH
#define SYS_USER_DISPATCH		2
#endif

static volatile sig_atomic_t got_sig;
static siginfo_t got_info;

static void handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_info = *si;
}

static void install(int sig)
{
	struct sigaction sa = { .sa_sigaction = handler, .sa_flags = SA_SIGINFO };

	sigaction(sig, &sa, NULL);
}

/* Child: handlers installed, stops, raises SIGUSR1, returns a check code. */
static int body_raise_usr1(void *arg)
{
	long mode = (long)arg;

	kill(getpid(), SIGUSR1);
	switch (mode) {
	case 1:	/* expects the tracer's SETSIGINFO values */
		if (got_sig != SIGUSR1 || got_info.si_code != SI_QUEUE)
			return 1;
		if (got_info.si_pid != 4321 || got_info.si_value.sival_int != 99)
			return 2;
		return 0;
	case 2:	/* expects SIGUSR2 synthesised as SI_USER from the tracer */
		if (got_sig != SIGUSR2 || got_info.si_signo != SIGUSR2)
			return 1;
		if (got_info.si_code != SI_USER || got_info.si_pid != getppid())
			return 2;
		return got_info.si_uid == 0 ? 0 : 3;
	case 3:	/* expects SIGUSR1 synthesised as SI_USER from the tracer */
		if (got_sig != SIGUSR1 || got_info.si_code != SI_USER)
			return 1;
		return got_info.si_pid == getppid() ? 0 : 2;
	}
	return 9;
}

/*
 * Like traceme_child(body_raise_usr1, mode), with handlers for SIGUSR1 and
 * SIGUSR2; then asserts PTRACE_CONT to the SIGUSR1 signal-delivery-stop.
 */
static pid_t usr1_stopped(struct __test_metadata *_metadata, long mode)
{
	pid_t pid = fork_child();

	if (pid == 0) {
		install(SIGUSR1);
		install(SIGUSR2);
		child_traceme_stop();
		_exit(body_raise_usr1((void *)mode));
	}
	if (pid > 0 && wstat(pid, 0) != ST_STOPPED(SIGSTOP)) {
		kill_reap(pid);
		pid = -1;
	}
	ASSERT_GT(pid, 0);
	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGUSR1));
	return pid;
}

TEST(setsiginfo_changes_delivered_siginfo)
{
	siginfo_t si;
	pid_t pid = usr1_stopped(_metadata, 1);

	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SI_USER, si.si_code);
	si.si_code = SI_QUEUE;
	si.si_pid = 4321;
	si.si_value.sival_int = 99;
	ASSERT_EQ(0, PTRE(PTRACE_SETSIGINFO, pid, 0, &si));
	memset(&si, 0, sizeof(si));
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SI_QUEUE, si.si_code);
	EXPECT_EQ(4321, si.si_pid);
	resume_expect(_metadata, pid, PTRACE_CONT, SIGUSR1, ST_EXITED(0));
}

TEST(cont_other_signal_synthesizes_si_user)
{
	pid_t pid = usr1_stopped(_metadata, 2);

	resume_expect(_metadata, pid, PTRACE_CONT, SIGUSR2, ST_EXITED(0));
}

TEST(setsiginfo_signo_mismatch_synthesizes_si_user)
{
	siginfo_t si;
	pid_t pid = usr1_stopped(_metadata, 3);

	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	si.si_signo = SIGUSR2;
	si.si_code = SI_QUEUE;
	ASSERT_EQ(0, PTRE(PTRACE_SETSIGINFO, pid, 0, &si));
	/* Resume with SIGUSR1 != si_signo: the kernel builds a new siginfo. */
	resume_expect(_metadata, pid, PTRACE_CONT, SIGUSR1, ST_EXITED(0));
}

TEST(getsiginfo_running_esrch)
{
	siginfo_t si;
	pid_t pid = seized_child(_metadata, body_pause, NULL, 0);

	EXPECT_EQ(-ESRCH, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_SETSIGINFO, pid, 0, &si));
	kill_reap(pid);
}

TEST(getsiginfo_kill_from_tracer)
{
	siginfo_t si;
	pid_t pid = traceme_child(_metadata, body_pause, NULL);

	ASSERT_EQ(0, kill(pid, SIGUSR1));
	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGUSR1));
	expect_siginfo(_metadata, pid, &si, SIGUSR1, SI_USER, getpid());
	EXPECT_EQ(0, si.si_errno);
	EXPECT_EQ(0, (int)si.si_uid);
	kill_reap(pid);
}

TEST(getsiginfo_tgkill_si_tkill)
{
	siginfo_t si;
	pid_t pid = traceme_child(_metadata, body_pause, NULL);

	ASSERT_EQ(0, sys_tgkill(pid, pid, SIGUSR2));
	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGUSR2));
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SI_TKILL, si.si_code);
	EXPECT_EQ(getpid(), si.si_pid);
	kill_reap(pid);
}

static int body_fault(void *arg)
{
	uintptr_t addr = 0x10;

	switch ((long)arg) {
	case 0:
		asm volatile("" : "+r"(addr));
		*(volatile int *)addr = 1;
		break;
	case 1:
		asm volatile("int3");
		break;
	case 2:
		asm volatile("ud2");
		break;
	}
	return 0;
}

/*
 * body_fault(kind): asserts the signal-delivery-stop for sig, GETSIGINFO
 * into *si and GETREGS into *r (and for a fault, that suppressing the
 * signal re-executes the instruction); then expects si_signo == sig and
 * si_code == code.
 */
static void fault_stop(struct __test_metadata *_metadata, long kind, int sig,
		       int code, siginfo_t *si, struct user_regs_struct *r)
{
	pid_t pid = traceme_child(_metadata, body_fault, (void *)kind);

	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(sig));
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, si));
	ASSERT_EQ(0, get_regs(pid, r));
	/* Suppressing a fault signal re-executes the instruction. */
	if (kind != 1)
		resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(sig));
	kill_reap(pid);
	EXPECT_EQ(sig, si->si_signo);
	EXPECT_EQ(code, si->si_code);
}

TEST(getsiginfo_sigsegv_fault)
{
	struct user_regs_struct r;
	siginfo_t si;

	fault_stop(_metadata, 0, SIGSEGV, SEGV_MAPERR, &si, &r);
	EXPECT_EQ((void *)0x10, si.si_addr);
}

TEST(getsiginfo_int3_si_kernel)
{
	struct user_regs_struct r;
	siginfo_t si;

	fault_stop(_metadata, 1, SIGTRAP, SI_KERNEL, &si, &r);
	/* rip is after the int3. */
	EXPECT_EQ(0xcc, (unsigned char)*(char *)(r.rip - 1));
}

TEST(getsiginfo_ud2_sigill)
{
	struct user_regs_struct r;
	siginfo_t si;

	fault_stop(_metadata, 2, SIGILL, ILL_ILLOPN, &si, &r);
	EXPECT_EQ((void *)r.rip, si.si_addr);
	EXPECT_EQ(0x0b0f, *(unsigned short *)r.rip);
}

/* Queue 3 shared and 2 private SIGRTMIN+2 signals, blocked, then stop. */
static int body_queue(void *arg)
{
	siginfo_t si;
	sigset_t set;
	int i;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN + 2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	for (i = 0; i < 3; i++) {
		union sigval v = { .sival_int = 100 + i };

		sigqueue(getpid(), SIGRTMIN + 2, v);
	}
	for (i = 0; i < 2; i++) {
		memset(&si, 0, sizeof(si));
		si.si_signo = SIGRTMIN + 2;
		si.si_code = SI_QUEUE;
		si.si_pid = getpid();
		si.si_value.sival_int = 200 + i;
		syscall(SYS_rt_tgsigqueueinfo, getpid(), sys_gettid(),
			SIGRTMIN + 2, &si);
	}
	kill(getpid(), SIGSTOP);
	return 0;
}

static pid_t spawn_queued(struct __test_metadata *_metadata)
{
	pid_t pid = traceme_child(_metadata, body_queue, NULL);

	EXPECT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, 0));
	return pid;
}

static long peeksig(pid_t pid, uint64_t off, uint32_t flags, int32_t nr,
		    siginfo_t *buf)
{
	struct ptrace_peeksiginfo_args a = { .off = off, .flags = flags,
					     .nr = nr };

	return PTRE(PTRACE_PEEKSIGINFO, pid, &a, buf);
}

/* spawn_queued(); asserts that PEEKSIGINFO_SHARED copies 3 signals to si. */
static pid_t queued_peek_shared(struct __test_metadata *_metadata,
				siginfo_t si[8])
{
	pid_t pid = spawn_queued(_metadata);

	ASSERT_EQ(3, peeksig(pid, 0, PTRACE_PEEKSIGINFO_SHARED, 8, si));
	return pid;
}

TEST(peeksiginfo_private_queue)
{
	siginfo_t si[8];
	pid_t pid = spawn_queued(_metadata);

	ASSERT_EQ(2, peeksig(pid, 0, 0, 8, si));
	EXPECT_EQ(SIGRTMIN + 2, si[0].si_signo);
	EXPECT_EQ(SI_QUEUE, si[0].si_code);
	EXPECT_EQ(200, si[0].si_value.sival_int);
	EXPECT_EQ(201, si[1].si_value.sival_int);
	EXPECT_EQ(pid, si[1].si_pid);
	kill_reap(pid);
}

TEST(peeksiginfo_shared_queue)
{
	siginfo_t si[8];
	pid_t pid = queued_peek_shared(_metadata, si);
	int i;

	for (i = 0; i < 3; i++) {
		EXPECT_EQ(SIGRTMIN + 2, si[i].si_signo);
		EXPECT_EQ(SI_QUEUE, si[i].si_code);
		EXPECT_EQ(100 + i, si[i].si_value.sival_int);
	}
	kill_reap(pid);
}

TEST(peeksiginfo_offset_and_count)
{
	siginfo_t si[8];
	pid_t pid = spawn_queued(_metadata);

	ASSERT_EQ(1, peeksig(pid, 1, PTRACE_PEEKSIGINFO_SHARED, 1, si));
	EXPECT_EQ(101, si[0].si_value.sival_int);
	ASSERT_EQ(1, peeksig(pid, 2, PTRACE_PEEKSIGINFO_SHARED, 5, si));
	EXPECT_EQ(102, si[0].si_value.sival_int);
	EXPECT_EQ(0, peeksig(pid, 3, PTRACE_PEEKSIGINFO_SHARED, 5, si));
	EXPECT_EQ(0, peeksig(pid, 0, 0, 0, si));
	EXPECT_EQ(0, peeksig(pid, 1ULL << 63, 0, 1, si));
	/* Peeking does not dequeue. */
	ASSERT_EQ(2, peeksig(pid, 0, 0, 8, si));
	kill_reap(pid);
}

TEST(peeksiginfo_invalid_args_einval)
{
	siginfo_t si[2];
	pid_t pid = spawn_queued(_metadata);

	EXPECT_EQ(-EINVAL, peeksig(pid, 0, 2, 1, si));
	EXPECT_EQ(-EINVAL, peeksig(pid, 0, 0, -1, si));
	EXPECT_EQ(-EFAULT, PTRE(PTRACE_PEEKSIGINFO, pid, 0, si));
	kill_reap(pid);
}

TEST(peeksiginfo_delivery_after_peek)
{
	siginfo_t si[8];
	pid_t pid = queued_peek_shared(_metadata, si);
	int i;

	/* Unblock everything: private signals first, then shared ones. */
	ASSERT_EQ(0, PTRE(PTRACE_SETSIGMASK, pid, 8, &(uint64_t){ 0 }));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(ST_STOPPED(SIGRTMIN + 2), wstat(pid, 0));
		ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, si));
		EXPECT_EQ(i < 2 ? 200 + i : 100 + i - 2,
			  si[0].si_value.sival_int);
		ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	}
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

static uint64_t sigbit(int sig)
{
	return 1ULL << (sig - 1);
}

static int body_block_check(void *arg)
{
	sigset_t set;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGRTMIN + 3);
	sigprocmask(SIG_SETMASK, &set, NULL);
	kill(getpid(), SIGSTOP);
	/* After the tracer's SETSIGMASK: SIGUSR2 blocked, SIGUSR1 not. */
	sigprocmask(SIG_SETMASK, NULL, &set);
	if (sigismember(&set, SIGUSR1) || !sigismember(&set, SIGUSR2))
		return 1;
	return 0;
}

TEST(getsigmask_reads_blocked)
{
	uint64_t mask = 0;
	pid_t pid = traceme_child_ready(_metadata, body_block_check, NULL);

	ASSERT_EQ(0, PTRE(PTRACE_GETSIGMASK, pid, 8, &mask));
	EXPECT_EQ(sigbit(SIGUSR1) | sigbit(SIGRTMIN + 3), mask);
	kill_reap(pid);
}

TEST(setsigmask_visible_to_tracee)
{
	uint64_t mask = sigbit(SIGUSR2);
	pid_t pid = traceme_child_ready(_metadata, body_block_check, NULL);

	ASSERT_EQ(0, PTRE(PTRACE_SETSIGMASK, pid, 8, &mask));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(setsigmask_drops_sigkill_sigstop)
{
	uint64_t mask = ~0ULL;
	pid_t pid = traceme_child(_metadata, body_pause, NULL);

	ASSERT_EQ(0, PTRE(PTRACE_SETSIGMASK, pid, 8, &mask));
	mask = 0;
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGMASK, pid, 8, &mask));
	EXPECT_EQ(~(sigbit(SIGKILL) | sigbit(SIGSTOP)), mask);
	kill_reap(pid);
}

TEST(sigmask_wrong_size_einval)
{
	uint64_t mask[2] = { 0 };
	pid_t pid = traceme_child(_metadata, body_pause, NULL);

	EXPECT_EQ(-EINVAL, PTRE(PTRACE_GETSIGMASK, pid, 4, mask));
	EXPECT_EQ(-EINVAL, PTRE(PTRACE_GETSIGMASK, pid, 16, mask));
	EXPECT_EQ(-EINVAL, PTRE(PTRACE_SETSIGMASK, pid, 0, mask));
	kill_reap(pid);
}

/* glibc >= 2.35 registers rseq for every thread. */
extern const ptrdiff_t __rseq_offset __attribute__((weak));
extern const unsigned int __rseq_size __attribute__((weak));

static int body_report_rseq(void *arg)
{
	int fd = (int)(long)arg;
	uint64_t p = 0;

	if (&__rseq_size && __rseq_size)
		p = (uint64_t)(uintptr_t)((char *)__builtin_thread_pointer() +
					  __rseq_offset);
	if (write(fd, &p, sizeof(p)) != sizeof(p))
		return 1;
	kill(getpid(), SIGSTOP);
	return 0;
}

/* Asserts GET_RSEQ_CONFIGURATION == sizeof(*conf) (prefilled with 0xa5). */
static void get_rseq_conf(struct __test_metadata *_metadata, pid_t pid,
			  struct ptrace_rseq_configuration *conf)
{
	memset(conf, 0xa5, sizeof(*conf));
	ASSERT_EQ(sizeof(*conf), PTRE(PTRACE_GET_RSEQ_CONFIGURATION, pid,
				      sizeof(*conf), conf));
}

TEST(rseq_configuration_matches_tracee)
{
	struct ptrace_rseq_configuration conf;
	uint64_t expect = 0;
	int fds[2];
	pid_t pid;

	ASSERT_EQ(0, pipe(fds));
	pid = traceme_child_ready(_metadata, body_report_rseq, (void *)(long)fds[1]);
	ASSERT_EQ(sizeof(expect), read(fds[0], &expect, sizeof(expect)));
	get_rseq_conf(_metadata, pid, &conf);
	if (!expect)
		SKIP(goto out, "libc did not register rseq (glibc.pthread.rseq=0?)");
	EXPECT_EQ(expect, conf.rseq_abi_pointer);
	EXPECT_EQ(32U, conf.rseq_abi_size);
	EXPECT_EQ(0x53053053U, conf.signature);
	EXPECT_EQ(0U, conf.flags);
out:
	kill_reap(pid);
}

static int body_unregister_rseq(void *arg)
{
	(void)arg;
	if (&__rseq_size && __rseq_size)
		syscall(SYS_rseq, (char *)__builtin_thread_pointer() +
			__rseq_offset, 32, 1 /* RSEQ_FLAG_UNREGISTER */,
			0x53053053);
	kill(getpid(), SIGSTOP);
	return 0;
}

TEST(rseq_configuration_unregistered_zero)
{
	struct ptrace_rseq_configuration conf;
	pid_t pid = traceme_child_ready(_metadata, body_unregister_rseq, NULL);

	get_rseq_conf(_metadata, pid, &conf);
	EXPECT_EQ(0ULL, conf.rseq_abi_pointer);
	EXPECT_EQ(0U, conf.rseq_abi_size);
	EXPECT_EQ(0U, conf.flags);
	kill_reap(pid);
}

TEST(rseq_configuration_short_size)
{
	uint64_t buf[4] = { 1, 2, 3, 4 };
	pid_t pid = traceme_child(_metadata, body_pause, NULL);

	/* Always returns the full size; copies at most what was asked. */
	ASSERT_EQ(24, PTRE(PTRACE_GET_RSEQ_CONFIGURATION, pid, 8, buf));
	EXPECT_EQ(2ULL, buf[1]);
	ASSERT_EQ(24, PTRE(PTRACE_GET_RSEQ_CONFIGURATION, pid, 0, buf));
	kill_reap(pid);
}

volatile char sud_selector = 1;	/* SYSCALL_DISPATCH_FILTER_BLOCK */

static long sud_get(pid_t pid, struct ptrace_sud_config *c)
{
	memset(c, 0xa5, sizeof(*c));
	return PTRE(PTRACE_GET_SYSCALL_USER_DISPATCH_CONFIG, pid, sizeof(*c),
		    c);
}

/* Asserts sud_get(), then expects the four fields of the config. */
static void expect_sud(struct __test_metadata *_metadata, pid_t pid,
		       uint64_t mode, uint64_t selector, uint64_t offset,
		       uint64_t len)
{
	struct ptrace_sud_config c;

	ASSERT_EQ(0, sud_get(pid, &c));
	EXPECT_EQ(mode, c.mode);
	EXPECT_EQ(selector, c.selector);
	EXPECT_EQ(offset, c.offset);
	EXPECT_EQ(len, c.len);
}

TEST(sud_config_default_off)
{
	pid_t pid = traceme_child(_metadata, body_pause, NULL);

	expect_sud(_metadata, pid, PR_SYS_DISPATCH_OFF, 0, 0, 0);
	kill_reap(pid);
}

static int body_sud_prctl(void *arg)
{
	(void)arg;
	sud_selector = 0;	/* ALLOW */
	if (prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON,
		  0x1000, 0x2000, &sud_selector))
		return 1;
	kill(getpid(), SIGSTOP);
	return 0;
}

TEST(sud_config_reflects_prctl)
{
	pid_t pid = traceme_child_ready(_metadata, body_sud_prctl, NULL);

	expect_sud(_metadata, pid, PR_SYS_DISPATCH_ON,
		   (uint64_t)(uintptr_t)&sud_selector, 0x1000, 0x2000);
	kill_reap(pid);
}

TEST(sud_config_set_dispatches_sigsys)
{
	struct ptrace_sud_config c = {
		.mode = PR_SYS_DISPATCH_ON,
		.selector = (uint64_t)(uintptr_t)&sud_selector,
		.offset = (uint64_t)(uintptr_t)pt_exit_r12,
		.len = 1,
	};
	struct ptrace_sud_config c2;
	siginfo_t si;
	pid_t pid = traceme_child(_metadata, body_getppid_once, NULL);

	ASSERT_EQ(0, PTRE(PTRACE_SET_SYSCALL_USER_DISPATCH_CONFIG, pid,
			  sizeof(c), &c));
	ASSERT_EQ(0, sud_get(pid, &c2));
	EXPECT_EQ(0, memcmp(&c, &c2, sizeof(c)));
	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGSYS));
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SIGSYS, si.si_signo);
	EXPECT_EQ(SYS_USER_DISPATCH, si.si_code);
	EXPECT_EQ(SYS_getppid, si.si_syscall);
	EXPECT_EQ(AUDIT_ARCH_X86_64, si.si_arch);
	kill_reap(pid);
}

TEST(sud_config_set_errors)
{
	struct ptrace_sud_config c = { .mode = 7 };
	pid_t pid = traceme_child(_metadata, body_pause, NULL);

	EXPECT_EQ(-EINVAL, PTRE(PTRACE_SET_SYSCALL_USER_DISPATCH_CONFIG, pid,
				sizeof(c), &c));
	c.mode = PR_SYS_DISPATCH_OFF;
	c.len = 1;
	EXPECT_EQ(-EINVAL, PTRE(PTRACE_SET_SYSCALL_USER_DISPATCH_CONFIG, pid,
				sizeof(c), &c));
	c.len = 0;
	EXPECT_EQ(-EINVAL, PTRE(PTRACE_SET_SYSCALL_USER_DISPATCH_CONFIG, pid,
				sizeof(c) - 8, &c));
	EXPECT_EQ(-EINVAL, PTRE(PTRACE_GET_SYSCALL_USER_DISPATCH_CONFIG, pid,
				sizeof(c) + 8, &c));
	/* OFF with everything zero is fine. */
	EXPECT_EQ(0, PTRE(PTRACE_SET_SYSCALL_USER_DISPATCH_CONFIG, pid,
			  sizeof(c), &c));
	kill_reap(pid);
}

TEST_HARNESS_MAIN
