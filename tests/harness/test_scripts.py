"""Every shell script of the workbench parses (bash -n): a syntax error in a
rarely run path (make check's per-patch builds) must not wait for that run.
And shellcheck has nothing to say about any of them (.shellcheckrc lets it
follow the scripts' '. "$(dirname "$0")/lib.sh"')."""
import glob
import os
import shutil
import subprocess
import unittest

from tests.harness.load import TOP

DIRS = ('scripts', 'checks', 'boot', 'tests', 'bench', '.ci')
SHELLS = (b'sh', b'bash', b'dash')


def shell_shebang(first):
    """Is FIRST a '#!' line for a shell (#!/bin/sh, #!/usr/bin/env bash)?"""
    words = first[2:].split() if first.startswith(b'#!') else []
    if words and os.path.basename(words[0]) == b'env':
        words = words[1:]
    return bool(words) and os.path.basename(words[0]) in SHELLS


def scripts():
    found = []
    for d in DIRS:
        for path in glob.glob(os.path.join(TOP, d, '**', '*'), recursive=True):
            if not os.path.isfile(path):
                continue
            with open(path, 'rb') as f:
                first = f.readline()
            if path.endswith('.sh') or shell_shebang(first):
                found.append(path)
    return sorted(found)


class ScriptsParse(unittest.TestCase):
    def test_there_are_scripts(self):
        self.assertIn(os.path.join(TOP, 'checks', 'series-build.sh'), scripts())
        self.assertIn(os.path.join(TOP, 'boot', 'qemu-run'), scripts())

    def test_bash_n(self):
        for path in scripts():
            with self.subTest(script=os.path.relpath(path, TOP)):
                r = subprocess.run(['bash', '-n', path], capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, f'{path} does not parse:\n{r.stderr}')

    def test_catches_a_syntax_error(self):
        r = subprocess.run(['bash', '-n', '/dev/stdin'], input='die "unterminated\n',
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)

    def test_shell_shebangs(self):
        for line in (b'#!/bin/sh\n', b'#!/bin/bash -e\n', b'#!/usr/bin/env bash\n', b'#! /bin/dash\n'):
            self.assertTrue(shell_shebang(line), line)
        for line in (b'#!/usr/bin/env python3\n', b'#!/usr/bin/perl\n', b'# sh\n', b'#!\n', b''):
            self.assertFalse(shell_shebang(line), line)


@unittest.skipUnless(shutil.which('shellcheck'),
                     'shellcheck is not installed (make deps installs Debian\'s shellcheck)')
class ShellCheck(unittest.TestCase):
    def shellcheck(self, *args, **kw):
        return subprocess.run(['shellcheck', '-x', '-f', 'gcc', *args], cwd=TOP,
                              capture_output=True, text=True, **kw)

    def test_clean(self):
        paths = [os.path.relpath(p, TOP) for p in scripts()]
        r = self.shellcheck(*paths)
        findings = r.stdout.splitlines()
        if findings:
            self.fail(f'shellcheck: {len(findings)} finding(s); fix them, or disable one on its '
                      'line with a reason (# shellcheck disable=SCnnnn # why):\n' + '\n'.join(findings))
        self.assertEqual(r.returncode, 0, f'shellcheck failed:\n{r.stderr}')

    def test_catches_a_finding(self):
        r = self.shellcheck('-s', 'bash', '-', input='#!/bin/bash\necho $1\n')
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn('[SC2086]', r.stdout)


if __name__ == '__main__':
    unittest.main()
