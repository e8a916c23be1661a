"""checks/checkpatch.sh: a broken patch in a series fails 'make check' with a clear message."""
import os
import subprocess
import tempfile
import unittest

from tests.harness.load import TOP

LINUX_DIR = os.environ.get('LINUX_DIR', os.path.join(TOP, 'build', 'linux'))

GOOD = """\
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: A Developer <dev@example.org>
Date: Thu, 3 Dec 2026 10:00:00 +0000
Subject: [PATCH] kernel/ptrace: explain the exit_code overloading

ptrace_stop() and ptrace_resume() both use task->exit_code, which is
easy to misread; say so where the field is written.

Signed-off-by: A Developer <dev@example.org>
---
 kernel/ptrace.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/kernel/ptrace.c b/kernel/ptrace.c
--- a/kernel/ptrace.c
+++ b/kernel/ptrace.c
@@ -1,3 +1,4 @@
 // SPDX-License-Identifier: GPL-2.0-only
+/* exit_code is both the stop code and the resume signal. */
 /*
  * linux/kernel/ptrace.c
  *
"""

# The same change, broken the way patches get broken: trailing white
# space, a C99 comment, an over-long line and no Signed-off-by.
BAD = GOOD.replace('Signed-off-by: A Developer <dev@example.org>\n', '').replace(
    '+/* exit_code is both the stop code and the resume signal. */',
    '+int exit_code_is_overloaded = 1;   // exit_code is both the stop code and the resume signal, see ptrace_stop() \t')


@unittest.skipUnless(os.path.exists(os.path.join(LINUX_DIR, 'scripts', 'checkpatch.pl')),
                     'needs the kernel tree (make tree) for checkpatch.pl')
class TestCheckpatchStage(unittest.TestCase):
    def run_on(self, patch):
        with tempfile.TemporaryDirectory() as d:
            series = os.path.join(d, 'branches', 'stepping-fixes')
            os.makedirs(series)
            os.makedirs(os.path.join(d, 'results'))
            with open(os.path.join(series, '0001-x.patch'), 'w') as f:
                f.write(patch)
            with open(os.path.join(series, 'series'), 'w') as f:
                f.write('# test\n0001-x.patch\n')
            env = dict(os.environ, BUILD=d, LINUX_DIR=LINUX_DIR, TOP=TOP)
            p = subprocess.run([os.path.join(TOP, 'checks', 'checkpatch.sh'),
                                os.path.join(d, 'branches')],
                               env=env, capture_output=True, text=True)
            with open(os.path.join(d, 'results', 'check-checkpatch.counts')) as f:
                counts = f.read().split()
            return p.returncode, p.stdout + p.stderr, counts

    def test_clean_patch_passes(self):
        rc, out, counts = self.run_on(GOOD)
        self.assertEqual(rc, 0, out)
        self.assertEqual(counts, ['1', '0', '0'])

    def test_broken_patch_fails_and_says_why(self):
        rc, out, counts = self.run_on(BAD)
        self.assertEqual(rc, 1, out)
        self.assertEqual(counts, ['0', '1', '0'])
        self.assertIn('stepping-fixes/0001-x.patch is not clean', out)
        self.assertIn('MISSING_SIGN_OFF', out)
        self.assertIn('TRAILING_WHITESPACE', out)


if __name__ == '__main__':
    unittest.main()
