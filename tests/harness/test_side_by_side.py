"""tests/side_by_side.py: identical rows pass, any difference or failure fails."""
import io
import os
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

from tests.harness.load import TOP, load, one_line_error, usage_error, write_tsv

cmp = load('tests/side_by_side.py')


def tsv(d, name, rows):
    return write_tsv(d, name, rows, end='\t\n')


class TestCompare(unittest.TestCase):
    def run_compare(self, off, on):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, 'compare.tsv')
            args = ['side_by_side.py', out, 'utrace-off=' + tsv(d, 'off', off)]
            if on is not None:
                args.append('utrace-on=' + tsv(d, 'on', on))
            rc = cmp.main(args)
            with open(out) as f:
                return rc, f.read().splitlines()

    def test_identical_passing_rows(self):
        rows = [('a', 't1', 'pass'), ('a', 't2', 'skip')]
        rc, lines = self.run_compare(rows, rows)
        self.assertEqual(rc, 0)
        self.assertEqual(lines[0], 'suite\ttest\tutrace-off\tutrace-on')
        self.assertEqual(lines[1], 'a\tt1\tpass\tpass')

    def test_difference_fails(self):
        rc, _ = self.run_compare([('a', 't1', 'pass')], [('a', 't1', 'fail')])
        self.assertEqual(rc, 1)

    def test_skip_versus_pass_is_a_difference(self):
        rc, _ = self.run_compare([('a', 't1', 'pass')], [('a', 't1', 'skip')])
        self.assertEqual(rc, 1)

    def test_row_missing_on_one_kernel(self):
        rc, lines = self.run_compare([('a', 't1', 'pass'), ('a', 't2', 'pass')],
                                     [('a', 't1', 'pass')])
        self.assertEqual(rc, 1)
        self.assertIn('a\tt2\tpass\tmissing', lines)

    def test_failure_on_both_kernels_still_fails(self):
        rc, _ = self.run_compare([('a', 't1', 'fail')], [('a', 't1', 'fail')])
        self.assertEqual(rc, 1)

    def test_single_kernel_column(self):
        rc, lines = self.run_compare([('a', 't1', 'pass')], None)
        self.assertEqual(rc, 0)
        self.assertEqual(lines[0], 'suite\ttest\tutrace-off')


def run_with_list(off, name, other, option, reason):
    """Compare utrace-off with column NAME, with a list naming row a.t1
    (and REASON) given as OPTION (a function of the list's path).
    Returns the exit status, the table's lines and what was printed."""
    with tempfile.TemporaryDirectory() as d:
        listed = os.path.join(d, 'list')
        with open(listed, 'w') as f:
            f.write(f'# comment\na\tt1\t{reason}\n')
        out = os.path.join(d, 'compare.tsv')
        buf = io.StringIO()
        with redirect_stdout(buf):
            rc = cmp.main(['side_by_side.py', out, 'utrace-off=' + tsv(d, 'off', off),
                           f'{name}=' + tsv(d, name, other)] + option(listed))
        with open(out) as f:
            return rc, f.read().splitlines(), buf.getvalue()


class TestKnownFailures(unittest.TestCase):
    def run_known(self, off, on):
        rc, lines, _ = run_with_list(off, 'utrace-on', on, lambda p: ['--known', p],
                                     'upstream bug')
        return rc, lines

    def test_known_failure_on_both_is_xfail(self):
        rc, lines = self.run_known([('a', 't1', 'fail')], [('a', 't1', 'fail')])
        self.assertEqual(rc, 0)
        self.assertIn('a\tt1\txfail\txfail', lines)

    def test_known_failure_that_passes_is_flagged(self):
        rc, lines = self.run_known([('a', 't1', 'pass')], [('a', 't1', 'pass')])
        self.assertEqual(rc, 1)
        self.assertIn('a\tt1\txpass\txpass', lines)

    def test_known_failure_on_one_kernel_only_differs(self):
        rc, _ = self.run_known([('a', 't1', 'fail')], [('a', 't1', 'pass')])
        self.assertEqual(rc, 1)

    def test_unlisted_failure_still_fails(self):
        rc, _ = self.run_known([('a', 't2', 'fail')], [('a', 't2', 'fail')])
        self.assertEqual(rc, 1)


class TestChanged(unittest.TestCase):
    """--changed: rows the series changes on purpose, in the base column."""

    def run_changed(self, base, off):
        return run_with_list(off, 'base', base, lambda p: ['--changed', 'base=' + p],
                             'the series fixes it')

    def test_listed_row_that_differs_reads_changed(self):
        rc, lines, text = self.run_changed([('a', 't1', 'fail')], [('a', 't1', 'pass')])
        self.assertEqual(rc, 0)
        self.assertIn('a\tt1\tpass\tchanged', lines)
        self.assertIn('compare: CHANGED a.t1: base=fail on purpose (the series fixes it)', text)

    def test_listed_row_that_reads_the_same_is_stale(self):
        rc, lines, text = self.run_changed([('a', 't1', 'pass')], [('a', 't1', 'pass')])
        self.assertEqual(rc, 1)
        self.assertIn('a\tt1\tpass\tunchanged', lines)
        self.assertIn('compare: UNCHANGED a.t1', text)

    def test_the_other_columns_are_still_judged(self):
        rc, lines, _ = self.run_changed([('a', 't1', 'pass')], [('a', 't1', 'fail')])
        self.assertEqual(rc, 1)
        self.assertIn('a\tt1\tfail\tchanged', lines)

    def test_unlisted_difference_still_fails(self):
        rc, _, _ = self.run_changed([('a', 't2', 'fail')], [('a', 't2', 'pass')])
        self.assertEqual(rc, 1)


class TestOnlyOn(unittest.TestCase):
    """--only: suites that exist on one kernel only (utrace engine tests)."""

    def run_only(self, off, on):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, 'compare.tsv')
            rc = cmp.main(['side_by_side.py', out, 'utrace-off=' + tsv(d, 'off', off),
                           'utrace-on=' + tsv(d, 'on', on), '--only', 'utrace-on=ksft-utrace/'])
            with open(out) as f:
                return rc, f.read().splitlines()

    def test_skipped_and_missing_elsewhere_read_na(self):
        rc, lines = self.run_only([('ksft-utrace/e', '(program)', 'skip')],
                                  [('ksft-utrace/e', '(program)', 'pass'),
                                   ('ksft-utrace/e', 'order', 'pass')])
        self.assertEqual(rc, 0)
        self.assertIn('ksft-utrace/e\t(program)\tn/a\tpass', lines)
        self.assertIn('ksft-utrace/e\torder\tn/a\tpass', lines)

    def test_failure_on_the_kernel_that_runs_it_fails(self):
        rc, _ = self.run_only([('ksft-utrace/e', '(program)', 'skip')],
                              [('ksft-utrace/e', '(program)', 'fail')])
        self.assertEqual(rc, 1)

    def test_missing_on_the_kernel_that_runs_it_fails(self):
        rc, lines = self.run_only([('ksft-utrace/e', '(program)', 'skip')], [('a', 't', 'pass')])
        self.assertEqual(rc, 1)
        self.assertIn('ksft-utrace/e\t(program)\tn/a\tmissing', lines)

    def test_running_where_it_should_not_is_compared(self):
        rc, _ = self.run_only([('ksft-utrace/e', 'order', 'fail')],
                              [('ksft-utrace/e', 'order', 'pass')])
        self.assertEqual(rc, 1)

    def test_other_suites_are_still_compared(self):
        rc, _ = self.run_only([('a', 't', 'skip')], [('a', 't', 'pass')])
        self.assertEqual(rc, 1)


class TestBystanderColumn(unittest.TestCase):
    """Three columns; the bystander column leaves the engine selftests out."""

    NAMES = ('utrace-off', 'utrace-on', 'utrace-on+bystander')

    def run_three(self, off, on, by, without=True):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, 'compare.tsv')
            args = ['side_by_side.py', out] + [f'{n}=' + tsv(d, str(i), rows)
                                          for i, (n, rows) in enumerate(zip(self.NAMES,
                                                                            (off, on, by)))]
            args += ['--only', 'utrace-on=ksft-utrace/']
            if without:
                args += ['--without', 'utrace-on+bystander=ksft-utrace/']
            buf = io.StringIO()
            with redirect_stdout(buf):
                rc = cmp.main(args)
            with open(out) as f:
                return rc, f.read().splitlines(), buf.getvalue()

    ROWS = [('ptrace/a', 't', 'pass'), ('ptrace/a', '(program)', 'pass')]
    ENGINES_OFF = [('ksft-utrace/e', '(program)', 'skip')]
    ENGINES_ON = [('ksft-utrace/e', 'order', 'pass'), ('ksft-utrace/e', '(program)', 'pass')]

    def test_left_out_rows_read_na_and_all_three_match(self):
        rc, lines, text = self.run_three(self.ROWS + self.ENGINES_OFF,
                                         self.ROWS + self.ENGINES_ON, self.ROWS)
        self.assertEqual(rc, 0)
        self.assertEqual(lines[0], 'suite\ttest\t' + '\t'.join(self.NAMES))
        self.assertIn('ptrace/a\tt\tpass\tpass\tpass', lines)
        self.assertIn('ksft-utrace/e\torder\tn/a\tpass\tn/a', lines)
        self.assertIn('ksft-utrace/e\t(program)\tn/a\tpass\tn/a', lines)
        # the long column name keeps the printed table aligned
        self.assertIn('utrace-on+bystander', text.splitlines()[0])

    def test_a_left_out_suite_that_ran_is_unexpected(self):
        for res in ('pass', 'skip', 'fail'):
            rc, lines, text = self.run_three(
                self.ROWS + self.ENGINES_OFF, self.ROWS + self.ENGINES_ON,
                self.ROWS + [('ksft-utrace/e', '(program)', res)])
            self.assertEqual(rc, 1, res)
            self.assertIn('ksft-utrace/e\t(program)\tn/a\tpass\tunexpected', lines)
            self.assertIn('UNEXPECTED ksft-utrace/e.(program): utrace-on+bystander', text)

    def test_bystander_difference_fails(self):
        rc, _, text = self.run_three(self.ROWS, self.ROWS,
                                     [('ptrace/a', 't', 'fail'), ('ptrace/a', '(program)', 'fail')])
        self.assertEqual(rc, 1)
        self.assertIn('DIFFERS ptrace/a.t', text)

    def test_row_missing_from_the_bystander_column_fails(self):
        rc, lines, _ = self.run_three(self.ROWS, self.ROWS, self.ROWS[:1])
        self.assertEqual(rc, 1)
        self.assertIn('ptrace/a\t(program)\tpass\tpass\tmissing', lines)

    def test_without_applies_to_its_column_only(self):
        # utrace-off lacks an ordinary row: --without does not excuse that
        rc, lines, _ = self.run_three(self.ROWS[:1], self.ROWS, self.ROWS)
        self.assertEqual(rc, 1)
        self.assertIn('ptrace/a\t(program)\tmissing\tpass\tpass', lines)

    def test_absent_bystander_column_is_not_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, 'compare.tsv')
            with redirect_stdout(io.StringIO()) as buf:
                rc = cmp.main(['side_by_side.py', out, 'utrace-off=' + tsv(d, 'off', self.ROWS),
                               'utrace-on=' + tsv(d, 'on', self.ROWS),
                               '--without', 'utrace-on+bystander=ksft-utrace/',
                               '--absent', 'utrace-on+bystander=no test module yet'])
            self.assertEqual(rc, 0)
            self.assertIn('no utrace-on+bystander column: no test module yet', buf.getvalue())


class TestCommandLine(unittest.TestCase):
    """As scripts/compare.sh and scripts/debug.sh call it; bad input is one
    line on stderr and exit 2, never a traceback."""

    ROWS = [('a', 't1', 'pass')]

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.d = tmp.name
        self.out = os.path.join(self.d, 'compare.tsv')
        self.off = 'utrace-off=' + tsv(self.d, 'off', self.ROWS)
        self.on = 'utrace-on=' + tsv(self.d, 'on', self.ROWS)
        self.known = os.path.join(self.d, 'known')
        with open(self.known, 'w') as f:
            f.write('# none\n')

    def bad(self, *args, want=()):
        usage_error(self, 'tests/side_by_side.py', *args, want=want)
        self.assertFalse(os.path.exists(self.out), 'OUT_TSV written despite bad input')

    def test_options_among_the_columns(self):
        r = subprocess.run([sys.executable, os.path.join(TOP, 'tests/side_by_side.py'), self.out, self.off,
                            '--absent', 'utrace-on+bystander=not built = yet', self.on,
                            '--known', self.known, '--only', 'utrace-on=ksft-utrace/',
                            '--without', 'utrace-on+bystander=ksft-utrace/'],
                           capture_output=True, text=True)
        self.assertEqual((r.returncode, r.stderr), (0, ''))
        self.assertIn('compare: no utrace-on+bystander column: not built = yet', r.stdout)
        self.assertIn('compare: OK: 1 rows identical on utrace-off, utrace-on', r.stdout)
        with open(self.out) as f:
            self.assertEqual(f.read(), 'suite\ttest\tutrace-off\tutrace-on\na\tt1\tpass\tpass\n')

    def test_unknown_option(self):
        self.bad(self.out, self.off, '--bogus', want=['--bogus'])
        self.bad(self.out, self.off, '--know', self.known, want=['--know'])  # no abbreviations

    def test_wrong_argument_count(self):
        self.bad(want=['required'])
        self.bad(self.out, want=['required', 'NAME=RESULTS_TSV'])
        self.bad(self.out, '--known', self.known, want=['NAME=RESULTS_TSV'])
        self.bad(self.out, self.off, '--only', want=['--only'])

    def test_not_name_equals_value(self):
        self.bad(self.out, os.path.join(self.d, 'off'), want=['is not NAME=RESULTS_TSV'])
        self.bad(self.out, self.off, '--absent', 'no-equals-sign', want=['--absent', 'NAME=REASON'])
        self.bad(self.out, self.off, '--without', 'x', want=['--without'])

    def test_missing_results_file(self):
        missing = os.path.join(self.d, 'nonexistent.tsv')
        self.bad(self.out, self.off, 'utrace-on=' + missing, want=[missing, 'No such file'])

    def test_missing_known_file(self):
        missing = os.path.join(self.d, 'nonexistent.txt')
        self.bad(self.out, self.off, '--known', missing, want=[missing, 'No such file'])

    def test_results_file_is_a_directory(self):
        self.bad(self.out, 'utrace-off=' + self.d, want=[self.d])

    def test_out_cannot_be_written(self):
        out = os.path.join(self.d, 'no', 'such', 'dir.tsv')
        rc, line = one_line_error(self, 'tests/side_by_side.py', out, self.off)
        self.assertEqual(rc, 2)
        self.assertIn(out, line)


if __name__ == '__main__':
    unittest.main()
