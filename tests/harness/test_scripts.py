"""Every shell script of the workbench parses (bash -n): a syntax error in a
rarely run path (make check's per-patch builds) must not wait for that run."""
import glob
import os
import subprocess
import unittest

from tests.harness.load import TOP

DIRS = ('scripts', 'checks', 'boot', 'tests', 'bench', '.ci')


def scripts():
    found = []
    for d in DIRS:
        for path in glob.glob(os.path.join(TOP, d, '**', '*'), recursive=True):
            if not os.path.isfile(path):
                continue
            with open(path, 'rb') as f:
                first = f.readline()
            if path.endswith('.sh') or first.startswith(b'#!') and b'bash' in first:
                found.append(path)
    return sorted(found)


class ScriptsParse(unittest.TestCase):
    def test_there_are_scripts(self):
        self.assertIn(os.path.join(TOP, 'checks', 'series-build.sh'), scripts())

    def test_bash_n(self):
        for path in scripts():
            with self.subTest(script=os.path.relpath(path, TOP)):
                r = subprocess.run(['bash', '-n', path], capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, f'{path} does not parse:\n{r.stderr}')

    def test_catches_a_syntax_error(self):
        r = subprocess.run(['bash', '-n', '/dev/stdin'], input='die "unterminated\n',
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)


if __name__ == '__main__':
    unittest.main()
