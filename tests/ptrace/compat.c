// SPDX-License-Identifier: GPL-2.0-only
/*
 * 32-bit tracees through IA32 emulation: this file is built with -m32 only
 * (compat_32), so a 32-bit tracer traces 32-bit children.  Covers the
 * basics: TRACEME/ATTACH, syscall stops and orig_eax, GETREGS/SETREGS,
 * PEEK/POKE, single-step, siginfo, FP registers, thread areas and events.
 */
#include <elf.h>
#include <linux/audit.h>
#include <asm/ldt.h>
#include "ptrace_util.h"

#ifndef __i386__
#error "compat.c is meant to be built with -m32"
#endif

/*
 * pt32_step_code: nop(0) nop(1) movl $imm32,%eax(2..6) inc %eax(7)
 * jmp +2(8..9) ud2(10..11) nop(12) mov %eax,%ebx(13..14) movl $1,%eax(15..19)
 * int $0x80(20..21): exits with status 0x79.
 * pt32_int80: int $0x80, nop, then exit(%eax).
 * pt32_exit_esi: exit(%esi).
 */
asm(".pushsection .text\n"
    ".globl pt32_step_code\n"
    "pt32_step_code:\n"
    "	nop\n"
    "	nop\n"
    "	movl $0x12345678, %eax\n"
    "	.byte 0x40\n"			/* inc %eax */
    "	.byte 0xeb, 0x02\n"		/* jmp +2 */
    "	ud2\n"
    "	nop\n"
    "	mov %eax, %ebx\n"
    "	.byte 0xb8, 1, 0, 0, 0\n"	/* movl $1, %eax */
    "	int $0x80\n"
    "	ud2\n"
    ".globl pt32_int80\n"
    "pt32_int80:\n"
    "	int $0x80\n"
    "	nop\n"
    "	mov %eax, %ebx\n"
    "	.byte 0xb8, 1, 0, 0, 0\n"
    "	int $0x80\n"
    "	ud2\n"
    ".globl pt32_exit_esi\n"
    "pt32_exit_esi:\n"
    "	mov %esi, %ebx\n"
    "	.byte 0xb8, 1, 0, 0, 0\n"
    "	int $0x80\n"
    "	ud2\n"
    ".popsection\n");
extern const char pt32_step_code[], pt32_int80[], pt32_exit_esi[];

volatile unsigned int target_var = 0x11223344;

TEST(traceme_sigstop_and_exit)
{
	pid_t pid = traceme_child(_metadata, NULL, NULL);

	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(attach_sends_sigstop)
{
	siginfo_t si;
	pid_t pid = plain_child(_metadata, body_pause, NULL);

	attach_stop(_metadata, pid);
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SIGSTOP, si.si_signo);
	EXPECT_EQ(SI_KERNEL, si.si_code);
	resume_expect(_metadata, pid, PTRACE_DETACH, SIGTERM, ST_KILLED(SIGTERM));
}

TEST(seize_interrupt_event_stop)
{
	pid_t pid = interrupted_child(_metadata, body_pause, NULL, 0);

	kill_reap(pid);
}

TEST(getregs_at_kill_stop)
{
	struct user_regs_struct r;
	pid_t pid = traceme_child(_metadata, body_pause, NULL);

	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(SYS_kill, r.orig_eax);
	EXPECT_EQ(0, r.eax);
	EXPECT_EQ(pid, r.ebx);
	EXPECT_EQ(SIGSTOP, r.ecx);
	EXPECT_EQ(0x23, r.xcs);
	EXPECT_EQ(0x2b, r.xss);
	EXPECT_EQ(0x2b, r.xds);
	kill_reap(pid);
}

TEST(peekuser_matches_getregs)
{
	struct user_regs_struct r;
	long *regs = (long *)&r;
	unsigned long v;
	unsigned int i;
	pid_t pid = traceme_child(_metadata, body_pause, NULL);

	ASSERT_EQ(17 * 4, sizeof(r));
	ASSERT_EQ(0, get_regs(pid, &r));
	for (i = 0; i < sizeof(r) / 4; i++) {
		ASSERT_EQ(0, peek(PTRACE_PEEKUSER, pid, i * 4, &v));
		EXPECT_EQ((unsigned long)regs[i], v);
	}
	EXPECT_EQ(-EIO, peek(PTRACE_PEEKUSER, pid, 2, &v));
	kill_reap(pid);
}

TEST(regset_prstatus_size)
{
	struct user_regs_struct r, r2;
	struct iovec iov = { &r2, 1024 };
	char big[1024];
	pid_t pid = traceme_child(_metadata, body_pause, NULL);

	iov.iov_base = big;
	ASSERT_EQ(0, PTRE(PTRACE_GETREGSET, pid, NT_PRSTATUS, &iov));
	EXPECT_EQ(68U, iov.iov_len);
	ASSERT_EQ(0, get_regs(pid, &r));
	memcpy(&r2, big, sizeof(r2));
	EXPECT_EQ(0, memcmp(&r, &r2, sizeof(r)));
	kill_reap(pid);
}

static int body_getppid(void *arg)
{
	long r;

	(void)arg;
	r = syscall(SYS_getppid, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66);
	return r == getppid() ? 0 : 1;
}

TEST(syscall_stops_orig_eax)
{
	struct user_regs_struct r;
	pid_t pid = traceme_child_opts(_metadata, body_getppid, NULL, PTRACE_O_TRACESYSGOOD);

	resume_regs(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL, &r);
	EXPECT_EQ(SYS_getppid, r.orig_eax);
	EXPECT_EQ(-ENOSYS, r.eax);
	EXPECT_EQ(0x11, r.ebx);
	EXPECT_EQ(0x66, r.ebp);
	resume_regs(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL, &r);
	EXPECT_EQ(SYS_getppid, r.orig_eax);
	EXPECT_EQ(getpid(), r.eax);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(syscall_info_i386)
{
	struct ptrace_syscall_info info;
	pid_t pid = traceme_child_opts(_metadata, body_getppid, NULL, PTRACE_O_TRACESYSGOOD);
	int i;

	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	ASSERT_EQ(80, PTRE(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), &info));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_ENTRY, info.op);
	EXPECT_EQ(AUDIT_ARCH_I386, info.arch);
	EXPECT_EQ((uint64_t)SYS_getppid, info.entry.nr);
	for (i = 0; i < 6; i++)
		EXPECT_EQ(0x11ULL * (i + 1), info.entry.args[i]);
	EXPECT_EQ((uint64_t)get_ip(pid), info.instruction_pointer);
	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	ASSERT_EQ(33, PTRE(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), &info));
	expect_info_exit(_metadata, &info, getpid(), 0);
	kill_reap(pid);
}

TEST(change_syscall_number)
{
	struct user_regs_struct r;
	pid_t pid = traceme_child(_metadata, body_getppid_expect, (void *)1);

	resume_regs(_metadata, pid, PTRACE_SYSCALL, 0, ST_STOPPED(SIGTRAP), &r);
	ASSERT_EQ(SYS_getppid, r.orig_eax);
	r.orig_eax = SYS_getpid;
	cont_with_regs(_metadata, pid, &r, ST_EXITED(0));
}

TEST(skip_syscall_orig_eax_minus_one)
{
	struct user_regs_struct r;
	pid_t pid = traceme_child(_metadata, body_getppid_expect, (void *)2);

	resume_regs(_metadata, pid, PTRACE_SYSCALL, 0, ST_STOPPED(SIGTRAP), &r);
	r.orig_eax = -1;
	r.eax = 77;
	ASSERT_EQ(0, set_regs(pid, &r));
	resume_regs(_metadata, pid, PTRACE_SYSCALL, 0, ST_STOPPED(SIGTRAP), &r);
	EXPECT_EQ(-1, r.orig_eax);
	EXPECT_EQ(77, r.eax);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(sysemu_skips_int80)
{
	struct user_regs_struct r;
	pid_t pid = traceme_child_at(_metadata, pt32_int80, SYS_getppid);

	resume_regs(_metadata, pid, PTRACE_SYSEMU, 0, ST_STOPPED(SIGTRAP), &r);
	EXPECT_EQ(SYS_getppid, r.orig_eax);
	EXPECT_EQ((unsigned long)pt32_int80 + 2, r.eip);
	r.eax = 55;
	ASSERT_EQ(0, set_regs(pid, &r));
	/* The next syscall is the exit; rewind it so that it really runs. */
	resume_regs(_metadata, pid, PTRACE_SYSEMU, 0, ST_STOPPED(SIGTRAP), &r);
	EXPECT_EQ(SYS_exit, r.orig_eax);
	EXPECT_EQ(55, r.ebx);
	rerun_syscall(_metadata, pid, &r, ST_EXITED(55));
}

TEST(setregs_reach_user_mode)
{
	struct user_regs_struct r;
	pid_t pid = traceme_child(_metadata, body_pause, NULL);

	ASSERT_EQ(0, get_regs(pid, &r));
	r.eip = (unsigned long)pt32_exit_esi;
	r.esi = 42;
	cont_with_regs(_metadata, pid, &r, ST_EXITED(42));
}

TEST(setregs_null_cs_eio)
{
	struct user_regs_struct r;
	pid_t pid = traceme_child(_metadata, body_pause, NULL);

	ASSERT_EQ(0, get_regs(pid, &r));
	r.xcs = 0;
	EXPECT_EQ(-EIO, set_regs(pid, &r));
	kill_reap(pid);
}

static int body_check_target(void *arg)
{
	(void)arg;
	return target_var == 0xfeed ? 0 : 1;
}

TEST(peek_poke_data)
{
	unsigned long v = 0;
	pid_t pid = traceme_child(_metadata, body_check_target, NULL);

	ASSERT_EQ(0, peek(PTRACE_PEEKDATA, pid, (unsigned long)&target_var, &v));
	EXPECT_EQ(0x11223344UL, v);
	ASSERT_EQ(0, PTRE(PTRACE_POKEDATA, pid, &target_var, 0xfeed));
	EXPECT_EQ(-EIO, peek(PTRACE_PEEKDATA, pid, 0, &v));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(singlestep_sequence)
{
	static const int offs[] = { 1, 2, 7, 8, 12, 13 };
	pid_t pid = traceme_child_at(_metadata, pt32_step_code, 0);

	expect_step_sequence(_metadata, pid, pt32_step_code, offs, ARRAY_SIZE(offs));
	EXPECT_EQ(TRAP_TRACE, stop_si_code(_metadata, pid));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0x79));
}

TEST(singlestep_over_int80)
{
	struct user_regs_struct r;
	pid_t pid = traceme_child_at(_metadata, pt32_int80, SYS_getppid);

	resume_regs(_metadata, pid, PTRACE_SINGLESTEP, 0, ST_STOPPED(SIGTRAP), &r);
	EXPECT_EQ((unsigned long)pt32_int80 + 2, r.eip);
	EXPECT_EQ(getpid(), r.eax);
	kill_reap(pid);
}

static int body_self_usr1(void *arg)
{
	(void)arg;
	kill(getpid(), SIGUSR1);
	return 0;
}

TEST(getsiginfo_setsiginfo)
{
	siginfo_t si;
	pid_t pid = traceme_child(_metadata, body_self_usr1, NULL);

	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGUSR1));
	expect_siginfo(_metadata, pid, &si, SIGUSR1, SI_USER, pid);
	si.si_code = SI_QUEUE;
	si.si_value.sival_int = 0x1234;
	ASSERT_EQ(0, PTRE(PTRACE_SETSIGINFO, pid, 0, &si));
	memset(&si, 0, sizeof(si));
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SI_QUEUE, si.si_code);
	EXPECT_EQ(0x1234, si.si_value.sival_int);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

static int body_int3(void *arg)
{
	(void)arg;
	asm volatile("int3");
	return 3;
}

TEST(int3_sigtrap_si_kernel)
{
	pid_t pid = traceme_child(_metadata, body_int3, NULL);

	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGTRAP));
	EXPECT_EQ(SI_KERNEL, stop_si_code(_metadata, pid));
	EXPECT_EQ(0xcc, *(unsigned char *)(get_ip(pid) - 1));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(3));
}

TEST(fpregs_and_fpxregs_defaults)
{
	struct user_fpregs_struct fp;
	struct user_fpxregs_struct fpx;
	pid_t pid = traceme_child(_metadata, body_pause, NULL);

	ASSERT_EQ(108, sizeof(fp));
	ASSERT_EQ(0, PTRE(PTRACE_GETFPREGS, pid, 0, &fp));
	EXPECT_EQ(0xffff037fUL, (unsigned long)fp.cwd);
	ASSERT_EQ(0, PTRE(PTRACE_GETFPXREGS, pid, 0, &fpx));
	EXPECT_EQ(0x37f, fpx.cwd);
	EXPECT_EQ(0x1f80, fpx.mxcsr & 0xffff);
	fpx.xmm_space[0] = 0xabcd;
	ASSERT_EQ(0, PTRE(PTRACE_SETFPXREGS, pid, 0, &fpx));
	memset(&fpx, 0, sizeof(fpx));
	ASSERT_EQ(0, PTRE(PTRACE_GETFPXREGS, pid, 0, &fpx));
	EXPECT_EQ(0xabcd, fpx.xmm_space[0]);
	kill_reap(pid);
}

static int body_report_tls(void *arg)
{
	int fd = (int)(long)arg;
	unsigned int self, gs;

	asm volatile("movl %%gs:0, %0" : "=r"(self));
	asm volatile("movl %%gs, %0" : "=r"(gs));
	if (write(fd, &self, 4) != 4 || write(fd, &gs, 4) != 4)
		return 1;
	kill(getpid(), SIGSTOP);
	return 0;
}

TEST(get_thread_area_matches_tls)
{
	struct user_desc d;
	unsigned int self = 0, gs = 0;
	int fds[2];
	pid_t pid;

	ASSERT_EQ(0, pipe(fds));
	pid = traceme_child_ready(_metadata, body_report_tls, (void *)(long)fds[1]);
	ASSERT_EQ(4, read(fds[0], &self, 4));
	ASSERT_EQ(4, read(fds[0], &gs, 4));
	memset(&d, 0, sizeof(d));
	ASSERT_EQ(0, PTRE(PTRACE_GET_THREAD_AREA, pid, gs >> 3, &d));
	EXPECT_EQ(gs >> 3, d.entry_number);
	EXPECT_EQ(self, d.base_addr);
	EXPECT_EQ(1U, (unsigned int)d.seg_32bit);
	EXPECT_EQ(-EINVAL, PTRE(PTRACE_GET_THREAD_AREA, pid, 1, &d));
	kill_reap(pid);
}

TEST(exit_event_message)
{
	pid_t pid = traceme_child_opts(_metadata, body_exit3, NULL, PTRACE_O_TRACEEXIT);

	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_EVENT(PTRACE_EVENT_EXIT));
	expect_eventmsg(_metadata, pid, ST_EXITED(3));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(3));
}

TEST(fork_event)
{
	unsigned long msg = 0;
	pid_t pid = traceme_child_opts(_metadata, body_fork, NULL, PTRACE_O_TRACEFORK);

	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_EVENT(PTRACE_EVENT_FORK));
	ASSERT_EQ(0, PTRE(PTRACE_GETEVENTMSG, pid, 0, &msg));
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(msg, __WALL));
	resume_expect_wall(_metadata, msg, PTRACE_CONT, 0, ST_EXITED(9));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(exec_event)
{
	struct user_regs_struct r;
	pid_t pid = traceme_child_opts(_metadata, body_exec7, NULL, PTRACE_O_TRACEEXEC);

	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_EVENT(PTRACE_EVENT_EXEC));
	expect_eventmsg(_metadata, pid, pid);
	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(SYS_execve, r.orig_eax);
	EXPECT_EQ(0x23, r.xcs);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(7));
}

TEST(exec_legacy_sigtrap)
{
	pid_t pid = traceme_child(_metadata, body_exec7, NULL);

	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGTRAP));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(7));
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--exit"))
		return atoi(argv[2]);
	return test_harness_run(argc, argv);
}
