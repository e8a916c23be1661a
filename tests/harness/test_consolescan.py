"""boot/consolescan.py: kernel bug reports in a guest console fail the run."""
import unittest

from tests.harness.load import load

scan = load('boot/consolescan.py')

CLEAN = """\
[    0.000000] Linux version 6.12.118 (utrace@workbench)
[    0.512000] 9pnet: Installing 9P2000 support
[    1.204000] Run /work/main/boot/guest-init.sh as init process
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


class TestConsoleScan(unittest.TestCase):
    def kinds(self, text):
        return [k for k, _, _ in scan.scan(text.splitlines(True))]

    def test_clean_boot_has_no_findings(self):
        self.assertEqual(self.kinds(CLEAN), [])

    def test_each_report_kind_is_found(self):
        for text, kind in ((WARN, 'WARNING'), (OOPS, 'BUG'), (LOCKDEP, 'lockdep'),
                           (KASAN, 'BUG'), (STALL, 'RCU stall'), (HUNG, 'hung task'),
                           (PANIC, 'panic')):
            with self.subTest(kind=kind):
                found = self.kinds(CLEAN + text)
                self.assertEqual(len(found), 1, found)
                self.assertEqual(found[0], kind)

    def test_lockdep_without_warning_banner(self):
        self.assertEqual(self.kinds('[ 1.0] INFO: lockdep is turned off.\n'), ['lockdep'])

    def test_excerpt_has_the_first_lines(self):
        (kind, lineno, excerpt), = scan.scan((CLEAN + WARN).splitlines(True))
        self.assertEqual(lineno, 5)
        self.assertIn('ptrace_stop', excerpt[1])

    def test_two_separate_reports_are_both_found(self):
        text = CLEAN + OOPS + CLEAN + CLEAN + HUNG
        self.assertEqual(self.kinds(text), ['BUG', 'hung task'])

    def test_main_exit_status(self):
        import os
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            good, bad = os.path.join(d, 'good'), os.path.join(d, 'bad')
            open(good, 'w').write(CLEAN)
            open(bad, 'w').write(CLEAN + WARN)
            self.assertEqual(scan.main(['x', good]), 0)
            self.assertEqual(scan.main(['x', bad]), 1)


if __name__ == '__main__':
    unittest.main()
