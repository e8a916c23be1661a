"""tests/verdicts.py: the result words live there, and the programs use them."""
import ast
import os
import subprocess
import sys
import tempfile
import unittest

from tests.harness.load import TOP, load

v = load('tests/verdicts.py')
PROGRAMS = ('tests/ktap.py', 'tests/kunit_rows.py', 'tests/side_by_side.py', 'tests/kcidb.py',
            'tests/clients/transcripts.py')


class TestWords(unittest.TestCase):
    def test_good_words_are_words(self):
        self.assertLessEqual(v.GOOD, set(v.WORDS))
        self.assertNotIn(v.FAIL, v.GOOD)
        self.assertNotIn(v.XPASS, v.GOOD)

    def test_every_word_has_a_kcidb_status(self):
        self.assertEqual(set(v.KCIDB), set(v.WORDS))
        self.assertLessEqual(set(v.KCIDB_NOTE), set(v.WORDS))

    def test_no_program_spells_a_word_itself(self):
        # A string constant that is a result word means a second place
        # that knows the words (docstrings and comments may name them).
        for rel in PROGRAMS:
            with open(os.path.join(TOP, rel)) as f:
                tree = ast.parse(f.read(), rel)
            found = [(n.lineno, n.value) for n in ast.walk(tree)
                     if isinstance(n, ast.Constant) and n.value in v.WORDS]
            with self.subTest(program=rel):
                self.assertEqual(found, [], f'{rel}: use tests/verdicts.py\'s names')


class TestCounts(unittest.TestCase):
    ROWS = [['pass', 'pass'], ['skip', 'n/a'], ['xfail', 'xfail'], ['pass', 'fail'],
            ['missing', 'pass'], ['xpass', 'xpass'], ['skip', 'pass'], ['pass', 'flaky']]

    def test_counts(self):
        self.assertEqual(v.counts(self.ROWS), (3, 3, 2))

    def test_flaky_compares_as_a_pass(self):
        self.assertEqual(v.comparable(v.FLAKY), v.PASS)
        self.assertEqual(v.comparable(v.FAIL), v.FAIL)
        self.assertIn(v.FLAKY, v.GOOD)
        self.assertEqual(v.KCIDB[v.FLAKY], 'ERROR')

    def run_on_table(self, command):
        """verdicts.py COMMAND on a table of ROWS: (status, stdout, stderr)."""
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, 'compare.tsv')
            with open(p, 'w') as f:
                f.write('suite\ttest\tutrace-off\tutrace-on\n')
                for i, r in enumerate(self.ROWS):
                    f.write('\t'.join(['s', f't{i}'] + r) + '\n')
            r = subprocess.run([sys.executable, os.path.join(TOP, 'tests', 'verdicts.py'),
                                command, p], capture_output=True, text=True)
        return r.returncode, r.stdout, r.stderr

    def test_command_line(self):
        self.assertEqual(self.run_on_table('counts'), (0, '3 3 2\n', ''))

    def test_failing_rows_by_name(self):
        self.assertEqual(self.run_on_table('failing'),
                         (0, 's t3: pass fail\ns t4: missing pass\ns t5: xpass xpass\n', ''))

    def test_bad_input_is_one_line(self):
        for args in ([], ['counts'], ['failing'], ['counts', '/nonexistent/compare.tsv'],
                     ['failing', '/nonexistent/compare.tsv']):
            r = subprocess.run([sys.executable, os.path.join(TOP, 'tests', 'verdicts.py'), *args],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 2)
            self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
            self.assertTrue(r.stderr.startswith('verdicts.py: '), r.stderr)


if __name__ == '__main__':
    unittest.main()
