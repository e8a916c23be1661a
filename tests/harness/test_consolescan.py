"""boot/consolescan.py: kernel bug reports in a guest console fail the run."""
import io
import os
import tempfile
import unittest
from contextlib import redirect_stdout

from tests.harness.load import load, one_line_error

scan = load('boot/consolescan.py')

CLEAN = """\
[    0.000000] Linux version 6.12.118 (utrace@workbench)
[    0.512000] 9pnet: Installing 9P2000 support
[    1.204000] Run /work/main/boot/guest-init.sh as init process
[    9.100000] reboot: Power down
"""

# Lines of a normal 6.12 boot (ACPI, lockdep, kmemleak, KUnit) that look a
# little like reports and must not be taken for one.
BOOT = """\
[    0.000000] Linux version 6.12.118 (utrace@workbench) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0) #1 SMP PREEMPT_DYNAMIC
[    0.000000] x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'
[    0.000000] x86/fpu: Enabled xstate features 0x2e7, context size is 2440 bytes, using 'compacted' format.
[    0.004000] ACPI: Early table checksum verification disabled
[    0.004100] ACPI: RSDP 0x00000000000F52A0 000014 (v00 BOCHS )
[    0.012000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
[    0.012100] ... MAX_LOCKDEP_SUBCLASSES:  8
[    0.050000] rcu: Preemptible hierarchical RCU implementation.
[    0.050100] rcu: 	RCU lockdep checking is enabled.
[    0.060000] kmemleak: Kernel memory leak detector initialized (mem pool available: 15800)
[    0.300000] ACPI: Interpreter enabled
[    0.300100] ACPI: PM: (supports S0 S5)
[    0.512000] 9pnet: Installing 9P2000 support
[    0.600100] KTAP version 1
[    0.600110] 1..1
[    0.600200]     KTAP version 1
[    0.600210]     # Subtest: utrace
[    0.600220]     1..1
[    0.601000]     ok 1 utrace_test_attach_flags
[    0.604120] ok 1 utrace
[    0.900000] kmemleak: Automatic memory scanning thread started
[    1.100000] Freeing unused kernel image (initmem) memory: 1234K
[    1.204000] Run /sbin/init as init process
[    1.204100] Run /work/main/boot/guest-init.sh as init process
[    9.100000] reboot: Power down
"""

# Real shapes of kernel reports (abridged from 6.12 console output).
WARN = """\
[    5.123456] ------------[ cut here ]------------
[    5.123500] WARNING: CPU: 1 PID: 97 at kernel/signal.c:2283 ptrace_stop+0x1c/0x2a0
[    5.123600] Modules linked in:
[    5.123700] CPU: 1 UID: 0 PID: 97 Comm: step_fork Not tainted 6.12.118 #1
"""
OOPS = """\
[    7.000001] BUG: kernel NULL pointer dereference, address: 0000000000000008
[    7.000002] #PF: supervisor read access in kernel mode
[    7.000003] Oops: Oops: 0000 [#1] PREEMPT SMP NOPTI
"""
LOCKDEP = """\
[   12.3] ======================================================
[   12.3] WARNING: possible circular locking dependency detected
[   12.3] 6.12.118 #1 Not tainted
"""
KASAN = "[   3.1] BUG: KASAN: slab-use-after-free in utrace_report_exec+0x40/0x90\n"
STALL = "[  60.0] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n"
HUNG = "[ 240.0] INFO: task ptrace_attach:112 blocked for more than 120 seconds.\n"
PANIC = "[   2.0] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100\n"
KMEMLEAK = ("[ 300.1] kmemleak: 2 new suspected memory leaks "
            "(see /sys/kernel/debug/kmemleak)\n")

REGS = """\
[{t}] RSP: 0018:ffffc90000323e48 EFLAGS: 00010246
[{t}] RAX: 0000000000000000 RBX: ffff888003b2c000 RCX: 0000000000000000
[{t}] RDX: 0000000000000000 RSI: 0000000000000005 RDI: 0000000000000085
[{t}] RBP: ffffc90000323e80 R08: 0000000000000000 R09: 0000000000000000
[{t}] R10: 0000000000000000 R11: 0000000000000000 R12: 0000000000000005
[{t}] R13: 0000000000000000 R14: 0000000000000085 R15: 0000000000000000
[{t}] FS:  00000000004c9380(0000) GS:ffff88803ec80000(0000) knlGS:0000000000000000
[{t}] CS:  0010 DS: 0000 ES: 0000 CR0: 0000000080050033
[{t}] CR2: 00000000004c5000 CR3: 0000000003a58000 CR4: 0000000000750ef0
"""
USER_REGS = """\
[{t}] RIP: 0033:0x401a2b
[{t}] Code: Unable to access opcode bytes at 0x401a01.
[{t}] RSP: 002b:00007ffd2b9e4c18 EFLAGS: 00000246 ORIG_RAX: 0000000000000027
[{t}] RAX: 0000000000000061 RBX: 0000000000000000 RCX: 0000000000401a2b
[{t}] RDX: 0000000000000000 RSI: 0000000000000000 RDI: 0000000000000061
"""

# A whole WARN: header, registers, Call Trace (the warning function itself
# only as '?' frames), user registers inside the trace, lockdep's irq
# stamps, the end marker.
WARN_FULL = """\
[{t}] ------------[ cut here ]------------
[{t}] WARNING: CPU: 1 PID: {pid} at kernel/signal.c:2283 ptrace_stop+0x1c/0x2a0
[{t}] Modules linked in:
[{t}] CPU: 1 UID: 0 PID: {pid} Comm: step_fork Not tainted 6.12.118 #1
[{t}] Hardware name: QEMU Standard PC (Q35 + ICH9, 2009), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
[{t}] RIP: 0010:ptrace_stop+0x1c/0x2a0
[{t}] Code: 0f 1f 44 00 00 55 48 89 e5 41 57 41 56 41 55 41 54 53 48 83 ec 10 <0f> 0b 48 8b 45 08
""" + REGS + """\
[{t}] Call Trace:
[{t}]  <TASK>
[{t}]  ? __warn+0x89/0x130
[{t}]  ? ptrace_stop+0x1c/0x2a0
[{t}]  ? report_bug+0x164/0x190
[{t}]  ? handle_bug+0x58/0x90
[{t}]  ? exc_invalid_op+0x17/0x70
[{t}]  ? asm_exc_invalid_op+0x1a/0x20
[{t}]  ? ptrace_stop+0x1c/0x2a0
[{t}]  {caller}+0x5c/0xa0
[{t}]  syscall_exit_work+0x9e/0x140
[{t}]  syscall_exit_to_user_mode+0x2d/0x1e0
[{t}]  do_syscall_64+0x8e/0x170
[{t}]  entry_SYSCALL_64_after_hwframe+0x76/0x7e
""" + USER_REGS + """\
[{t}]  </TASK>
[{t}] irq event stamp: 1234
[{t}] hardirqs last  enabled at (1233): [<ffffffff8112a3b4>] _raw_spin_unlock_irq+0x24/0x40
[{t}] hardirqs last disabled at (1234): [<ffffffff81a0c1d2>] __schedule+0x5f2/0xd60
[{t}] ---[ end trace 0000000000000000 ]---
"""


def warn(t='5.123456', pid=97, caller='ptrace_notify'):
    return WARN_FULL.format(t=t, pid=pid, caller=caller)


# An oops with panic_on_oops: after the end marker x86 repeats RIP and the
# registers, then panics.
OOPS_FULL = """\
[{t}] BUG: kernel NULL pointer dereference, address: 0000000000000008
[{t}] #PF: supervisor read access in kernel mode
[{t}] #PF: error_code(0x0000) - not-present page
[{t}] PGD 0 P4D 0
[{t}] Oops: Oops: 0000 [#1] PREEMPT SMP NOPTI
[{t}] CPU: 0 UID: 0 PID: 143 Comm: utrace_engines Not tainted 6.12.118 #1
[{t}] Hardware name: QEMU Standard PC (Q35 + ICH9, 2009), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
[{t}] RIP: 0010:utrace_report_exec+0x40/0x90
[{t}] Code: 48 8b 47 08 48 85 c0 74 0a <48> 8b 40 08 c3 cc cc cc cc
""" + REGS + """\
[{t}] Call Trace:
[{t}]  <TASK>
[{t}]  ? __die+0x23/0x70
[{t}]  ? page_fault_oops+0x17d/0x4c0
[{t}]  ? exc_page_fault+0x7e/0x180
[{t}]  ? asm_exc_page_fault+0x26/0x30
[{t}]  ? utrace_report_exec+0x40/0x90
[{t}]  bprm_execve+0x1c8/0x5c0
[{t}]  do_execveat_common.isra.0+0x17a/0x1d0
[{t}]  __x64_sys_execve+0x3a/0x50
[{t}]  do_syscall_64+0x8e/0x170
[{t}]  entry_SYSCALL_64_after_hwframe+0x76/0x7e
""" + USER_REGS + """\
[{t}]  </TASK>
[{t}] Modules linked in: test_utrace(O)
[{t}] CR2: 0000000000000008
[{t}] ---[ end trace 0000000000000000 ]---
[{t}] RIP: 0010:utrace_report_exec+0x40/0x90
[{t}] Code: 48 8b 47 08 48 85 c0 74 0a <48> 8b 40 08 c3 cc cc cc cc
""" + REGS + """\
[{t}] Kernel panic - not syncing: Fatal exception
[{t}] Kernel Offset: disabled
[{t}] ---[ end Kernel panic - not syncing: Fatal exception ]---
"""

# A lockdep splat: its one Call Trace is far below the header.
LOCKDEP_FULL = """\
[{t}] ======================================================
[{t}] WARNING: possible circular locking dependency detected
[{t}] 6.12.118 #1 Not tainted
[{t}] ------------------------------------------------------
[{t}] step_fork/97 is trying to acquire lock:
[{t}] ffff888003b2c0a8 (&sighand->siglock){{....}}-{{2:2}}, at: utrace_barrier+0x4a/0x110
[{t}]
[{t}] but task is already holding lock:
[{t}] ffff888003c1e018 (&utrace->lock){{+.+.}}-{{2:2}}, at: utrace_control+0x3c/0x3b0
[{t}]
[{t}] which lock already depends on the new lock.
[{t}]
[{t}] the existing dependency chain (in reverse order) is:
[{t}]
[{t}] -> #1 (&utrace->lock){{+.+.}}-{{2:2}}:
[{t}]        _raw_spin_lock+0x2f/0x40
[{t}]        utrace_report_signal+0x7d/0x2a0
[{t}]        get_signal+0x5ad/0x8c0
[{t}]        arch_do_signal_or_restart+0x2e/0x250
[{t}]        syscall_exit_to_user_mode+0x156/0x1e0
[{t}]        do_syscall_64+0x8e/0x170
[{t}]        entry_SYSCALL_64_after_hwframe+0x76/0x7e
[{t}]
[{t}] -> #0 (&sighand->siglock){{....}}-{{2:2}}:
[{t}]        __lock_acquire+0x12b4/0x1f30
[{t}]        lock_acquire+0xc5/0x2d0
[{t}]        _raw_spin_lock_irq+0x33/0x50
[{t}]        utrace_barrier+0x4a/0x110
[{t}]        utrace_control+0x1a2/0x3b0
[{t}]        do_syscall_64+0x8e/0x170
[{t}]        entry_SYSCALL_64_after_hwframe+0x76/0x7e
[{t}]
[{t}] other info that might help us debug this:
[{t}]
[{t}]  Possible unsafe locking scenario:
[{t}]
[{t}]        CPU0                    CPU1
[{t}]        ----                    ----
[{t}]   lock(&utrace->lock);
[{t}]                                lock(&sighand->siglock);
[{t}]                                lock(&utrace->lock);
[{t}]   lock(&sighand->siglock);
[{t}]
[{t}]  *** DEADLOCK ***
[{t}]
[{t}] 1 lock held by step_fork/97:
[{t}]  #0: ffff888003c1e018 (&utrace->lock){{+.+.}}-{{2:2}}, at: utrace_control+0x3c/0x3b0
[{t}]
[{t}] stack backtrace:
[{t}] CPU: 1 UID: 0 PID: 97 Comm: step_fork Not tainted 6.12.118 #1
[{t}] Hardware name: QEMU Standard PC (Q35 + ICH9, 2009), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
[{t}] Call Trace:
[{t}]  <TASK>
[{t}]  dump_stack_lvl+0x5d/0x80
[{t}]  print_circular_bug+0x26d/0x340
[{t}]  check_noncircular+0x135/0x150
[{t}]  __lock_acquire+0x12b4/0x1f30
[{t}]  lock_acquire+0xc5/0x2d0
[{t}]  ? utrace_barrier+0x4a/0x110
[{t}]  _raw_spin_lock_irq+0x33/0x50
[{t}]  ? utrace_barrier+0x4a/0x110
[{t}]  utrace_barrier+0x4a/0x110
[{t}]  utrace_control+0x1a2/0x3b0
[{t}]  do_syscall_64+0x8e/0x170
[{t}]  entry_SYSCALL_64_after_hwframe+0x76/0x7e
""" + USER_REGS + """\
[{t}]  </TASK>
"""

# A bare stack dump (dump_stack() after a message), no named header.
DUMP_STACK = """\
[{t}] utrace: engine ffff888003c1e000 released twice
[{t}] CPU: 0 UID: 0 PID: 150 Comm: utrace_engines Tainted: G           O       6.12.118 #1
[{t}] Tainted: [O]=OOT_MODULE
[{t}] Hardware name: QEMU Standard PC (Q35 + ICH9, 2009), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
[{t}] Call Trace:
[{t}]  <TASK>
[{t}]  dump_stack_lvl+0x5d/0x80
[{t}]  {first}+0x61/0x70
[{t}]  utrace_control+0x1a2/0x3b0
[{t}]  test_utrace_ioctl+0x2c4/0x6a0 [test_utrace]
[{t}]  __x64_sys_ioctl+0x94/0xd0
[{t}]  do_syscall_64+0x8e/0x170
[{t}]  entry_SYSCALL_64_after_hwframe+0x76/0x7e
""" + USER_REGS + """\
[{t}]  </TASK>
"""


def dump_stack(t='20.000000', first='utrace_engine_put'):
    return DUMP_STACK.format(t=t, first=first)


# A kernel register dump without a named header (an NMI backtrace).
NMI_RIP = """\
[   30.000000] NMI backtrace for cpu 1
[   30.000001] CPU: 1 UID: 0 PID: 151 Comm: stress Not tainted 6.12.118 #1
[   30.000002] Hardware name: QEMU Standard PC (Q35 + ICH9, 2009), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
[   30.000003] RIP: 0010:utrace_barrier+0x4a/0x110
[   30.000004] Code: 0f 1f 44 00 00 f3 90 8b 47 10 85 c0 75 f7 c3 cc cc cc cc
""" + REGS.format(t='   30.000005') + """\
[   30.000006] Call Trace:
[   30.000007]  <NMI>
[   30.000008]  ? nmi_cpu_backtrace+0xa5/0x110
[   30.000009]  ? nmi_handle+0x5c/0x150
[   30.000010]  </NMI>
[   30.000011]  <TASK>
[   30.000012]  utrace_control+0x1a2/0x3b0
[   30.000013]  test_utrace_ioctl+0x2c4/0x6a0 [test_utrace]
[   30.000014]  __x64_sys_ioctl+0x94/0xd0
[   30.000015]  </TASK>
"""

# kmemleak's report of one object (in the console with kmemleak.verbose=1).
LEAK = """\
[{t}] unreferenced object 0xffff888003a1c000 (size 64):
[{t}]   comm "utrace_engines", pid 143, jiffies 4294893456
[{t}]   hex dump (first 32 bytes):
[{t}]     00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................
[{t}]     01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................
[{t}]   backtrace (crc 1a2b3c4d):
[{t}]     [<ffffffff812f1e2e>] kmemleak_alloc+0x4e/0x90
[{t}]     [<ffffffff812c4a10>] __kmalloc_cache_noprof+0x1e0/0x2b0
[{t}]     [<ffffffff81135c2c>] utrace_attach_task+0x5c/0x1c0
[{t}]     [<ffffffffa0001234>] test_utrace_ioctl+0x1a4/0x6a0 [test_utrace]
[{t}]     [<ffffffff81355a74>] __x64_sys_ioctl+0x94/0xd0
[{t}]     [<ffffffff81a01d3e>] do_syscall_64+0x8e/0x170
"""


def kinds(text):
    return [f.kind for f in scan.scan(text.splitlines(True))]


def run_main(text):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'console.log')
        with open(path, 'w') as f:
            f.write(text)
        buf = io.StringIO()
        with redirect_stdout(buf):
            rc = scan.main(['x', path])
    return rc, buf.getvalue()


class TestConsoleScan(unittest.TestCase):
    def test_clean_boot_has_no_findings(self):
        self.assertEqual(kinds(CLEAN), [])
        self.assertEqual(kinds(BOOT), [])

    def test_each_report_kind_is_found(self):
        for text, kind in ((WARN, 'WARNING'), (OOPS, 'BUG'), (LOCKDEP, 'lockdep'),
                           (KASAN, 'BUG'), (STALL, 'RCU stall'), (HUNG, 'hung task'),
                           (PANIC, 'panic'), (KMEMLEAK, 'kmemleak')):
            with self.subTest(kind=kind):
                found = kinds(CLEAN + text)
                self.assertEqual(len(found), 1, found)
                self.assertEqual(found[0], kind)

    def test_lockdep_without_warning_banner(self):
        self.assertEqual(kinds('[ 1.0] INFO: lockdep is turned off.\n'), ['lockdep'])

    def test_excerpt_has_the_first_lines(self):
        (f,) = scan.scan((CLEAN + WARN).splitlines(True))
        self.assertEqual(f.lineno, 5)
        self.assertIn('ptrace_stop', f.excerpt[1])

    def test_two_separate_reports_are_both_found(self):
        text = CLEAN + OOPS + CLEAN + CLEAN + HUNG
        self.assertEqual(kinds(text), ['BUG', 'hung task'])

    def test_main_exit_status(self):
        self.assertEqual(run_main(BOOT)[0], 0)
        self.assertEqual(run_main(CLEAN + WARN)[0], 1)


class TestCatchAll(unittest.TestCase):
    """Traces and register dumps without a named header fail the run too."""

    def test_bare_call_trace(self):
        (f,) = scan.scan((BOOT + dump_stack()).splitlines(True))
        self.assertEqual(f.kind, 'call trace')
        # the lines before it say what the kernel complained about
        self.assertIn('released twice', f.excerpt[0])
        self.assertEqual(f.frames(), ('utrace_engine_put', 'utrace_control', 'test_utrace_ioctl'))

    def test_trace_that_starts_with_task_marker(self):
        text = '[ 1.0] <TASK>\n[ 1.0] utrace_control+0x1a2/0x3b0\n[ 1.0] </TASK>\n'
        self.assertEqual(kinds(BOOT + text), ['call trace'])

    def test_kernel_rip_line(self):
        (f,) = scan.scan((BOOT + NMI_RIP).splitlines(True))
        self.assertEqual(f.kind, 'RIP')
        self.assertIn('RIP: 0010:utrace_barrier+0x4a/0x110', '\n'.join(f.excerpt))
        # its Call Trace is part of it; the NMI frames are unreliable ('?')
        self.assertEqual(f.frames(), ('utrace_control', 'test_utrace_ioctl', '__x64_sys_ioctl'))

    def test_user_mode_registers_alone_are_no_finding(self):
        # print-fatal-signals shows a user program's registers: not a kernel bug
        self.assertEqual(kinds(BOOT + USER_REGS.format(t='   40.000000')), [])

    def test_kmemleak_object(self):
        (f,) = scan.scan((BOOT + LEAK.format(t=' 300.2')).splitlines(True))
        self.assertEqual(f.kind, 'kmemleak')
        # the allocator's own frames are left out
        self.assertEqual(f.frames(), ('utrace_attach_task', 'test_utrace_ioctl', '__x64_sys_ioctl'))

    def test_kmemleak_summary_and_objects(self):
        text = KMEMLEAK + LEAK.format(t=' 300.2') + LEAK.format(t=' 300.3')
        found = scan.scan(text.splitlines(True))
        self.assertEqual([f.kind for f in found], ['kmemleak', 'kmemleak'])
        self.assertEqual(len(scan.group(found)), 1)


class TestNoDoubleReport(unittest.TestCase):
    """A named report's own trace and registers are not a second finding."""

    def test_warn_with_its_trace_is_one_finding(self):
        (f,) = scan.scan((BOOT + warn()).splitlines(True))
        self.assertEqual(f.kind, 'WARNING')
        self.assertEqual(f.frames(), ('ptrace_notify', 'syscall_exit_work',
                                      'syscall_exit_to_user_mode'))

    def test_oops_then_panic(self):
        # the register summary after the end marker is the oops's, the panic its own
        self.assertEqual(kinds(BOOT + OOPS_FULL.format(t='7.000001')), ['BUG', 'panic'])

    def test_lockdep_trace_far_below_its_header(self):
        (f,) = scan.scan((BOOT + LOCKDEP_FULL.format(t='12.300000')).splitlines(True))
        self.assertEqual(f.kind, 'lockdep')
        # lockdep's own frames are left out
        self.assertEqual(f.frames(), ('_raw_spin_lock_irq', 'utrace_barrier', 'utrace_control'))

    def test_a_trace_after_a_report_has_ended_is_new(self):
        self.assertEqual(kinds(warn() + BOOT + dump_stack()), ['WARNING', 'call trace'])
        # right after the end of a trace, too
        self.assertEqual(kinds(dump_stack() + NMI_RIP), ['call trace', 'RIP'])


class TestGrouping(unittest.TestCase):
    """Findings of one kind with the same first frames are shown once."""

    def test_same_warning_twice_is_one_group(self):
        text = BOOT + warn('5.1', 97) + BOOT + warn('9.2', 120)
        found = scan.scan(text.splitlines(True))
        self.assertEqual([f.kind for f in found], ['WARNING', 'WARNING'])
        (first, seen), = scan.group(found)
        self.assertIs(first, found[0])
        self.assertEqual(len(seen), 2)
        rc, out = run_main(text)
        self.assertEqual(rc, 1)
        self.assertEqual(out.count('kernel WARNING report'), 1)
        self.assertIn('(seen 2 times, at lines', out)
        self.assertIn('first frames: ptrace_notify, syscall_exit_work, syscall_exit_to_user_mode', out)

    def test_different_frames_are_different_groups(self):
        text = warn('5.1') + BOOT + warn('9.2', caller='ptrace_signal')
        self.assertEqual(len(scan.group(scan.scan(text.splitlines(True)))), 2)

    def test_same_frames_different_kind_are_different_groups(self):
        w = warn()
        trace = w[w.index('[5.123456] Call Trace:'):w.index('[5.123456] irq event')]
        found = scan.scan((w + BOOT + trace).splitlines(True))
        self.assertEqual([f.kind for f in found], ['WARNING', 'call trace'])
        self.assertEqual(found[0].frames(), found[1].frames())
        self.assertEqual(len(scan.group(found)), 2)

    def test_bare_traces_group_by_frames(self):
        text = dump_stack('20.1') + BOOT + dump_stack('21.1') + BOOT + dump_stack('22.1', 'other')
        groups = scan.group(scan.scan(text.splitlines(True)))
        self.assertEqual([len(seen) for _, seen in groups], [2, 1])
        rc, out = run_main(text)
        self.assertEqual(rc, 1)
        self.assertEqual(out.count('kernel call trace report'), 2)

    def test_reports_without_frames_group_by_header(self):
        text = HUNG + BOOT + HUNG.replace('240.0', '480.0') + BOOT + \
            HUNG.replace('ptrace_attach:112', 'stress:130')
        groups = scan.group(scan.scan(text.splitlines(True)))
        self.assertEqual([len(seen) for _, seen in groups], [2, 1])


class TestCommandLine(unittest.TestCase):
    """Bad input is one line on stderr and exit 2, never a traceback."""

    def test_no_log(self):
        rc, line = one_line_error(self, 'boot/consolescan.py')
        self.assertEqual(rc, 2)
        self.assertIn('console.log', line)

    def test_missing_log(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'console.log')
            rc, line = one_line_error(self, 'boot/consolescan.py', path)
            self.assertEqual(rc, 2)
            self.assertEqual(line, f'consolescan.py: cannot read {path}: No such file or directory')


if __name__ == '__main__':
    unittest.main()
