"""tests/ktap.py: the guest runner's KTAP output -> result rows."""
import unittest

from tests.harness.load import load

ktap = load('tests/ktap.py')

# Shaped like real output of tests/run-tests.sh around kselftest_harness programs.
GOOD = """\
# guest: 6.12.118 running /x/tests/run-tests.sh
KTAP version 1
1..3
# suite: ksft-ptrace/peeksiginfo
    TAP version 13
    1..1
    # Starting 1 tests from 1 test cases.
    ok 1 global.peeksiginfo
    # PASSED: 1 / 1 tests passed.
ok 1 ksft-ptrace/peeksiginfo # time=1s
# suite: ptrace/attach
    TAP version 13
    1..3
    ok 1 attach.self_eperm
    not ok 2 attach.zombie
    ok 3 attach.kthread # SKIP no kthreadd here
not ok 2 ptrace/attach # exit=1 time=2s
# suite: ptrace/hang
not ok 3 ptrace/hang # TIMEOUT after 300s
# guest: script exit status 0
"""


class TestKtap(unittest.TestCase):
    def test_rows_and_verdicts(self):
        rows, problems = ktap.parse(GOOD.splitlines(True))
        self.assertEqual(problems, [])
        got = {(s, t): r for s, t, r, _ in rows}
        self.assertEqual(got, {
            ('ksft-ptrace/peeksiginfo', 'global.peeksiginfo'): 'pass',
            ('ksft-ptrace/peeksiginfo', '(program)'): 'pass',
            ('ptrace/attach', 'attach.self_eperm'): 'pass',
            ('ptrace/attach', 'attach.zombie'): 'fail',
            ('ptrace/attach', 'attach.kthread'): 'skip',
            ('ptrace/attach', '(program)'): 'fail',
            ('ptrace/hang', '(program)'): 'timeout',
        })

    def test_carriage_returns_from_the_serial_line(self):
        rows, problems = ktap.parse([l + '\r\n' for l in GOOD.splitlines()])
        self.assertEqual(problems, [])
        self.assertEqual(len(rows), 7)

    def test_cut_off_run_is_missing_not_pass(self):
        cut = GOOD.split('# suite: ptrace/attach')[0] + '# suite: ptrace/attach\n    ok 1 attach.self_eperm\n'
        rows, problems = ktap.parse(cut.splitlines(True))
        got = {(s, t): r for s, t, r, _ in rows}
        self.assertEqual(got[('ptrace/attach', '(program)')], 'missing')
        self.assertTrue(any('plan says 3 programs, 2 reported' in p for p in problems), problems)

    def test_no_runner_output_is_a_problem(self):
        rows, problems = ktap.parse(['[    0.000000] Linux version 6.12\n'])
        self.assertEqual(rows, [])
        self.assertIn('no KTAP plan line: the runner did not start', problems)

    def test_duplicate_subtest_names_are_kept_apart(self):
        text = 'KTAP version 1\n1..1\n# suite: a\n    ok 1 x\n    not ok 2 x\nok 1 a\n'
        rows, _ = ktap.parse(text.splitlines(True))
        self.assertIn(('a', 'x', 'pass', ''), rows)
        self.assertIn(('a', 'x#2', 'fail', ''), rows)


if __name__ == '__main__':
    unittest.main()
