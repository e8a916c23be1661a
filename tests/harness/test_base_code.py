"""checks/base_code.py: the same code at other addresses compares equal,
a changed function or a listed function that did not change fails."""
import os
import shutil
import subprocess
import tempfile
import unittest

from tests.harness.load import TOP

TOOL = os.path.join(TOP, 'checks', 'base_code.py')

# Two programs: 'other' has a new function before the others (so every
# address moves) and one changed function.
BASE = """
int counter;
static const char msg[] = "hello";
__attribute__((noinline)) int same(int x) { counter += x; return msg[x & 3]; }
__attribute__((noinline)) int changed(int x) { return x * 3; }
volatile int sink;
void _start(void) { sink = same(1) + changed(2); }
"""
OTHER = """
int counter;
__attribute__((noinline)) int added(int x) { return x + 100; }
static const char msg[] = "hello";
__attribute__((noinline)) int same(int x) { counter += x; return msg[x & 3]; }
__attribute__((noinline)) int changed(int x) { return x * 5; }
volatile int sink;
void _start(void) { sink = same(1) + changed(2) + added(3); }
"""


@unittest.skipUnless(shutil.which('gcc') and shutil.which('objdump'), 'needs gcc and objdump')
class BaseCode(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)
        for name, src in (('base', BASE), ('other', OTHER)):
            c = os.path.join(self.d, name + '.c')
            with open(c, 'w') as f:
                f.write(src)
            # Linked at a kernel address like vmlinux, never run.
            subprocess.run(['gcc', '-O2', '-fno-inline', '-fno-pie', '-nostdlib', '-static', '-no-pie',
                            '-mcmodel=kernel', '-Wl,-Ttext=0xffffffff81000000',
                            '-o', os.path.join(self.d, name), c], check=True)

    def run_tool(self, allow=None, a='base', b='other'):
        args = [TOOL]
        if allow is not None:
            p = os.path.join(self.d, 'allow.txt')
            with open(p, 'w') as f:
                f.write(allow)
            args += ['--allow', p]
        args += [os.path.join(self.d, a), os.path.join(self.d, b)]
        return subprocess.run(args, capture_output=True, text=True)

    def test_identical_images(self):
        r = self.run_tool(b='base')
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn(' 0 problem(s)', r.stdout)

    def test_moved_code_is_the_same_changed_code_is_not(self):
        r = self.run_tool()
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn('DIFFERS changed (differs)', r.stdout)
        self.assertIn('DIFFERS added (only in ', r.stdout)
        self.assertNotIn(' same ', r.stdout)

    def test_listed_differences_pass(self):
        r = self.run_tool('# comment\nchanged\ton purpose\nadded\tnew\n_start\tcalls added\n')
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn('changed on purpose changed (differs): on purpose', r.stdout)

    def test_listed_function_that_did_not_change_fails(self):
        r = self.run_tool('changed\tx\nadded\ty\n_start\tz\nsame\tclaimed\n')
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn('UNCHANGED same', r.stdout)

    def test_bad_list_line(self):
        r = self.run_tool('changed on purpose\n')
        self.assertNotEqual(r.returncode, 0)
        self.assertIn('want "function<TAB>reason"', r.stderr)


if __name__ == '__main__':
    unittest.main()
