// SPDX-License-Identifier: GPL-2.0-only
/*
 * Resume requests: PTRACE_CONT, SYSCALL, SINGLESTEP, SINGLEBLOCK, SYSEMU,
 * SYSEMU_SINGLESTEP, KILL, INTERRUPT, LISTEN, resuming with a signal and
 * resuming a task that is not stopped.
 */
#include "ptrace_util.h"

static volatile sig_atomic_t got_sig;
static volatile siginfo_t got_info;

static void handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	memcpy((void *)&got_info, si, sizeof(*si));
}

static void install(int sig)
{
	struct sigaction sa = { .sa_sigaction = handler, .sa_flags = SA_SIGINFO };

	sigaction(sig, &sa, NULL);
}

/* Child: handler for SIGUSR1, TRACEME, stop; exit 0 iff SIGUSR1 was handled. */
static int body_expect_usr1(void *arg)
{
	(void)arg;
	return got_sig == SIGUSR1 ? 0 : 1;
}

/* Like traceme_child(fn, NULL), with handlers for SIGUSR1 and SIGUSR2. */
static pid_t spawn_usr1_handler(struct __test_metadata *_metadata,
				child_fn fn)
{
	pid_t pid = fork_child();

	if (pid == 0) {
		install(SIGUSR1);
		install(SIGUSR2);
		child_traceme_stop();
		_exit(fn(NULL));
	}
	if (pid > 0 && wstat(pid, 0) != ST_STOPPED(SIGSTOP)) {
		kill_reap(pid);
		pid = -1;
	}
	ASSERT_GT(pid, 0);
	return pid;
}

TEST(cont_with_signal_runs_handler)
{
	pid_t pid = spawn_usr1_handler(_metadata, body_expect_usr1);

	resume_expect(_metadata, pid, PTRACE_CONT, SIGUSR1, ST_EXITED(0));
}

static int body_self_usr1(void *arg)
{
	(void)arg;
	kill(getpid(), SIGUSR1);
	return got_sig;
}

TEST(cont_zero_suppresses_signal)
{
	pid_t pid = spawn_usr1_handler(_metadata, body_self_usr1);

	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGUSR1));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(cont_replaces_signal)
{
	pid_t pid = spawn_usr1_handler(_metadata, body_self_usr1);

	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGUSR1));
	resume_expect(_metadata, pid, PTRACE_CONT, SIGUSR2, ST_EXITED(SIGUSR2));
}

TEST(cont_invalid_signal_eio)
{
	pid_t pid = traceme_child(_metadata, NULL, NULL);

	EXPECT_EQ(-EIO, PTRE(PTRACE_CONT, pid, 0, _NSIG + 1));
	EXPECT_EQ(-EIO, PTRE(PTRACE_SYSCALL, pid, 0, -1L));
	EXPECT_EQ(-EIO, PTRE(PTRACE_SINGLESTEP, pid, 0, 1000));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(resume_running_tracee_esrch)
{
	pid_t pid = seized_child(_metadata, body_pause, NULL, 0);

	EXPECT_EQ(-ESRCH, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_SYSCALL, pid, 0, 0));
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_SINGLESTEP, pid, 0, 0));
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_SYSEMU, pid, 0, 0));
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_LISTEN, pid, 0, 0));
	kill_reap(pid);
}

TEST(resume_after_cont_esrch)
{
	pid_t pid = spawn_usr1_handler(_metadata, body_expect_usr1);

	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	/* Running (or already exited): a second resume is refused. */
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(1), wstat(pid, 0));
}

static int body_getppid(void *arg)
{
	long r;

	(void)arg;
	r = syscall(SYS_getppid);
	return r == getppid() ? 0 : 1;
}

/*
 * PTRACE_SYSCALL to the next stop of body_getppid(): asserts status, then
 * expects getppid's number and -ENOSYS (entry) or its result (exit).
 */
static void syscall_stop(struct __test_metadata *_metadata, pid_t pid,
			 int status, bool entry)
{
	struct user_regs_struct r;

	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, status);
	expect_syscall_regs(_metadata, pid, &r, SYS_getppid,
			    entry ? -ENOSYS : getpid());
}

TEST(syscall_stops_without_sysgood)
{
	pid_t pid = traceme_child(_metadata, body_getppid, NULL);

	syscall_stop(_metadata, pid, ST_STOPPED(SIGTRAP), true);
	syscall_stop(_metadata, pid, ST_STOPPED(SIGTRAP), false);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(syscall_stops_with_sysgood)
{
	pid_t pid = traceme_child_opts(_metadata, body_getppid, NULL,
				       PTRACE_O_TRACESYSGOOD);

	syscall_stop(_metadata, pid, ST_SYSCALL, true);
	syscall_stop(_metadata, pid, ST_SYSCALL, false);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

static void check_sysstop_siginfo(struct __test_metadata *_metadata,
				  bool sysgood)
{
	siginfo_t si;
	pid_t pid = traceme_child(_metadata, body_getppid, NULL);

	if (sysgood)
		ASSERT_EQ(0, PTRE(PTRACE_SETOPTIONS, pid, 0,
				  PTRACE_O_TRACESYSGOOD));
	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0,
		      sysgood ? ST_SYSCALL : ST_STOPPED(SIGTRAP));
	expect_siginfo(_metadata, pid, &si, SIGTRAP,
		       sysgood ? (SIGTRAP | 0x80) : SIGTRAP, pid);
	EXPECT_EQ(0, (int)si.si_uid);
	kill_reap(pid);
}

TEST(syscall_stop_siginfo_sysgood)
{
	check_sysstop_siginfo(_metadata, true);
}

TEST(syscall_stop_siginfo_plain)
{
	check_sysstop_siginfo(_metadata, false);
}

static int body_getppid_usr1(void *arg)
{
	long r;

	(void)arg;
	r = syscall(SYS_getppid);
	if (r != getppid())
		return 2;
	return got_sig == SIGUSR1 ? 0 : 1;
}

/*
 * spawn_usr1_handler(body_getppid_usr1), asserts PTRACE_O_TRACESYSGOOD and
 * PTRACE_SYSCALL to getppid's entry stop.
 */
static pid_t usr1_handler_at_entry(struct __test_metadata *_metadata)
{
	pid_t pid = spawn_usr1_handler(_metadata, body_getppid_usr1);

	ASSERT_EQ(0, PTRE(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD));
	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	return pid;
}

TEST(syscall_entry_resume_with_signal_queues_it)
{
	siginfo_t si;
	pid_t pid = usr1_handler_at_entry(_metadata);

	ASSERT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, SIGUSR1));
	/* The syscall still completes and reports its exit first. */
	ASSERT_EQ(ST_SYSCALL, wstat(pid, 0));
	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGUSR1));
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SIGUSR1, si.si_signo);
	EXPECT_EQ(SI_KERNEL, si.si_code);
	resume_expect(_metadata, pid, PTRACE_CONT, SIGUSR1, ST_EXITED(0));
}

static int body_sysemu(void *arg)
{
	long r;

	(void)arg;
	r = syscall(SYS_getppid);
	return r == 1234 ? 0 : 1;
}

TEST(sysemu_skips_syscall)
{
	struct user_regs_struct r;
	pid_t pid = traceme_child_opts(_metadata, body_sysemu, NULL, PTRACE_O_TRACESYSGOOD);

	resume_assert(_metadata, pid, PTRACE_SYSEMU, 0, ST_SYSCALL);
	expect_syscall_regs(_metadata, pid, &r, SYS_getppid, -ENOSYS);
	r.rax = 1234;
	ASSERT_EQ(0, set_regs(pid, &r));
	ASSERT_EQ(0, PTRE(PTRACE_SYSEMU, pid, 0, 0));
	/* No exit stop: the next stop is exit_group's entry. */
	ASSERT_EQ(ST_SYSCALL, wstat(pid, 0));
	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(SYS_exit_group, (long)r.orig_rax);
	EXPECT_EQ(0, (long)r.rdi);
	/* That syscall is skipped too: rewind to run it again. */
	rerun_syscall(_metadata, pid, &r, ST_EXITED(0));
}

TEST(sysemu_cont_still_skips_reported_syscall)
{
	struct user_regs_struct r;
	pid_t pid = traceme_child(_metadata, body_sysemu, NULL);

	resume_regs(_metadata, pid, PTRACE_SYSEMU, 0, ST_STOPPED(SIGTRAP), &r);
	ASSERT_EQ(SYS_getppid, (long)r.orig_rax);
	r.rax = 1234;
	ASSERT_EQ(0, set_regs(pid, &r));
	/* Resuming with CONT does not un-skip the emulated syscall. */
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(singlestep_sequence)
{
	static const int offs[] = { 1, 2, 7, 9, 13, 14 };
	pid_t pid = traceme_child_at(_metadata, pt_step_code, 0);

	expect_step_sequence(_metadata, pid, pt_step_code, offs, ARRAY_SIZE(offs));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0x79));
}

TEST(singlestep_siginfo)
{
	siginfo_t si;
	pid_t pid = traceme_child_at(_metadata, pt_step_code, 0);

	resume_assert(_metadata, pid, PTRACE_SINGLESTEP, 0, ST_STOPPED(SIGTRAP));
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SIGTRAP, si.si_signo);
	EXPECT_EQ(TRAP_TRACE, si.si_code);
	EXPECT_EQ((void *)(pt_step_code + 1), si.si_addr);
	kill_reap(pid);
}

TEST(singlestep_hides_forced_tf)
{
	struct user_regs_struct r;
	pid_t pid = traceme_child_at(_metadata, pt_step_code, 0);

	resume_regs(_metadata, pid, PTRACE_SINGLESTEP, 0, ST_STOPPED(SIGTRAP), &r);
	EXPECT_EQ(0, r.eflags & 0x100);
	/* Continuing clears the step: the tracee runs to its exit. */
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0x79));
}

TEST(singlestep_over_syscall)
{
	struct user_regs_struct r;
	siginfo_t si;
	pid_t pid = traceme_child_at(_metadata, pt_syscall_insn, SYS_getppid);

	resume_regs(_metadata, pid, PTRACE_SINGLESTEP, 0, ST_STOPPED(SIGTRAP), &r);
	EXPECT_EQ((unsigned long)pt_syscall_insn + 2, r.rip);
	EXPECT_EQ(getpid(), (long)r.rax);
	EXPECT_EQ(SYS_getppid, (long)r.orig_rax);
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SIGTRAP, si.si_signo);
	EXPECT_EQ(TRAP_BRKPT, si.si_code);
	kill_reap(pid);
}

TEST(singlestep_over_syscall_with_syscall_tracing)
{
	struct user_regs_struct r;
	pid_t pid = traceme_child_opts(_metadata, body_pause, NULL, PTRACE_O_TRACESYSGOOD);

	set_ip(_metadata, pid, pt_syscall_insn, SYS_getppid);
	/* PTRACE_SYSCALL reports the entry... */
	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	/* ...a SINGLESTEP from there gets the step trap, not the exit stop. */
	resume_regs(_metadata, pid, PTRACE_SINGLESTEP, 0, ST_STOPPED(SIGTRAP), &r);
	EXPECT_EQ((unsigned long)pt_syscall_insn + 2, r.rip);
	EXPECT_EQ(getpid(), (long)r.rax);
	kill_reap(pid);
}

TEST(singlestep_into_signal_handler)
{
	siginfo_t si;
	pid_t pid = spawn_usr1_handler(_metadata, body_pause);

	resume_assert(_metadata, pid, PTRACE_SINGLESTEP, SIGUSR1, ST_STOPPED(SIGTRAP));
	EXPECT_EQ((unsigned long)handler, get_ip(pid));
	expect_siginfo(_metadata, pid, &si, SIGTRAP, SIGTRAP, pid);
	kill_reap(pid);
}

/* jmp at pt_step_code+9 goes to +13; a block step from +7 lands there. */
TEST(singleblock_stops_at_branch_target)
{
	struct user_regs_struct r;
	unsigned long rip;
	pid_t pid = traceme_child_at(_metadata, pt_step_code, 0);

	resume_assert(_metadata, pid, PTRACE_SINGLEBLOCK, 0, ST_STOPPED(SIGTRAP));
	rip = get_ip(pid);
	if (rip == (unsigned long)pt_step_code + 1) {
		kill_reap(pid);
		SKIP(return, "CPU/emulator does not implement DEBUGCTL.BTF (block step acted as single step)");
	}
	EXPECT_EQ((unsigned long)pt_step_code + 13, rip);
	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(0x12345679UL, r.rax & 0xffffffff);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0x79));
}

TEST(sysemu_singlestep_steps_and_emulates)
{
	struct user_regs_struct r;
	pid_t pid = traceme_child_opts(_metadata, body_pause, NULL, PTRACE_O_TRACESYSGOOD);

	set_ip(_metadata, pid, pt_step_code + 13, 0);
	/* nop, mov: plain step traps. */
	resume_assert(_metadata, pid, PTRACE_SYSEMU_SINGLESTEP, 0, ST_STOPPED(SIGTRAP));
	EXPECT_EQ((unsigned long)pt_step_code + 14, get_ip(pid));
	resume_assert(_metadata, pid, PTRACE_SYSEMU_SINGLESTEP, 0, ST_STOPPED(SIGTRAP));
	resume_assert(_metadata, pid, PTRACE_SYSEMU_SINGLESTEP, 0, ST_STOPPED(SIGTRAP));
	EXPECT_EQ((unsigned long)pt_step_code + 21, get_ip(pid));
	/* The exit syscall is reported at entry and not executed. */
	resume_regs(_metadata, pid, PTRACE_SYSEMU_SINGLESTEP, 0, ST_SYSCALL, &r);
	EXPECT_EQ(SYS_exit, (long)r.orig_rax);
	EXPECT_EQ((unsigned long)pt_step_code + 23, r.rip);
	/* Redirect to exit(r12) and let it run normally. */
	r.rip = (unsigned long)pt_exit_r12;
	r.r12 = 33;
	cont_with_regs(_metadata, pid, &r, ST_EXITED(33));
}

TEST(kill_at_syscall_stop)
{
	pid_t pid = traceme_child(_metadata, body_getppid, NULL);

	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_STOPPED(SIGTRAP));
	resume_expect(_metadata, pid, PTRACE_KILL, 0, ST_KILLED(SIGKILL));
}

TEST(interrupt_running_event_stop)
{
	siginfo_t si;
	pid_t pid = interrupted_child(_metadata, body_pause, NULL, 0);

	expect_siginfo(_metadata, pid, &si, SIGTRAP, SIGTRAP | (PTRACE_EVENT_STOP << 8), pid);
	EXPECT_EQ(0, (int)si.si_uid);
	kill_reap(pid);
}

TEST(interrupt_twice_one_stop)
{
	pid_t pid = seized_child(_metadata, body_pause, NULL, 0);

	ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, pid, 0, 0));
	interrupt_stop(_metadata, pid);
	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	kill_reap(pid);
}

TEST(interrupt_while_stopped_traps_after_resume)
{
	pid_t pid = interrupted_child(_metadata, body_pause, NULL, 0);

	ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, pid, 0, 0));
	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EVENT(PTRACE_EVENT_STOP));
	kill_reap(pid);
}

TEST(signal_injected_at_interrupt_stop_is_ignored)
{
	int fds[2];
	pid_t pid = piped_child(_metadata, body_wait_pipe, fds);

	seize_interrupt(_metadata, pid, 0);
	resume_release_expect(_metadata, pid, PTRACE_CONT, SIGUSR1, fds, ST_EXITED(42));
}

/*
 * Asserts pipe(fds); a body_wait_pipe child on fds[0] is SEIZEd and taken
 * through SIGSTOP -> signal-delivery-stop -> group-stop (EVENT_STOP);
 * asserts that it got there (pid > 0).
 */
static pid_t seize_group_stopped(struct __test_metadata *_metadata,
				 int fds[2])
{
	pid_t pid;

	ASSERT_EQ(0, pipe(fds));
	pid = spawn(body_wait_pipe, (void *)(long)fds[0]);
	if (pid > 0 &&
	    (PTRE(PTRACE_SEIZE, pid, 0, 0) || kill(pid, SIGSTOP) ||
	     wstat(pid, 0) != ST_STOPPED(SIGSTOP) ||
	     PTRE(PTRACE_CONT, pid, 0, SIGSTOP) ||
	     wstat(pid, 0) != ST_GROUPSTOP(SIGSTOP))) {
		kill_reap(pid);
		TH_LOG("could not reach group-stop");
		pid = -1;
	}
	ASSERT_GT(pid, 0);
	return pid;
}

TEST(listen_then_sigcont_reports_event_stop)
{
	int fds[2];
	pid_t pid = seize_group_stopped(_metadata, fds);

	ASSERT_EQ(0, PTRE(PTRACE_LISTEN, pid, 0, 0));
	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	ASSERT_EQ(0, kill(pid, SIGCONT));
	/* Group stop ended: re-trap with SIGTRAP, then SIGCONT's delivery. */
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat(pid, 0));
	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGCONT));
	resume_release_expect(_metadata, pid, PTRACE_CONT, 0, fds, ST_EXITED(42));
}

TEST(listen_keeps_tracee_stopped)
{
	int fds[2];
	pid_t pid = seize_group_stopped(_metadata, fds);

	ASSERT_EQ(0, PTRE(PTRACE_LISTEN, pid, 0, 0));
	/* The listener is not "stopped" for ptrace requests... */
	EXPECT_EQ(-ESRCH, PTRE(PTRACE_GETSIGINFO, pid, 0, &(siginfo_t){}));
	/* ...but it does not run either: it cannot read the pipe. */
	ASSERT_EQ(0, pipe_write_byte(fds[1], 'x'));
	EXPECT_TRUE(wait_task_state(pid, pid, 't', 2000));
	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	/* INTERRUPT re-traps a listening tracee, still in group-stop. */
	ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, pid, 0, 0));
	ASSERT_EQ(ST_GROUPSTOP(SIGSTOP), wstat(pid, 0));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(42));
}

TEST(listen_at_signal_stop_eio)
{
	pid_t pid = seized_child(_metadata, body_pause, NULL, 0);

	ASSERT_EQ(0, kill(pid, SIGUSR1));
	ASSERT_EQ(ST_STOPPED(SIGUSR1), wstat(pid, 0));
	EXPECT_EQ(-EIO, PTRE(PTRACE_LISTEN, pid, 0, 0));
	kill_reap(pid);
}

TEST(listen_at_interrupt_stop_then_interrupt)
{
	pid_t pid = interrupted_child(_metadata, body_pause, NULL, 0);

	ASSERT_EQ(0, PTRE(PTRACE_LISTEN, pid, 0, 0));
	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, pid, 0, 0));
	EXPECT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat(pid, 0));
	kill_reap(pid);
}

TEST(cont_from_group_stop_runs_tracee)
{
	int fds[2];
	pid_t pid = seize_group_stopped(_metadata, fds);

	resume_release_expect(_metadata, pid, PTRACE_CONT, 0, fds, ST_EXITED(42));
}

TEST(sigcont_during_group_stop_trap)
{
	int fds[2];
	pid_t pid = seize_group_stopped(_metadata, fds);

	/* Not listening: SIGCONT does not wake the trapped tracee. */
	ASSERT_EQ(0, kill(pid, SIGCONT));
	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_EVENT(PTRACE_EVENT_STOP));
	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGCONT));
	resume_release_expect(_metadata, pid, PTRACE_CONT, 0, fds, ST_EXITED(42));
}

/*
 * An ATTACHed piped_child(body_wait_pipe) taken from its SIGSTOP stop into
 * a group-stop by injecting SIGSTOP: asserts that the group-stop reports
 * the plain SIGSTOP status again (ATTACH mode).
 */
static pid_t attach_group_stopped(struct __test_metadata *_metadata,
				  int fds[2])
{
	pid_t pid = piped_child(_metadata, body_wait_pipe, fds);

	attach_stop(_metadata, pid);
	resume_assert(_metadata, pid, PTRACE_CONT, SIGSTOP, ST_STOPPED(SIGSTOP));
	return pid;
}

TEST(attach_mode_group_stop_plain_status)
{
	int fds[2];
	pid_t pid = attach_group_stopped(_metadata, fds);

	/* No siginfo at a group-stop in ATTACH mode. */
	EXPECT_EQ(-EINVAL, PTRE(PTRACE_GETSIGINFO, pid, 0, &(siginfo_t){}));
	resume_release_expect(_metadata, pid, PTRACE_CONT, 0, fds, ST_EXITED(42));
}

TEST(attach_mode_group_stop_injected_signal_ignored)
{
	int fds[2];
	pid_t pid = attach_group_stopped(_metadata, fds);

	/* Resuming a group-stop with a signal does not deliver it. */
	resume_release_expect(_metadata, pid, PTRACE_CONT, SIGTERM, fds, ST_EXITED(42));
}

TEST(syscall_exit_resume_with_signal_delivers)
{
	pid_t pid = usr1_handler_at_entry(_metadata);

	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, SIGUSR1));
	/* Queued by the syscall-exit report, then a signal-delivery-stop. */
	ASSERT_EQ(ST_STOPPED(SIGUSR1), wstat(pid, 0));
	resume_expect(_metadata, pid, PTRACE_CONT, SIGUSR1, ST_EXITED(0));
}

/*
 * Syscall restart as a tracer sees it: a blocked syscall interrupted by a
 * ptrace stop shows the kernel-internal -ERESTART* value in rax.
 */
#define ERESTARTSYS		512
#define ERESTARTNOHAND		514
#define ERESTART_RESTARTBLOCK	516

static int body_one_pause(void *arg)
{
	long r;

	(void)arg;
	r = syscall(SYS_pause);
	return (r == -1 && errno == ERESTARTNOHAND) ? 0 : 1;
}

static int body_nanosleep(void *arg)
{
	struct timespec ts = { 1000, 0 };

	(void)arg;
	syscall(SYS_nanosleep, &ts, NULL);
	return 0;
}

static int body_read_pipe(void *arg)
{
	char c;

	return syscall(SYS_read, (int)(long)arg, &c, 1) == 1 ? 42 : 1;
}

/*
 * An untraced child running fn(arg) (asserts pid > 0) that, once asleep, is
 * SEIZEd and INTERRUPTed and has its registers read into *r; these steps
 * are only EXPECTed.
 */
static pid_t seize_blocked(struct __test_metadata *_metadata, child_fn fn,
			   void *arg, struct user_regs_struct *r)
{
	pid_t pid = spawn(fn, arg);

	ASSERT_GT(pid, 0);
	EXPECT_TRUE(wait_task_state(pid, pid, 'S', 5000));
	EXPECT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, PTRACE_O_TRACESYSGOOD));
	EXPECT_EQ(0, PTRE(PTRACE_INTERRUPT, pid, 0, 0));
	EXPECT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat(pid, 0));
	EXPECT_EQ(0, get_regs(pid, r));
	return pid;
}

TEST(interrupted_pause_shows_erestartnohand)
{
	struct user_regs_struct r, r2;
	pid_t pid = seize_blocked(_metadata, body_one_pause, NULL, &r);

	EXPECT_EQ(SYS_pause, (long)r.orig_rax);
	EXPECT_EQ(-ERESTARTNOHAND, (long)r.rax);
	/* Resumed, the same syscall is entered again at the same place. */
	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	expect_syscall_regs(_metadata, pid, &r2, SYS_pause, -ENOSYS);
	EXPECT_EQ(r.rip, r2.rip);
	kill_reap(pid);
}

TEST(interrupted_nanosleep_uses_restart_syscall)
{
	struct user_regs_struct r;
	pid_t pid = seize_blocked(_metadata, body_nanosleep, NULL, &r);

	EXPECT_EQ(SYS_nanosleep, (long)r.orig_rax);
	EXPECT_EQ(-ERESTART_RESTARTBLOCK, (long)r.rax);
	resume_regs(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL, &r);
	EXPECT_EQ(SYS_restart_syscall, (long)r.orig_rax);
	kill_reap(pid);
}

TEST(interrupted_read_shows_erestartsys)
{
	struct user_regs_struct r;
	int fds[2];
	pid_t pid;

	ASSERT_EQ(0, pipe(fds));
	pid = seize_blocked(_metadata, body_read_pipe, (void *)(long)fds[0],
			    &r);
	EXPECT_EQ(SYS_read, (long)r.orig_rax);
	EXPECT_EQ(-ERESTARTSYS, (long)r.rax);
	resume_release_expect(_metadata, pid, PTRACE_CONT, 0, fds, ST_EXITED(42));
}

TEST(restart_suppressed_by_orig_rax_minus_one)
{
	struct user_regs_struct r;
	pid_t pid = seize_blocked(_metadata, body_one_pause, NULL, &r);

	r.orig_rax = -1;
	ASSERT_EQ(0, set_regs(pid, &r));
	/* No restart: the internal error code reaches user space. */
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(interrupted_pause_with_handler_eintr)
{
	struct user_regs_struct r;
	pid_t pid = fork_child();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		long ret;

		install(SIGUSR1);
		ret = syscall(SYS_pause);
		_exit((ret == -1 && errno == EINTR && got_sig == SIGUSR1) ?
		      0 : 1);
	}
	ASSERT_TRUE(wait_task_state(pid, pid, 'S', 5000));
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	ASSERT_EQ(0, kill(pid, SIGUSR1));
	ASSERT_EQ(ST_STOPPED(SIGUSR1), wstat(pid, 0));
	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(-ERESTARTNOHAND, (long)r.rax);
	resume_expect(_metadata, pid, PTRACE_CONT, SIGUSR1, ST_EXITED(0));
}

TEST(resume_from_syscall_to_cont_drops_syscall_tracing)
{
	pid_t pid = traceme_child(_metadata, body_getppid, NULL);

	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_STOPPED(SIGTRAP));
	/* CONT at the entry stop: no exit stop, no further stops. */
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST_HARNESS_MAIN
