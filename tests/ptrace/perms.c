// SPDX-License-Identifier: GPL-2.0-only
/*
 * Permissions: unprivileged tracers and other uids, PR_SET_DUMPABLE,
 * CAP_SYS_PTRACE, set-user-ID exec under ptrace, /proc/PID/mem access and
 * YAMA ptrace_scope 0-2 with PR_SET_PTRACER.
 *
 * The set-user-ID binary is a copy of /proc/self/exe made at run time in
 * a private directory under /tmp.  YAMA tests skip when YAMA is not built
 * in; they save and restore kernel.yama.ptrace_scope.  Scope 3 cannot be
 * undone without a reboot, so that test only runs when
 * PTRACE_TESTS_ALLOW_YAMA3=1 is set in the environment.
 */
#include <linux/capability.h>
#include <sys/statvfs.h>
#include "ptrace_util.h"

#ifndef PR_SET_PTRACER
#define PR_SET_PTRACER 0x59616d61
#endif
#ifndef PR_SET_PTRACER_ANY
#define PR_SET_PTRACER_ANY ((unsigned long)-1)
#endif

#define YAMA_SCOPE "/proc/sys/kernel/yama/ptrace_scope"
#define NOBODY 65534

/* A target process: optionally as nobody, optionally not dumpable. */
#define TGT_NOBODY	1
#define TGT_UNDUMPABLE	2
#define TGT_PTRACER_ANY	4

static pid_t spawn_target(int flags)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork_child();
	if (pid == 0) {
		close(fds[0]);
		if ((flags & TGT_NOBODY) && become_nobody())
			_exit(90);
		if ((flags & TGT_UNDUMPABLE) && prctl(PR_SET_DUMPABLE, 0))
			_exit(91);
		if ((flags & TGT_PTRACER_ANY) &&
		    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0))
			_exit(92);
		pipe_write_byte(fds[1], 'r');
		for (;;)
			pause();
	}
	close(fds[1]);
	if (pid > 0 && pipe_read_byte(fds[0]) != 'r') {
		kill_reap(pid);
		pid = -1;
	}
	close(fds[0]);
	return pid;
}

/*
 * Run fn(arg) in a child that first becomes nobody; returns the exit
 * status word of that child.
 */
static int as_nobody(int (*fn)(long), long arg)
{
	pid_t pid = fork_child();

	if (pid == 0) {
		if (become_nobody())
			_exit(90);
		_exit(fn(arg));
	}
	return pid < 0 ? -1 : wstat(pid, 0);
}

/* Returns 0 if SEIZE of pid gives exactly -err (0 means success). */
static int try_seize(long pid_and_err)
{
	pid_t pid = pid_and_err & 0xffffffff;
	long err = pid_and_err >> 32;

	return PTRE(PTRACE_SEIZE, pid, 0, 0) == -err ? 0 : 1;
}

#define SEIZE_ARG(pid, err)	((long)(pid) | ((long)(err) << 32))

/*
 * A target (spawn_target(target_flags), asserts pid > 0) and, as nobody,
 * fn(SEIZE_ARG(target, err)); returns the wait status of fn's child.
 */
static int nobody_vs_target(struct __test_metadata *_metadata,
			    int target_flags, int (*fn)(long), long err)
{
	pid_t pid = spawn_target(target_flags);
	int st;

	ASSERT_GT(pid, 0);
	st = as_nobody(fn, SEIZE_ARG(pid, err));
	kill_reap(pid);
	return st;
}

/* Root SEIZEs spawn_target(flags) (asserts pid > 0); returns 0 or -errno. */
static long root_seize_target(struct __test_metadata *_metadata, int flags)
{
	pid_t pid = spawn_target(flags);
	long r;

	ASSERT_GT(pid, 0);
	r = PTRE(PTRACE_SEIZE, pid, 0, 0);
	kill_reap(pid);
	return r;
}

TEST(unprivileged_attach_other_uid_eperm)
{
	EXPECT_EQ(ST_EXITED(0), nobody_vs_target(_metadata, 0, try_seize, EPERM));
}

static int seize_own_child(long flags)
{
	pid_t pid = spawn_target(flags);
	long r;

	if (pid <= 0)
		return 10;
	r = PTRE(PTRACE_SEIZE, pid, 0, 0);
	kill_reap(pid);
	if (r == 0)
		return 0;
	return r == -EPERM ? 1 : 2;
}

TEST(unprivileged_attach_own_child_ok)
{
	EXPECT_EQ(ST_EXITED(0), as_nobody(seize_own_child, 0));
}

TEST(unprivileged_attach_undumpable_eperm)
{
	EXPECT_EQ(ST_EXITED(1), as_nobody(seize_own_child, TGT_UNDUMPABLE));
}

TEST(root_attach_undumpable_ok)
{
	EXPECT_EQ(0, root_seize_target(_metadata, TGT_UNDUMPABLE));
}

TEST(root_attach_other_uid_ok)
{
	EXPECT_EQ(0, root_seize_target(_metadata, TGT_NOBODY | TGT_UNDUMPABLE));
}

static unsigned long probe_var = 0x5151;

static int body_undumpable(void *arg)
{
	(void)arg;
	prctl(PR_SET_DUMPABLE, 0);
	kill(getpid(), SIGSTOP);
	return 0;
}

/* A nobody tracer loses memory access when its tracee turns undumpable. */
static int peek_after_undumpable(long unused)
{
	struct user_regs_struct r;
	unsigned long v;
	pid_t pid;
	int ret = 0;

	(void)unused;
	pid = spawn_traceme(body_undumpable, NULL);
	if (pid <= 0)
		return 10;
	if (peek(PTRACE_PEEKDATA, pid, (unsigned long)&probe_var, &v) || v != 0x5151)
		ret = 11;
	ptr(PTRACE_CONT, pid, 0, 0);
	if (wstat(pid, 0) != ST_STOPPED(SIGSTOP))
		ret = 12;
	else if (peek(PTRACE_PEEKDATA, pid, (unsigned long)&probe_var, &v) != -EIO)
		ret = 13;
	else if (get_regs(pid, &r))	/* registers are still accessible */
		ret = 14;
	kill_reap(pid);
	return ret;
}

TEST(unprivileged_tracer_peek_after_tracee_undumpable_eio)
{
	EXPECT_EQ(ST_EXITED(0), as_nobody(peek_after_undumpable, 0));
}

/* Drop CAP_SYS_PTRACE from the effective set, keep everything else. */
static int drop_cap_sys_ptrace(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[0].effective &= ~(1U << CAP_SYS_PTRACE);
	return syscall(SYS_capset, &h, d);
}

/*
 * A target (spawn_target(target_flags), asserts pid > 0) and a root child
 * without CAP_SYS_PTRACE that runs try_seize(SEIZE_ARG(target, err));
 * expects that child to exit 0.
 */
static void seize_without_cap(struct __test_metadata *_metadata,
			      int target_flags, long err)
{
	pid_t pid = spawn_target(target_flags);
	pid_t t;

	ASSERT_GT(pid, 0);
	t = fork_child();
	if (t == 0) {
		if (drop_cap_sys_ptrace())
			_exit(90);
		_exit(try_seize(SEIZE_ARG(pid, err)));
	}
	EXPECT_EQ(ST_EXITED(0), wstat(t, 0));
	kill_reap(pid);
}

TEST(root_without_cap_sys_ptrace_other_uid_eperm)
{
	seize_without_cap(_metadata, TGT_NOBODY, EPERM);
}

TEST(root_without_cap_sys_ptrace_same_uid_ok)
{
	seize_without_cap(_metadata, 0, 0);
}

static int open_mem(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	return open(path, O_RDONLY);
}

static int try_open_mem(long pid_and_err)
{
	pid_t pid = pid_and_err & 0xffffffff;
	long err = pid_and_err >> 32;
	int fd = open_mem(pid);

	if (fd >= 0) {
		close(fd);
		return err == 0 ? 0 : 1;
	}
	return errno == err ? 0 : 2;
}

TEST(proc_mem_other_uid_eacces)
{
	EXPECT_EQ(ST_EXITED(0), nobody_vs_target(_metadata, 0, try_open_mem, EACCES));
}

static int open_mem_own_child(long flags)
{
	pid_t pid = spawn_target(flags);
	unsigned long v = 0;
	int fd, ret = 0;

	if (pid <= 0)
		return 10;
	fd = open_mem(pid);
	if (fd < 0)
		ret = errno == EACCES ? 1 : 2;
	else if (pread(fd, &v, sizeof(v), (off_t)&probe_var) != sizeof(v) ||
		 v != 0x5151)
		ret = 3;
	if (fd >= 0)
		close(fd);
	kill_reap(pid);
	return ret;
}

TEST(proc_mem_same_uid_child_readable)
{
	EXPECT_EQ(ST_EXITED(0), as_nobody(open_mem_own_child, 0));
}

TEST(proc_mem_undumpable_child_eacces)
{
	EXPECT_EQ(ST_EXITED(1), as_nobody(open_mem_own_child, TGT_UNDUMPABLE));
}

/* Set-user-ID exec. */
static char suid_dir[64];
static char suid_path[128];

static int make_suid_copy(void)
{
	char buf[65536];
	ssize_t n;
	int in, out;

	strcpy(suid_dir, "/tmp/ptrace-suid-XXXXXX");
	if (!mkdtemp(suid_dir))
		return -1;
	chmod(suid_dir, 0755);
	snprintf(suid_path, sizeof(suid_path), "%s/perms", suid_dir);
	in = open("/proc/self/exe", O_RDONLY);
	out = open(suid_path, O_WRONLY | O_CREAT | O_EXCL, 0755);
	if (in < 0 || out < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			return -1;
	close(in);
	if (fchown(out, 0, 0) || fchmod(out, 04755) || close(out))
		return -1;
	return n < 0 ? -1 : 0;
}

static void remove_suid_copy(void)
{
	if (suid_path[0])
		unlink(suid_path);
	if (suid_dir[0])
		rmdir(suid_dir);
}

/* As nobody: exec the set-user-ID copy (traced or not), return its code. */
static int exec_suid(long traced)
{
	pid_t pid = fork_child();
	int st;

	if (pid == 0) {
		if (traced && ptr(PTRACE_TRACEME, 0, 0, 0))
			_exit(80);
		execl(suid_path, "perms", "--euid", NULL);
		_exit(81);
	}
	if (pid < 0)
		return 82;
	st = wstat(pid, 0);
	if (traced) {
		if (st != ST_STOPPED(SIGTRAP))
			return 83;
		ptr(PTRACE_CONT, pid, 0, 0);
		st = wstat(pid, 0);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 84;
}

FIXTURE(suid) {
	int ok;
};

FIXTURE_SETUP(suid)
{
	fixture_tie_to_parent();
	struct statvfs sv;

	ASSERT_EQ(0, statvfs("/tmp", &sv));
	if (sv.f_flag & (ST_NOSUID | ST_NOEXEC))
		SKIP(return, "/tmp is mounted nosuid or noexec");
	ASSERT_EQ(0, make_suid_copy());
	self->ok = 1;
}

FIXTURE_TEARDOWN(suid)
{
	remove_suid_copy();
}

/* --euid helper exits 10 if it runs with euid 0, 20 otherwise. */
TEST_F(suid, untraced_exec_gains_euid)
{
	EXPECT_EQ(ST_EXITED(10), as_nobody(exec_suid, 0));
}

TEST_F(suid, exec_traced_by_unprivileged_no_euid)
{
	EXPECT_EQ(ST_EXITED(20), as_nobody(exec_suid, 1));
}

/*
 * PTRACE_TRACEME records the tracee's own credentials as the tracer's, so
 * even a root parent does not make the exec privileged.
 */
TEST_F(suid, exec_traceme_under_root_parent_no_euid)
{
	pid_t pid = fork_child();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (become_nobody())
			_exit(90);
		if (ptr(PTRACE_TRACEME, 0, 0, 0))
			_exit(80);
		execl(suid_path, "perms", "--euid", NULL);
		_exit(81);
	}
	ASSERT_EQ(ST_STOPPED(SIGTRAP), wstat(pid, 0));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(20));
}

/* A tracer with CAP_SYS_PTRACE (attached by SEIZE) lets the exec gain it. */
TEST_F(suid, exec_seized_by_root_gains_euid)
{
	int fds[2];
	pid_t pid = fork_with_pipe(_metadata, fds);

	if (pid == 0) {
		if (become_nobody())
			_exit(90);
		if (pipe_read_byte(fds[0]) < 0)
			_exit(91);
		execl(suid_path, "perms", "--euid", NULL);
		_exit(81);
	}
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, PTRACE_O_TRACEEXEC));
	ASSERT_EQ(0, pipe_write_byte(fds[1], 'g'));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_EXEC), wstat(pid, 0));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(10));
}

static int attach_after_suid_exec(long unused)
{
	int fds[2];
	pid_t pid;
	long r;

	(void)unused;
	if (pipe(fds))
		return 10;
	pid = fork_child();
	if (pid == 0) {
		dup2(fds[1], 3);
		execl(suid_path, "perms", "--euid-wait", NULL);
		_exit(81);
	}
	close(fds[1]);
	if (pipe_read_byte(fds[0]) != 'r')
		return 11;
	/* ruid is still ours, but euid/suid are 0: not allowed. */
	r = PTRE(PTRACE_SEIZE, pid, 0, 0);
	kill(pid, SIGKILL);
	wstat(pid, 0);
	return r == -EPERM ? 0 : 1;
}

TEST_F(suid, attach_to_suid_process_eperm)
{
	EXPECT_EQ(ST_EXITED(0), as_nobody(attach_after_suid_exec, 0));
}

/* YAMA. */
FIXTURE(yama) {
	char saved[16];
};

FIXTURE_SETUP(yama)
{
	fixture_tie_to_parent();
	int r = read_file_str(YAMA_SCOPE, self->saved, sizeof(self->saved));

	if (r == -ENOENT)
		SKIP(return, "YAMA is not enabled in this kernel");
	ASSERT_GT(r, 0);
}

FIXTURE_TEARDOWN(yama)
{
	if (self->saved[0])
		write_file_str(YAMA_SCOPE, self->saved);
}

static int set_scope(int scope)
{
	char buf[4];

	snprintf(buf, sizeof(buf), "%d", scope);
	return write_file_str(YAMA_SCOPE, buf);
}

/*
 * Two unrelated nobody processes: the target (child of the test) and the
 * tracer (another child of the test), which is not its ancestor.
 */
static int sibling_seize(struct __test_metadata *_metadata, int target_flags,
			 long expect_err)
{
	return nobody_vs_target(_metadata, TGT_NOBODY | target_flags,
				try_seize, expect_err);
}

TEST_F(yama, scope0_non_ancestor_ok)
{
	ASSERT_EQ(0, set_scope(0));
	EXPECT_EQ(ST_EXITED(0), sibling_seize(_metadata, 0, 0));
}

TEST_F(yama, scope1_non_ancestor_eperm)
{
	ASSERT_EQ(0, set_scope(1));
	EXPECT_EQ(ST_EXITED(0), sibling_seize(_metadata, 0, EPERM));
}

TEST_F(yama, scope1_own_child_ok)
{
	ASSERT_EQ(0, set_scope(1));
	EXPECT_EQ(ST_EXITED(0), as_nobody(seize_own_child, 0));
}

TEST_F(yama, scope1_ptracer_any_ok)
{
	ASSERT_EQ(0, set_scope(1));
	EXPECT_EQ(ST_EXITED(0), sibling_seize(_metadata, TGT_PTRACER_ANY, 0));
}

static int tracer_wait_then_seize(long pipefds)
{
	int rfd = pipefds & 0xffff;
	pid_t pid;

	if (read(rfd, &pid, sizeof(pid)) != sizeof(pid))
		return 10;
	return PTRE(PTRACE_SEIZE, pid, 0, 0) == 0 ? 0 : 1;
}

TEST_F(yama, scope1_pr_set_ptracer_specific_pid_ok)
{
	int fds[2], rdy[2];
	pid_t tracer, target;

	ASSERT_EQ(0, set_scope(1));
	ASSERT_EQ(0, pipe(fds));
	ASSERT_EQ(0, pipe(rdy));
	tracer = fork_child();
	if (tracer == 0) {
		if (become_nobody())
			_exit(90);
		_exit(tracer_wait_then_seize(fds[0]));
	}
	ASSERT_GT(tracer, 0);
	target = fork_child();
	if (target == 0) {
		if (become_nobody())
			_exit(90);
		if (prctl(PR_SET_PTRACER, tracer, 0, 0, 0))
			_exit(91);
		pipe_write_byte(rdy[1], 'r');
		for (;;)
			pause();
	}
	ASSERT_GT(target, 0);
	ASSERT_EQ('r', pipe_read_byte(rdy[0]));
	ASSERT_EQ(sizeof(target), write(fds[1], &target, sizeof(target)));
	EXPECT_EQ(ST_EXITED(0), wstat(tracer, 0));
	kill_reap(target);
}

TEST_F(yama, pr_set_ptracer_invalid_pid_einval)
{
	pid_t pid = plain_child(_metadata, NULL, NULL);

	ASSERT_EQ(ST_EXITED(0), wstat(pid, 0));
	EXPECT_EQ(-1, prctl(PR_SET_PTRACER, pid, 0, 0, 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(yama, scope2_unprivileged_own_child_eperm)
{
	ASSERT_EQ(0, set_scope(2));
	EXPECT_EQ(ST_EXITED(1), as_nobody(seize_own_child, 0));
}

TEST_F(yama, scope2_root_non_ancestor_ok)
{
	ASSERT_EQ(0, set_scope(2));
	EXPECT_EQ(0, root_seize_target(_metadata, TGT_NOBODY));
}

static int traceme_in_child(long unused)
{
	pid_t pid = fork_child();
	int st;

	(void)unused;
	if (pid == 0) {
		if (ptr(PTRACE_TRACEME, 0, 0, 0) == 0)
			_exit(0);
		_exit(errno == EPERM ? 1 : 2);
	}
	st = wstat(pid, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 3;
}

TEST_F(yama, scope2_traceme_unprivileged_parent_eperm)
{
	ASSERT_EQ(0, set_scope(2));
	EXPECT_EQ(ST_EXITED(1), as_nobody(traceme_in_child, 0));
}

TEST_F(yama, scope1_traceme_ok)
{
	ASSERT_EQ(0, set_scope(1));
	EXPECT_EQ(ST_EXITED(0), as_nobody(traceme_in_child, 0));
}

TEST_F(yama, scope3_no_attach)
{
	const char *allow = getenv("PTRACE_TESTS_ALLOW_YAMA3");

	if (!allow || strcmp(allow, "1")) {
		self->saved[0] = 0;
		SKIP(return, "scope 3 cannot be reverted without a reboot (set PTRACE_TESTS_ALLOW_YAMA3=1)");
	}
	ASSERT_EQ(0, set_scope(3));
	EXPECT_EQ(-EPERM, root_seize_target(_metadata, 0));
	self->saved[0] = 0;	/* cannot be restored */
}

TEST_F(yama, invalid_scope_value_einval)
{
	EXPECT_EQ(-EINVAL, write_file_str(YAMA_SCOPE, "4"));
	EXPECT_EQ(-EINVAL, write_file_str(YAMA_SCOPE, "-1"));
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--euid"))
		return geteuid() == 0 ? 10 : 20;
	if (argc >= 2 && !strcmp(argv[1], "--euid-wait")) {
		if (write(3, "r", 1) != 1)
			return 1;
		for (;;)
			pause();
	}
	return test_harness_run(argc, argv);
}
