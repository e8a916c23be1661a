"""tests/compare.py: identical rows pass, any difference or failure fails."""
import os
import tempfile
import unittest

from tests.harness.load import load

cmp = load('tests/compare.py')


def tsv(d, name, rows):
    p = os.path.join(d, name)
    with open(p, 'w') as f:
        f.write('suite\ttest\tresult\tdetail\n')
        for r in rows:
            f.write('\t'.join(r) + '\t\n')
    return p


class TestCompare(unittest.TestCase):
    def run_compare(self, off, on):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, 'compare.tsv')
            args = ['compare.py', out, 'utrace-off=' + tsv(d, 'off', off)]
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


if __name__ == '__main__':
    unittest.main()


class TestKnownFailures(unittest.TestCase):
    def run_known(self, off, on):
        with tempfile.TemporaryDirectory() as d:
            known = os.path.join(d, 'known')
            with open(known, 'w') as f:
                f.write('# comment\na\tt1\tupstream bug\n')
            out = os.path.join(d, 'compare.tsv')
            rc = cmp.main(['compare.py', out, 'utrace-off=' + tsv(d, 'off', off),
                           'utrace-on=' + tsv(d, 'on', on), '--known', known])
            with open(out) as f:
                return rc, f.read().splitlines()

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


class TestOnlyOn(unittest.TestCase):
    """--only: suites that exist on one kernel only (utrace engine tests)."""

    def run_only(self, off, on):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, 'compare.tsv')
            rc = cmp.main(['compare.py', out, 'utrace-off=' + tsv(d, 'off', off),
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
