"""tests/ktap.py: the guest runner's KTAP output -> result rows."""
import io
import os
import re
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

from tests.harness.load import TOP, load, usage_error

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


# The engine selftests when /dev/test_utrace cannot be opened: every test
# skips in its fixture setup, and kselftest_harness exits 0.
ENGINES_ALL_SKIP = """\
KTAP version 1
1..2
# suite: ksft-utrace/utrace_engines
    TAP version 13
    1..3
    # Starting 3 tests from 1 test cases.
    #  RUN           utrace.attach_flags ...
    #      SKIP      /dev/test_utrace: No such file or directory (load test_utrace.ko)
    #            OK  utrace.attach_flags
    ok 1 utrace.attach_flags # SKIP /dev/test_utrace: No such file or directory (load test_utrace.ko)
    ok 2 utrace.attach_errors # SKIP /dev/test_utrace: No such file or directory (load test_utrace.ko)
    ok 3 utrace.callback_order # SKIP /dev/test_utrace: No such file or directory (load test_utrace.ko)
    # PASSED: 0 / 3 tests passed.
    # Totals: pass:0 fail:0 xfail:0 xpass:0 skip:3 error:0
ok 1 ksft-utrace/utrace_engines # time=1s
# suite: ksft-ptrace/step_events
    TAP version 13
    1..2
    ok 1 step_events.step_over_execve_traceexec
    ok 2 step_events.singleblock # SKIP block-step not honoured: the CPU stepped one instruction
    # PASSED: 2 / 2 tests passed.
ok 2 ksft-ptrace/step_events # time=2s
"""


def program(rows, suite):
    (row,) = [r for r in rows if r[0] == suite and r[1] == '(program)']
    return row[2], row[3]


class TestRanNothing(unittest.TestCase):
    """A program that skips as a whole fails, unless it may skip there."""

    def test_all_skip_program_fails(self):
        rows, problems = ktap.parse(ENGINES_ALL_SKIP.splitlines(True))
        self.assertEqual(problems, [])
        res, detail = program(rows, 'ksft-utrace/utrace_engines')
        self.assertEqual(res, 'fail')
        self.assertIn('every test skipped', detail)
        # its tests keep their own rows
        self.assertIn(('ksft-utrace/utrace_engines', 'utrace.attach_flags', 'skip',
                       'SKIP /dev/test_utrace: No such file or directory (load test_utrace.ko)'),
                      rows)

    def test_partly_skipping_program_passes(self):
        rows, _ = ktap.parse(ENGINES_ALL_SKIP.splitlines(True))
        self.assertEqual(program(rows, 'ksft-ptrace/step_events')[0], 'pass')

    def test_allowed_all_skip_program_is_a_skip(self):
        rows, _ = ktap.parse(ENGINES_ALL_SKIP.splitlines(True),
                             {'ksft-utrace/utrace_engines': 'no CONFIG_UTRACE'})
        self.assertEqual(program(rows, 'ksft-utrace/utrace_engines'),
                         ('skip', 'may skip here: no CONFIG_UTRACE'))

    def test_runner_skip_and_empty_plan(self):
        text = ('KTAP version 1\n1..3\n'
                '# suite: ksft-utrace/utrace_engines\n    # skip: this kernel has no CONFIG_UTRACE\n'
                'ok 1 ksft-utrace/utrace_engines # SKIP exit status 4\n'
                '# suite: ksft-x86/mov_ss_trap_64\n'
                'ok 2 ksft-x86/mov_ss_trap_64 # SKIP QEMU 7.2 TCG does not defer ...\n'
                '# suite: ksft-x86/x\n    TAP version 13\n    1..0 # SKIP no 32-bit userspace\n'
                'ok 3 ksft-x86/x # time=0s\n')
        rows, problems = ktap.parse(text.splitlines(True))
        self.assertEqual(problems, [])
        for suite in ('ksft-utrace/utrace_engines', 'ksft-x86/mov_ss_trap_64', 'ksft-x86/x'):
            self.assertEqual(program(rows, suite)[0], 'fail', suite)
        rows, _ = ktap.parse(text.splitlines(True), dict.fromkeys(
            ('ksft-utrace/utrace_engines', 'ksft-x86/mov_ss_trap_64', 'ksft-x86/x'), 'ok'))
        self.assertEqual({r[2] for r in rows}, {'skip'})

    def test_failure_stays_a_failure(self):
        text = ENGINES_ALL_SKIP.replace('ok 1 ksft-utrace/utrace_engines # time=1s',
                                        'not ok 1 ksft-utrace/utrace_engines # exit=1 time=1s')
        rows, _ = ktap.parse(text.splitlines(True), {'ksft-utrace/utrace_engines': 'x'})
        self.assertEqual(program(rows, 'ksft-utrace/utrace_engines'), ('fail', 'exit=1 time=1s'))

    def test_program_without_tap_passes(self):
        # the x86 selftests print [OK] lines, not TAP
        text = ('KTAP version 1\n1..1\n# suite: ksft-x86/sigtrap_loop_64\n'
                '    [RUN]\tsigtrap_loop\n    [OK]\tsigtrap_loop\nok 1 ksft-x86/sigtrap_loop_64\n')
        rows, _ = ktap.parse(text.splitlines(True))
        self.assertEqual(program(rows, 'ksft-x86/sigtrap_loop_64')[0], 'pass')

    def test_may_skip_list_by_kernel(self):
        path = os.path.join(TOP, 'tests', 'may-skip.txt')
        self.assertIn('ksft-utrace/utrace_engines', ktap.load_may_skip(path, 'utrace-off'))
        for kernel in ('utrace-on', 'debug'):
            allowed = ktap.load_may_skip(path, kernel)
            # the engine selftests must run wherever CONFIG_UTRACE=y
            self.assertNotIn('ksft-utrace/utrace_engines', allowed)
            # the programs tests/build-programs.sh does not run in the guest
            self.assertIn('ksft-x86/mov_ss_trap_64', allowed)

    def test_programs_build_sh_does_not_run_may_skip(self):
        with open(os.path.join(TOP, 'tests', 'build-programs.sh')) as f:
            text = f.read()
        table = text[text.index('declare -A not_in_guest=('):]
        table = table[:table.index('\n)')]
        names = re.findall(r'^\s*\[(\w+)\]=', table, re.M)
        self.assertTrue(names)
        allowed = ktap.load_may_skip(os.path.join(TOP, 'tests', 'may-skip.txt'), 'utrace-on')
        for name in names:
            self.assertIn(f'ksft-x86/{name}', allowed,
                          'tests/build-programs.sh does not run it: list it in tests/may-skip.txt')

    def test_main_with_may_skip_file(self):
        with tempfile.TemporaryDirectory() as d:
            log, lst = os.path.join(d, 'output.log'), os.path.join(d, 'may-skip')
            with open(log, 'w') as f:
                f.write(ENGINES_ALL_SKIP)
            with open(lst, 'w') as f:
                f.write('# comment\nksft-utrace/utrace_engines\tutrace-off,debug\tno utrace\n')
            for kernel, want in (('utrace-off', 'skip'), ('utrace-on', 'fail')):
                out, err = io.StringIO(), io.StringIO()
                with redirect_stdout(out), redirect_stderr(err):
                    rc = ktap.main(['ktap.py', '--kernel', kernel, '--may-skip', lst, log])
                self.assertEqual(rc, 0)
                self.assertIn(f'ksft-utrace/utrace_engines\t(program)\t{want}\t', out.getvalue())
                self.assertEqual('ran nothing on utrace-on' in err.getvalue(), want == 'fail')


class TestCommandLine(unittest.TestCase):
    """Bad input is one line on stderr and exit 2, never a traceback."""

    def bad(self, *args, want=()):
        usage_error(self, 'tests/ktap.py', *args, want=want)

    def test_bad_arguments(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, 'output.log')
            with open(log, 'w') as f:
                f.write('1..0\n')
            self.bad(want=['OUTPUT_LOG'])
            self.bad(log, log, want=['unrecognized'])
            self.bad('--bogus', log, want=['--bogus'])
            self.bad('--kernel', 'utrace-on', log, want=['--may-skip'])
            self.bad(log, '--may-skip', want=['--may-skip'])

    def test_missing_files(self):
        with tempfile.TemporaryDirectory() as d:
            log, lst = os.path.join(d, 'output.log'), os.path.join(d, 'may-skip')
            self.bad(log, want=[log, 'No such file'])
            with open(log, 'w') as f:
                f.write('1..0\n')
            self.bad('--kernel', 'utrace-on', '--may-skip', lst, log, want=[lst, 'No such file'])


if __name__ == '__main__':
    unittest.main()
