// SPDX-License-Identifier: GPL-2.0-only
/*
 * State access: PEEK/POKE TEXT/DATA/USER, GETREGS/SETREGS,
 * GETFPREGS/SETFPREGS, GETREGSET/SETREGSET (NT_PRSTATUS, NT_PRFPREG,
 * NT_X86_XSTATE), debug registers, ARCH_PRCTL, changing the syscall
 * number/arguments/return value at syscall stops and /proc/PID/mem.
 */
#include <cpuid.h>
#include <elf.h>
#include <asm/prctl.h>
#include <linux/audit.h>
#include "ptrace_util.h"

#define USER_OFF(field)	offsetof(struct user, field)
#define REG_OFF(field)	offsetof(struct user_regs_struct, field)
#define DR_OFF(n)	(USER_OFF(u_debugreg) + (n) * sizeof(long))
/*
 * The kernel's struct user has error_code and fault_address after
 * u_debugreg[8]; glibc's <sys/user.h> stops at u_debugreg.
 */
#define KERNEL_USER_SIZE	(USER_OFF(u_debugreg) + 10 * sizeof(long))
#define DR6_RESERVED		0xffff0ff0UL

volatile unsigned long target_var = 0x1122334455667788UL;
volatile unsigned long watch_var;
static const unsigned long ro_var = 5;

/* pt_ret_value: movl $1, %eax; ret.  The imm32 is at pt_ret_value + 1. */
asm(".pushsection .text\n"
    ".globl pt_ret_value\n"
    "pt_ret_value:\n"
    "	.byte 0xb8, 1, 0, 0, 0\n"
    "	ret\n"
    ".globl pt_exit_xmm0\n"
    "pt_exit_xmm0:\n"
    "	movd %xmm0, %edi\n"
    "	.byte 0xb8, 60, 0, 0, 0\n"
    "	syscall\n"
    "	ud2\n"
    ".popsection\n");
extern int pt_ret_value(void);
extern const char pt_exit_xmm0[];

/* A body_pause TRACEME child in its SIGSTOP stop; asserts pid > 0. */
static pid_t stopped_child(struct __test_metadata *_metadata)
{
	return traceme_child(_metadata, body_pause, NULL);
}

TEST(getregs_at_kill_stop)
{
	struct user_regs_struct r;
	pid_t pid = stopped_child(_metadata);

	expect_syscall_regs(_metadata, pid, &r, SYS_kill, 0);
	EXPECT_EQ((unsigned long)pid, r.rdi);
	EXPECT_EQ((unsigned long)SIGSTOP, r.rsi);
	EXPECT_EQ(0x33UL, r.cs);
	EXPECT_EQ(0x2bUL, r.ss);
	kill_reap(pid);
}

TEST(getregs_running_esrch)
{
	struct user_regs_struct r;
	pid_t pid = seized_child(_metadata, body_pause, NULL, 0);

	EXPECT_EQ(-ESRCH, get_regs(pid, &r));
	EXPECT_EQ(-ESRCH, set_regs(pid, &r));
	kill_reap(pid);
}

TEST(setregs_reach_user_mode)
{
	struct user_regs_struct r;
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, get_regs(pid, &r));
	r.rip = (unsigned long)pt_exit_r12;
	r.r12 = 42;
	cont_with_regs(_metadata, pid, &r, ST_EXITED(42));
}

TEST(setregs_roundtrip_gp)
{
	struct user_regs_struct r, r2;
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, get_regs(pid, &r));
	r.r8 = 0x0808080808080808UL;
	r.r9 = 0x0909;
	r.r10 = -10UL;
	r.r11 = 0x1111;
	r.r13 = 0x1313;
	r.r14 = 0x1414;
	r.r15 = 0x1515;
	r.rbx = 0xb0b0;
	r.rbp = 0xb9b9;
	ASSERT_EQ(0, set_regs(pid, &r));
	ASSERT_EQ(0, get_regs(pid, &r2));
	EXPECT_EQ(0, memcmp(&r, &r2, sizeof(r)));
	kill_reap(pid);
}

TEST(setregs_null_cs_ss_eio)
{
	struct user_regs_struct r, r2;
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, get_regs(pid, &r));
	r2 = r;
	r2.cs = 0;
	EXPECT_EQ(-EIO, set_regs(pid, &r2));
	r2 = r;
	r2.ss = 0;
	EXPECT_EQ(-EIO, set_regs(pid, &r2));
	/* Null is fine for the data segments. */
	r2 = r;
	r2.ds = 0;
	EXPECT_EQ(0, set_regs(pid, &r2));
	kill_reap(pid);
}

TEST(setregs_kernel_rpl_selector_eio)
{
	struct user_regs_struct r;
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, get_regs(pid, &r));
	r.cs = 0x10;
	EXPECT_EQ(-EIO, set_regs(pid, &r));
	EXPECT_EQ(-EIO, PTRE(PTRACE_POKEUSER, pid, REG_OFF(ds), 0x18));
	EXPECT_EQ(0, PTRE(PTRACE_POKEUSER, pid, REG_OFF(ds), 0x2b));
	kill_reap(pid);
}

TEST(setregs_eflags_mask)
{
	struct user_regs_struct r;
	unsigned long before;
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, get_regs(pid, &r));
	before = r.eflags;
	EXPECT_EQ(0x200UL, before & 0x200);	/* IF */
	/* Set DF and CF, try to clear IF and set IOPL: only DF/CF change. */
	r.eflags = (before | 0x401 | 0x3000) & ~0x200UL;
	ASSERT_EQ(0, set_regs(pid, &r));
	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ((before & ~0x401UL) | 0x401, r.eflags);
	kill_reap(pid);
}

TEST(setregs_noncanonical_fs_base_eio)
{
	struct user_regs_struct r;
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, get_regs(pid, &r));
	r.fs_base = 0x8000000000000000UL;
	EXPECT_EQ(-EIO, set_regs(pid, &r));
	EXPECT_EQ(-EIO, PTRE(PTRACE_POKEUSER, pid, REG_OFF(gs_base),
			     0xffff800000000000UL));
	kill_reap(pid);
}

TEST(peekuser_matches_getregs)
{
	struct user_regs_struct r;
	unsigned long *regs = (unsigned long *)&r, v;
	unsigned int i;
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, get_regs(pid, &r));
	for (i = 0; i < sizeof(r) / sizeof(long); i++) {
		ASSERT_EQ(0, peek(PTRACE_PEEKUSER, pid, i * sizeof(long), &v));
		EXPECT_EQ(regs[i], v);
	}
	kill_reap(pid);
}

TEST(peekuser_bad_offsets)
{
	unsigned long v = 0x77;
	pid_t pid = stopped_child(_metadata);

	EXPECT_EQ(-EIO, peek(PTRACE_PEEKUSER, pid, 3, &v));
	EXPECT_EQ(-EIO, peek(PTRACE_PEEKUSER, pid, KERNEL_USER_SIZE, &v));
	EXPECT_EQ(-EIO, peek(PTRACE_PEEKUSER, pid, -8UL, &v));
	/* Between the registers and u_debugreg: reads as 0. */
	EXPECT_EQ(0, peek(PTRACE_PEEKUSER, pid, USER_OFF(u_tsize), &v));
	EXPECT_EQ(0UL, v);
	v = 0x77;
	EXPECT_EQ(0, peek(PTRACE_PEEKUSER, pid, KERNEL_USER_SIZE - 8, &v));
	EXPECT_EQ(0UL, v);
	kill_reap(pid);
}

TEST(pokeuser_bad_offsets_eio)
{
	pid_t pid = stopped_child(_metadata);

	EXPECT_EQ(-EIO, PTRE(PTRACE_POKEUSER, pid, 4, 0));
	EXPECT_EQ(-EIO, PTRE(PTRACE_POKEUSER, pid, USER_OFF(u_tsize), 0));
	EXPECT_EQ(-EIO, PTRE(PTRACE_POKEUSER, pid, KERNEL_USER_SIZE - 8, 0));
	EXPECT_EQ(-EIO, PTRE(PTRACE_POKEUSER, pid, KERNEL_USER_SIZE, 0));
	kill_reap(pid);
}

TEST(pokeuser_regs_reach_user_mode)
{
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid, REG_OFF(r12), 43));
	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid, REG_OFF(rip), pt_exit_r12));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(43));
}

static int body_set_target(void *arg)
{
	(void)arg;
	return 0;
}

TEST(peekdata_reads_child_memory)
{
	unsigned long v = 0;
	pid_t pid = fork_child();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		target_var = 0xabcdef00UL + getpid();
		child_traceme_stop();
		_exit(body_set_target(NULL));
	}
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, 0));
	ASSERT_EQ(0, peek(PTRACE_PEEKDATA, pid, (unsigned long)&target_var, &v));
	EXPECT_EQ(0xabcdef00UL + pid, v);
	ASSERT_EQ(0, peek(PTRACE_PEEKTEXT, pid, (unsigned long)&target_var, &v));
	EXPECT_EQ(0xabcdef00UL + pid, v);
	/* Unaligned addresses are fine. */
	ASSERT_EQ(0, peek(PTRACE_PEEKDATA, pid, (unsigned long)&target_var + 1,
			  &v));
	EXPECT_EQ((0xabcdef00UL + pid) >> 8, v & 0x00ffffffffffffffUL);
	kill_reap(pid);
}

static int body_check_target(void *arg)
{
	(void)arg;
	return target_var == 0xfeedUL ? 0 : 1;
}

TEST(pokedata_writes_child_memory)
{
	pid_t pid = traceme_child(_metadata, body_check_target, NULL);

	ASSERT_EQ(0, PTRE(PTRACE_POKEDATA, pid, &target_var, 0xfeed));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
	/* Ours is untouched. */
	EXPECT_EQ(0x1122334455667788UL, target_var);
}

TEST(peek_poke_unmapped_eio)
{
	unsigned long v;
	pid_t pid = stopped_child(_metadata);

	EXPECT_EQ(-EIO, peek(PTRACE_PEEKDATA, pid, 0, &v));
	EXPECT_EQ(-EIO, peek(PTRACE_PEEKTEXT, pid, 8, &v));
	EXPECT_EQ(-EIO, PTRE(PTRACE_POKEDATA, pid, 0, 1));
	EXPECT_EQ(-EIO, PTRE(PTRACE_POKETEXT, pid, 0xffffffff80000000UL, 1));
	kill_reap(pid);
}

static int body_check_ro(void *arg)
{
	(void)arg;
	return *(volatile const unsigned long *)&ro_var == 6 ? 0 : 1;
}

TEST(poke_readonly_data_forced)
{
	pid_t pid = traceme_child(_metadata, body_check_ro, NULL);

	ASSERT_EQ(0, PTRE(PTRACE_POKEDATA, pid, &ro_var, 6));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
	EXPECT_EQ(5UL, *(volatile const unsigned long *)&ro_var);
}

static int body_call_ret_value(void *arg)
{
	(void)arg;
	return pt_ret_value();
}

TEST(poketext_patches_code)
{
	unsigned long word;
	pid_t pid = traceme_child(_metadata, body_call_ret_value, NULL);

	ASSERT_EQ(0, peek(PTRACE_PEEKTEXT, pid, (unsigned long)pt_ret_value,
			  &word));
	EXPECT_EQ(0x01b8UL, word & 0xffff);
	word = (word & ~0xff00UL) | (77UL << 8);
	ASSERT_EQ(0, PTRE(PTRACE_POKETEXT, pid, pt_ret_value, word));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(77));
	EXPECT_EQ(1, pt_ret_value());
}

TEST(fpregs_defaults_and_roundtrip)
{
	struct user_fpregs_struct fp, fp2;
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, PTRE(PTRACE_GETFPREGS, pid, 0, &fp));
	EXPECT_EQ(0x37f, fp.cwd);
	EXPECT_EQ(0x1f80U, fp.mxcsr & 0xffff);
	fp.xmm_space[0] = 0xdead;
	fp.xmm_space[3] = 0xbeef;
	fp.xmm_space[60] = 0x1234;
	ASSERT_EQ(0, PTRE(PTRACE_SETFPREGS, pid, 0, &fp));
	ASSERT_EQ(0, PTRE(PTRACE_GETFPREGS, pid, 0, &fp2));
	EXPECT_EQ(0, memcmp(fp.xmm_space, fp2.xmm_space, sizeof(fp.xmm_space)));
	EXPECT_EQ(fp.mxcsr, fp2.mxcsr);
	kill_reap(pid);
}

TEST(setfpregs_xmm0_reaches_user_mode)
{
	struct user_fpregs_struct fp;
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, PTRE(PTRACE_GETFPREGS, pid, 0, &fp));
	fp.xmm_space[0] = 44;
	ASSERT_EQ(0, PTRE(PTRACE_SETFPREGS, pid, 0, &fp));
	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid, REG_OFF(rip), pt_exit_xmm0));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(44));
}

TEST(setfpregs_reserved_mxcsr_einval)
{
	struct user_fpregs_struct fp;
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, PTRE(PTRACE_GETFPREGS, pid, 0, &fp));
	fp.mxcsr = 0xffffffff;
	EXPECT_EQ(-EINVAL, PTRE(PTRACE_SETFPREGS, pid, 0, &fp));
	kill_reap(pid);
}

static long getregset(pid_t pid, int type, void *buf, size_t *len)
{
	struct iovec iov = { .iov_base = buf, .iov_len = *len };
	long r = PTRE(PTRACE_GETREGSET, pid, type, &iov);

	*len = iov.iov_len;
	return r;
}

static long setregset(pid_t pid, int type, void *buf, size_t *len)
{
	struct iovec iov = { .iov_base = buf, .iov_len = *len };
	long r = PTRE(PTRACE_SETREGSET, pid, type, &iov);

	*len = iov.iov_len;
	return r;
}

TEST(regset_prstatus_matches_getregs)
{
	struct user_regs_struct r, r2;
	size_t len = sizeof(r2);
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, get_regs(pid, &r));
	ASSERT_EQ(0, getregset(pid, NT_PRSTATUS, &r2, &len));
	EXPECT_EQ(sizeof(r2), len);
	EXPECT_EQ(0, memcmp(&r, &r2, sizeof(r)));
	kill_reap(pid);
}

TEST(regset_prstatus_length_handling)
{
	unsigned long buf[64];
	size_t len;
	pid_t pid = stopped_child(_metadata);

	/* Larger buffers are clamped to the regset size. */
	len = sizeof(buf);
	ASSERT_EQ(0, getregset(pid, NT_PRSTATUS, buf, &len));
	EXPECT_EQ(sizeof(struct user_regs_struct), len);
	/* Shorter ones get a prefix. */
	memset(buf, 0xa5, sizeof(buf));
	len = 16;
	ASSERT_EQ(0, getregset(pid, NT_PRSTATUS, buf, &len));
	EXPECT_EQ(16UL, len);
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5UL, buf[2]);
	/* Lengths must be a multiple of the register size. */
	len = 12;
	EXPECT_EQ(-EINVAL, getregset(pid, NT_PRSTATUS, buf, &len));
	len = 0;
	EXPECT_EQ(0, getregset(pid, NT_PRSTATUS, buf, &len));
	EXPECT_EQ(0UL, len);
	kill_reap(pid);
}

TEST(regset_unknown_type_einval)
{
	char buf[64];
	size_t len = sizeof(buf);
	pid_t pid = stopped_child(_metadata);

	EXPECT_EQ(-EINVAL, getregset(pid, 0x7777, buf, &len));
	len = sizeof(buf);
	EXPECT_EQ(-EINVAL, setregset(pid, 0x7777, buf, &len));
	kill_reap(pid);
}

TEST(setregset_prstatus_reaches_user_mode)
{
	struct user_regs_struct r;
	size_t len = sizeof(r);
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, getregset(pid, NT_PRSTATUS, &r, &len));
	r.rip = (unsigned long)pt_exit_r12;
	r.r12 = 45;
	len = sizeof(r);
	ASSERT_EQ(0, setregset(pid, NT_PRSTATUS, &r, &len));
	EXPECT_EQ(sizeof(r), len);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(45));
}

TEST(regset_prfpreg_matches_getfpregs)
{
	struct user_fpregs_struct fp, fp2;
	char big[1024];
	size_t len = sizeof(big);
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, PTRE(PTRACE_GETFPREGS, pid, 0, &fp));
	ASSERT_EQ(0, getregset(pid, NT_PRFPREG, big, &len));
	EXPECT_EQ(sizeof(fp2), len);
	memcpy(&fp2, big, sizeof(fp2));
	EXPECT_EQ(0, memcmp(&fp, &fp2, 160 + 256));
	kill_reap(pid);
}

TEST(regset_xstate_layout)
{
	static char buf[16384] __attribute__((aligned(64)));
	unsigned int eax, ebx, ecx, edx;
	uint64_t xcr0, xstate_bv;
	size_t len = sizeof(buf);
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, getregset(pid, NT_X86_XSTATE, buf, &len));
	/* Bytes 464..471: the user xfeatures mask (what gdb calls XCR0). */
	memcpy(&xcr0, buf + 464, sizeof(xcr0));
	EXPECT_EQ(3UL, xcr0 & 3);	/* x87 | SSE */
	memcpy(&xstate_bv, buf + 512, sizeof(xstate_bv));
	EXPECT_EQ(0UL, xstate_bv & ~xcr0);
	/* The regset is the non-compacted XSAVE size for those features. */
	asm volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
	EXPECT_EQ((uint64_t)eax | ((uint64_t)edx << 32), xcr0);
	__cpuid_count(0xd, 0, eax, ebx, ecx, edx);
	EXPECT_EQ((size_t)ebx, len);
	/* Writing it back unchanged is accepted. */
	ASSERT_EQ(0, setregset(pid, NT_X86_XSTATE, buf, &len));
	kill_reap(pid);
}

TEST(regset_xstate_xmm_matches_fpregs)
{
	static char buf[16384] __attribute__((aligned(64)));
	struct user_fpregs_struct fp;
	size_t len = sizeof(buf);
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, PTRE(PTRACE_GETFPREGS, pid, 0, &fp));
	fp.xmm_space[4] = 0x600d;
	ASSERT_EQ(0, PTRE(PTRACE_SETFPREGS, pid, 0, &fp));
	ASSERT_EQ(0, getregset(pid, NT_X86_XSTATE, buf, &len));
	/* The legacy area of XSAVE is the FXSAVE image. */
	EXPECT_EQ(0, memcmp(buf + 160, fp.xmm_space, 256));
	kill_reap(pid);
}

static void dr_cleanup(pid_t pid)
{
	PTR(PTRACE_POKEUSER, pid, DR_OFF(7), 0);
}

TEST(debugreg_readback)
{
	unsigned long v;
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid, DR_OFF(0), pt_step_code));
	ASSERT_EQ(0, peek(PTRACE_PEEKUSER, pid, DR_OFF(0), &v));
	EXPECT_EQ((unsigned long)pt_step_code, v);
	ASSERT_EQ(0, peek(PTRACE_PEEKUSER, pid, DR_OFF(7), &v));
	EXPECT_EQ(0UL, v);
	ASSERT_EQ(0, peek(PTRACE_PEEKUSER, pid, DR_OFF(6), &v));
	EXPECT_EQ(DR6_RESERVED, v);
	/* DR4 and DR5 are not accessible. */
	EXPECT_EQ(-EIO, PTRE(PTRACE_POKEUSER, pid, DR_OFF(4), 0));
	kill_reap(pid);
}

/* kernel/ptrace.c's comment says -EIO, the code returns the -EINVAL. */
TEST(debugreg_kernel_address_einval)
{
	pid_t pid = stopped_child(_metadata);

	EXPECT_EQ(-EINVAL, PTRE(PTRACE_POKEUSER, pid, DR_OFF(1),
			     0xffffffff81000000UL));
	kill_reap(pid);
}

TEST(debugreg_dr7_io_breakpoint_einval)
{
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid, DR_OFF(0), &watch_var));
	/* L0 with R/W0 = 10b (I/O) is rejected. */
	EXPECT_EQ(-EINVAL, PTRE(PTRACE_POKEUSER, pid, DR_OFF(7),
				1UL | (2UL << 16)));
	kill_reap(pid);
}

TEST(debugreg_exec_breakpoint_hit)
{
	unsigned long dr6, dr7, rip;
	siginfo_t si;
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid, REG_OFF(rip), pt_step_code));
	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid, DR_OFF(0), pt_step_code + 7));
	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid, DR_OFF(7), 1));
	ASSERT_EQ(0, peek(PTRACE_PEEKUSER, pid, DR_OFF(7), &dr7));
	EXPECT_EQ(1UL, dr7);
	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGTRAP));
	ASSERT_EQ(0, peek(PTRACE_PEEKUSER, pid, REG_OFF(rip), &rip));
	EXPECT_EQ((unsigned long)pt_step_code + 7, rip);
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SIGTRAP, si.si_signo);
	EXPECT_EQ(TRAP_HWBKPT, si.si_code);
	EXPECT_EQ((void *)(pt_step_code + 7), si.si_addr);
	ASSERT_EQ(0, peek(PTRACE_PEEKUSER, pid, DR_OFF(6), &dr6));
	EXPECT_EQ(DR6_RESERVED | 1, dr6);
	/* Resuming does not re-trigger on the same instruction. */
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0x79));
}

static int body_write_watch(void *arg)
{
	(void)arg;
	watch_var = 0x5a;
	return watch_var == 0x5a ? 8 : 9;
}

TEST(debugreg_write_watchpoint_hit)
{
	unsigned long dr6, v;
	pid_t pid = traceme_child(_metadata, body_write_watch, NULL);

	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid, DR_OFF(1), &watch_var));
	/* L1, R/W1 = 01 (write), LEN1 = 11 (8 bytes). */
	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid, DR_OFF(7),
			  (1UL << 2) | (1UL << 20) | (3UL << 22)));
	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGTRAP));
	EXPECT_EQ(TRAP_HWBKPT, stop_si_code(_metadata, pid));
	ASSERT_EQ(0, peek(PTRACE_PEEKUSER, pid, DR_OFF(6), &dr6));
	EXPECT_EQ(DR6_RESERVED | 2, dr6);
	/* A data breakpoint traps after the write. */
	ASSERT_EQ(0, peek(PTRACE_PEEKDATA, pid, (unsigned long)&watch_var, &v));
	EXPECT_EQ(0x5aUL, v);
	dr_cleanup(pid);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(8));
}

static int body_read_watch(void *arg)
{
	(void)arg;
	return watch_var == 0 ? 10 : 11;
}

TEST(debugreg_write_watchpoint_ignores_reads)
{
	pid_t pid = traceme_child(_metadata, body_read_watch, NULL);

	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid, DR_OFF(1), &watch_var));
	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid, DR_OFF(7),
			  (1UL << 2) | (1UL << 20) | (3UL << 22)));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(10));
}

TEST(debugreg_rw_watchpoint_hits_reads)
{
	unsigned long dr6;
	pid_t pid = traceme_child(_metadata, body_read_watch, NULL);

	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid, DR_OFF(2), &watch_var));
	/* L2, R/W2 = 11 (read/write), LEN2 = 11. */
	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid, DR_OFF(7),
			  (1UL << 4) | (3UL << 24) | (3UL << 26)));
	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGTRAP));
	ASSERT_EQ(0, peek(PTRACE_PEEKUSER, pid, DR_OFF(6), &dr6));
	EXPECT_EQ(DR6_RESERVED | 4, dr6);
	dr_cleanup(pid);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(10));
}

TEST(arch_prctl_get_fs_matches_regs)
{
	struct user_regs_struct r;
	unsigned long fs = 0;
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, get_regs(pid, &r));
	ASSERT_EQ(0, PTRE(PTRACE_ARCH_PRCTL, pid, &fs, ARCH_GET_FS));
	EXPECT_EQ(r.fs_base, fs);
	EXPECT_NE(0UL, fs);
	kill_reap(pid);
}

TEST(arch_prctl_set_gs_visible_in_regs)
{
	struct user_regs_struct r;
	unsigned long gs = 0;
	pid_t pid = stopped_child(_metadata);

	ASSERT_EQ(0, PTRE(PTRACE_ARCH_PRCTL, pid, 0x12345000, ARCH_SET_GS));
	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(0x12345000UL, r.gs_base);
	ASSERT_EQ(0, PTRE(PTRACE_ARCH_PRCTL, pid, &gs, ARCH_GET_GS));
	EXPECT_EQ(0x12345000UL, gs);
	kill_reap(pid);
}

TEST(arch_prctl_errors)
{
	pid_t pid = stopped_child(_metadata);

	EXPECT_EQ(-EINVAL, PTRE(PTRACE_ARCH_PRCTL, pid, 0, 0x7777));
	EXPECT_EQ(-EPERM, PTRE(PTRACE_ARCH_PRCTL, pid, 0xffff800000000000UL,
			       ARCH_SET_FS));
	kill_reap(pid);
}

/* Syscall rewriting: body_getppid_expect() checks getppid's result. */
static pid_t at_getppid_entry(struct __test_metadata *_metadata, long mode,
			      struct user_regs_struct *r)
{
	pid_t pid = traceme_child(_metadata, body_getppid_expect, (void *)mode);

	EXPECT_EQ(0, PTRE(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD));
	EXPECT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, 0));
	EXPECT_EQ(ST_SYSCALL, wstat(pid, 0));
	EXPECT_EQ(0, get_regs(pid, r));
	EXPECT_EQ(SYS_getppid, (long)r->orig_rax);
	return pid;
}

TEST(change_syscall_number_at_entry)
{
	struct user_regs_struct r;
	pid_t pid = at_getppid_entry(_metadata, 1, &r);

	r.orig_rax = SYS_getpid;
	ASSERT_EQ(0, set_regs(pid, &r));
	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	expect_syscall_regs(_metadata, pid, &r, SYS_getpid, pid);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(skip_syscall_keeps_tracer_rax)
{
	struct user_regs_struct r;
	pid_t pid = at_getppid_entry(_metadata, 2, &r);

	r.orig_rax = -1;
	r.rax = 77;
	ASSERT_EQ(0, set_regs(pid, &r));
	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	expect_syscall_regs(_metadata, pid, &r, -1, 77);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(skip_syscall_default_enosys)
{
	struct user_regs_struct r;
	pid_t pid = at_getppid_entry(_metadata, 3, &r);

	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid, REG_OFF(orig_rax), -1L));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(change_return_value_at_exit)
{
	struct user_regs_struct r;
	pid_t pid = at_getppid_entry(_metadata, 4, &r);

	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid, REG_OFF(rax), -EPERM));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

static int body_exit_group_1(void *arg)
{
	(void)arg;
	syscall(SYS_exit_group, 1);
	return 2;
}

TEST(change_syscall_argument_at_entry)
{
	struct user_regs_struct r;
	pid_t pid = traceme_child(_metadata, body_exit_group_1, NULL);

	resume_regs(_metadata, pid, PTRACE_SYSCALL, 0, ST_STOPPED(SIGTRAP), &r);
	ASSERT_EQ(SYS_exit_group, (long)r.orig_rax);
	EXPECT_EQ(1UL, r.rdi);
	r.rdi = 23;
	cont_with_regs(_metadata, pid, &r, ST_EXITED(23));
}

static int open_mem(pid_t pid, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	return open(path, flags);
}

TEST(proc_mem_read_traced_child)
{
	unsigned long v = 0;
	int fd;
	pid_t pid = fork_child();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		target_var = 0x77770000UL + getpid();
		child_traceme_stop();
		_exit(0);
	}
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, 0));
	fd = open_mem(pid, O_RDONLY);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(sizeof(v), pread(fd, &v, sizeof(v), (off_t)&target_var));
	EXPECT_EQ(0x77770000UL + pid, v);
	/* Unmapped: EIO. */
	EXPECT_EQ(-1, pread(fd, &v, sizeof(v), 0));
	EXPECT_EQ(EIO, errno);
	close(fd);
	kill_reap(pid);
}

TEST(proc_mem_write_readonly_mapping)
{
	unsigned long v = 6;
	int fd;
	pid_t pid = traceme_child(_metadata, body_check_ro, NULL);

	fd = open_mem(pid, O_RDWR);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(sizeof(v), pwrite(fd, &v, sizeof(v), (off_t)&ro_var));
	close(fd);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

/* int $0x80 from a 64-bit process is a 32-bit syscall (TS_COMPAT). */
static int body_int80_getpid(void *arg)
{
	long ret;

	(void)arg;
	asm volatile("int $0x80" : "=a"(ret) : "a"(20L) /* i386 getpid */
		     : "memory", "r8", "r9", "r10", "r11");
	return ret == getpid() ? 0 : 1;
}

TEST(int80_from_64bit_process_is_i386_syscall)
{
	struct ptrace_syscall_info info;
	struct user_regs_struct r;
	pid_t pid = traceme_child_opts(_metadata, body_int80_getpid, NULL, PTRACE_O_TRACESYSGOOD);

	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	ASSERT_EQ(80, PTRE(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), &info));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_ENTRY, info.op);
	EXPECT_EQ(AUDIT_ARCH_I386, info.arch);
	EXPECT_EQ(20ULL, info.entry.nr);
	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(20L, (long)r.orig_rax);
	EXPECT_EQ(0x33UL, r.cs);
	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	ASSERT_EQ(33, PTRE(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), &info));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_EXIT, info.op);
	EXPECT_EQ(AUDIT_ARCH_I386, info.arch);
	EXPECT_EQ(pid, info.exit.rval);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

/*
 * A 64-bit tracer and a 32-bit tracee: compat_32 (built from compat.c next
 * to this program) is exec'd and stopped at its exec event.
 */
static int compat_path(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 16);
	char *slash;

	if (n <= 0)
		return -1;
	buf[n] = 0;
	slash = strrchr(buf, '/');
	if (!slash)
		return -1;
	strcpy(slash + 1, "compat_32");
	return access(buf, X_OK);
}

static char compat_exe[4096];

static int body_exec_compat(void *arg)
{
	(void)arg;
	execl(compat_exe, "compat_32", "--exit", "7", NULL);
	return 99;
}

/* A 32-bit tracee stopped at its exec event. */
static pid_t spawn_compat(struct __test_metadata *_metadata)
{
	pid_t pid = traceme_child(_metadata, body_exec_compat, NULL);

	EXPECT_EQ(0, PTRE(PTRACE_SETOPTIONS, pid, 0,
			  PTRACE_O_TRACEEXEC | PTRACE_O_TRACESYSGOOD));
	EXPECT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EVENT(PTRACE_EVENT_EXEC), wstat(pid, 0));
	return pid;
}

FIXTURE(ia32) {
	pid_t pid;
};

FIXTURE_SETUP(ia32)
{
	fixture_tie_to_parent();
	self->pid = -1;
	if (compat_path(compat_exe, sizeof(compat_exe)))
		SKIP(return, "compat_32 is not built next to this program");
	self->pid = spawn_compat(_metadata);
}

FIXTURE_TEARDOWN(ia32)
{
	kill_reap(self->pid);
}

TEST_F(ia32, getregs_uses_64bit_layout)
{
	struct user_regs_struct r;

	ASSERT_EQ(0, get_regs(self->pid, &r));
	EXPECT_EQ(0x23UL, r.cs);
	EXPECT_EQ(0x2bUL, r.ss);
	EXPECT_EQ(0UL, r.rip >> 32);
	EXPECT_EQ(11L, (long)r.orig_rax);	/* i386 execve */
}

TEST_F(ia32, regset_prstatus_uses_tracee_view)
{
	char buf[512];
	size_t len = sizeof(buf);

	/* The regset view follows the tracee's mode: 17 32-bit registers. */
	ASSERT_EQ(0, getregset(self->pid, NT_PRSTATUS, buf, &len));
	EXPECT_EQ(68UL, len);
	len = sizeof(buf);
	ASSERT_EQ(0, getregset(self->pid, NT_PRFPREG, buf, &len));
	EXPECT_EQ(108UL, len);
}

static void to_execve_exit(struct __test_metadata *_metadata, pid_t pid)
{
	struct ptrace_syscall_info info;

	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	ASSERT_EQ(33, PTRE(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), &info));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_EXIT, info.op);
	EXPECT_EQ(AUDIT_ARCH_I386, info.arch);
	EXPECT_EQ(0, info.exit.rval);
}

TEST_F(ia32, syscall_info_arch_i386)
{
	struct ptrace_syscall_info info;
	struct user_regs_struct r;

	to_execve_exit(_metadata, self->pid);
	resume_assert(_metadata, self->pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	ASSERT_EQ(80, PTRE(PTRACE_GET_SYSCALL_INFO, self->pid, sizeof(info),
			   &info));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_ENTRY, info.op);
	EXPECT_EQ(AUDIT_ARCH_I386, info.arch);
	ASSERT_EQ(0, get_regs(self->pid, &r));
	EXPECT_EQ(r.orig_rax, info.entry.nr);
	EXPECT_EQ(r.rbx & 0xffffffff, info.entry.args[0]);
	EXPECT_EQ(-ENOSYS, (long)r.rax);
	resume_expect(_metadata, self->pid, PTRACE_CONT, 0, ST_EXITED(7));
	self->pid = -1;
}

TEST_F(ia32, change_syscall_arg_from_64bit_tracer)
{
	struct user_regs_struct r;
	int i, st;

	to_execve_exit(_metadata, self->pid);
	/* Run to exit_group's entry, alternating entry and exit stops. */
	for (i = 0; i < 400; i++) {
		resume_regs(_metadata, self->pid, PTRACE_SYSCALL, 0, ST_SYSCALL, &r);
		if (i % 2 == 0) {
			ASSERT_EQ(-ENOSYS, (long)r.rax);
			if (r.orig_rax == 252)		/* i386 exit_group */
				break;
		}
	}
	ASSERT_EQ(252UL, r.orig_rax);
	EXPECT_EQ(7UL, r.rbx);
	r.rbx = 8;
	ASSERT_EQ(0, set_regs(self->pid, &r));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, self->pid, 0, 0));
	st = wstat(self->pid, 0);
	EXPECT_EQ(ST_EXITED(8), st);
	self->pid = -1;
}

TEST_HARNESS_MAIN
