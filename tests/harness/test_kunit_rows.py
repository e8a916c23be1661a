"""tests/kunit_rows.py: the kernel KUnit parser's JSON -> one row per case.

data/kunit-console.log is a hand-written 6.12 console with KUnit output
(the utrace suite, a suite with a skip, a failure and a parameterised
case, a suite cut short, a suite whose init failed);
data/kunit-console.json is what the kernel's own parser made of it:

  tools/testing/kunit/kunit.py parse --json=$PWD/tests/harness/data/kunit-console.json \\
      $PWD/tests/harness/data/kunit-console.log

(from the linux-source-6.12 tree; kunit.py changes to the tree's top
directory, hence the absolute paths).  When the kernel tree is there, the
test runs the parser again and checks it still writes the same JSON.
"""
import io
import json
import os
import subprocess
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

from tests.harness.load import TOP, load, one_line_error, write_tsv

kr = load('tests/kunit_rows.py')
cmp = load('tests/side_by_side.py')

DATA = os.path.join(TOP, 'tests', 'harness', 'data')
CONSOLE = os.path.join(DATA, 'kunit-console.log')
JSON = os.path.join(DATA, 'kunit-console.json')
LINUX_DIR = os.environ.get('LINUX_DIR', os.path.join(TOP, 'build', 'linux'))
KUNIT = os.path.join(LINUX_DIR, 'tools', 'testing', 'kunit', 'kunit.py')

ROWS = [
    ('kunit/utrace', 'utrace_test_attach_flags', 'pass', ''),
    ('kunit/utrace', 'utrace_test_refcount', 'pass', ''),
    ('kunit/utrace', 'utrace_test_set_events', 'pass', ''),
    ('kunit/utrace', 'utrace_test_actions', 'pass', ''),
    ('kunit/example', 'example_simple_test', 'pass', ''),
    ('kunit/example', 'example_skip_test', 'skip', ''),
    ('kunit/example', 'example_fail_test', 'fail', ''),
    ('kunit/example', 'example_params_test/example value 3', 'pass', ''),
    ('kunit/example', 'example_params_test/example value 2', 'pass', ''),
    ('kunit/example', 'example_params_test/example value 1', 'pass', ''),
    ('kunit/example', 'example_params_test/example value 0', 'skip', ''),
    ('kunit/cut_short', 'cut_short_first', 'pass', ''),
    ('kunit/cut_short', '(missing 2)', 'fail', 'crashed: no result line'),
    ('kunit/cut_short', '(missing 3)', 'fail', 'crashed: no result line'),
    ('kunit/no_init', '(suite)', 'fail', ''),
]


def run_main(path):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = kr.main(['kunit_rows.py', path])
    return rc, out.getvalue().splitlines(), err.getvalue()


class TestKunitRows(unittest.TestCase):
    def test_every_case_is_a_row(self):
        with open(JSON) as f:
            self.assertEqual(kr.rows(json.load(f)), ROWS)

    def test_main_writes_a_results_file(self):
        rc, lines, _ = run_main(JSON)
        self.assertEqual(rc, 0)
        self.assertEqual(lines[0], 'suite\ttest\tresult\tdetail')
        self.assertEqual(lines[1:], ['\t'.join(r) for r in ROWS])

    def test_no_results_is_a_missing_row_and_exit_1(self):
        with open(JSON) as f:
            empty = dict(json.load(f), sub_groups=[], test_cases=[])  # kunit.py's JSON for no KTAP
        with tempfile.TemporaryDirectory() as d:
            for path, text in ((os.path.join(d, 'empty.json'), json.dumps(empty)),
                               (os.path.join(d, 'none.json'), None)):
                if text is not None:
                    with open(path, 'w') as f:
                        f.write(text)
                rc, lines, err = run_main(path)
                self.assertEqual(rc, 1)
                self.assertTrue(lines[1].startswith('kunit/(console)\t(results)\tmissing\t'), lines)
                self.assertIn('kunit_rows.py: ', err)

    def test_duplicate_names_are_kept_apart(self):
        data = {'sub_groups': [{'name': 's', 'sub_groups': [], 'test_cases': [
            {'name': 'x', 'status': 'PASS'}, {'name': 'x', 'status': 'FAIL'}]}], 'test_cases': []}
        self.assertEqual([t for _, t, _, _ in kr.rows(data)], ['x', 'x#2'])

    @unittest.skipUnless(os.path.exists(KUNIT), f'no kernel tree ({KUNIT})')
    def test_the_kernels_parser_still_writes_this_json(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, 'kunit.json')
            r = subprocess.run(['python3', KUNIT, 'parse', f'--json={out}', CONSOLE],
                               capture_output=True, text=True)
            # it exits 1: the sample has failing cases
            self.assertIn('Testing complete. Ran 15 tests', r.stdout, r.stdout + r.stderr)
            with open(out) as f, open(JSON) as g:
                self.assertEqual(json.load(f), json.load(g))


def tsv(d, name, rows):
    return write_tsv(d, name, rows)


class TestKunitRowsCompared(unittest.TestCase):
    """The KUnit rows in make compare: only utrace-on has CONFIG_KUNIT=y."""

    PROGRAMS = [('ptrace/a', '(program)', 'pass', '')]
    GOOD = ROWS[:4]

    def run_compare(self, kunit_on):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, 'compare.tsv')
            args = ['side_by_side.py', out, 'utrace-off=' + tsv(d, 'off', self.PROGRAMS),
                    'utrace-on=' + tsv(d, 'on', self.PROGRAMS),
                    'utrace-on=' + tsv(d, 'kunit', kunit_on),
                    'utrace-on+bystander=' + tsv(d, 'by', self.PROGRAMS),
                    '--only', 'utrace-on=kunit/']
            with redirect_stdout(io.StringIO()):
                rc = cmp.main(args)
            with open(out) as f:
                return rc, f.read().splitlines()

    def test_cases_read_na_where_there_is_no_kunit(self):
        rc, lines = self.run_compare(self.GOOD)
        self.assertEqual(rc, 0)
        self.assertIn('kunit/utrace\tutrace_test_refcount\tn/a\tpass\tn/a', lines)

    def test_one_failing_case_fails_the_run(self):
        bad = self.GOOD[:1] + [('kunit/utrace', 'utrace_test_refcount', 'fail', '')]
        rc, lines = self.run_compare(bad)
        self.assertEqual(rc, 1)
        self.assertIn('kunit/utrace\tutrace_test_refcount\tn/a\tfail\tn/a', lines)

    def test_no_kunit_output_fails_the_run(self):
        rc, lines = self.run_compare([kr.NO_RESULTS + ('no KTAP',)])
        self.assertEqual(rc, 1)
        self.assertIn('kunit/(console)\t(results)\tn/a\tmissing\tn/a', lines)

    def test_a_case_that_never_reported_fails_the_run(self):
        rc, _ = self.run_compare(self.GOOD + [ROWS[12]])
        self.assertEqual(rc, 1)


class TestCommandLine(unittest.TestCase):
    """Bad arguments are one line on stderr and exit 2, never a traceback
    (a missing JSON is a row, above)."""

    def test_bad_arguments(self):
        for args in ((), (JSON, JSON), ('--bogus', JSON)):
            rc, line = one_line_error(self, 'tests/kunit_rows.py', *args)
            self.assertEqual(rc, 2, line)
            self.assertTrue(line.startswith('kunit_rows.py: '), line)

    def test_missing_json_is_one_line_too(self):
        with tempfile.TemporaryDirectory() as d:
            rc, line = one_line_error(self, 'tests/kunit_rows.py', os.path.join(d, 'kunit.json'))
            self.assertEqual(rc, 1)
            self.assertIn('kunit.py wrote no JSON', line)


if __name__ == '__main__':
    unittest.main()
