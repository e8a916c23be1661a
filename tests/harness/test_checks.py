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


@unittest.skipUnless(os.path.exists(os.path.join(LINUX_DIR, '.git')),
                     'needs the kernel tree (make tree): checks/static/lib.sh reads its HEAD')
class TestFindings(unittest.TestCase):
    """checks/static/lib.sh: findings as 'path: message', and only the new ones count."""

    def sh(self, script, stdin=''):
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, BUILD=d, LINUX_DIR=LINUX_DIR, TOP=TOP)
            p = subprocess.run(['bash', '-c', '. checks/static/lib.sh && ' + script], cwd=TOP,
                               env=env, input=stdin, capture_output=True, text=True)
            tally = ''
            if os.path.exists(os.path.join(d, 'check', 'static.tally')):
                with open(os.path.join(d, 'check', 'static.tally')) as f:
                    tally = f.read()
        return p.returncode, p.stdout, p.stderr, tally

    def test_normalise(self):
        log = ('/src/kernel/a.c:12:3: warning: unused variable [-Wunused]\n'
               '/src/include/linux/u.h:4: warning: bad\n'
               'Documentation/t.rst:4: WARNING: x\n'
               'make[2]: *** [scripts/Makefile.build:244: kernel/a.o] Error 1\n')
        _, out, err, _ = self.sh('normalise /src', log)
        self.assertEqual(out, 'include/linux/u.h: warning: bad\n'
                              'kernel/a.c: warning: unused variable [-Wunused]\n', err)
        _, out, _, _ = self.sh("normalise /src 'c|h|rst'", log)
        self.assertIn('Documentation/t.rst: WARNING: x\n', out)

    def test_sphinx_findings(self):
        log = ('/src/Documentation/trace/utrace:411: /src/include/linux/utrace.h:182: '
               'WARNING: Inline literal start-string without end-string.\n'
               '/src/Documentation/trace/boottime-trace.rst:27: WARNING: undefined label\n'
               'WARNING: dot(1) not found\n'
               'Using alabaster theme\n')
        _, out, err, _ = self.sh('sphinx_findings /src', log)
        self.assertEqual(out.splitlines(), [
            '(htmldocs): WARNING: dot(1) not found',
            'Documentation/trace/boottime-trace.rst: WARNING: undefined label',
            'include/linux/utrace.h: WARNING: Inline literal start-string without end-string.'],
            err)

    def test_base_diff_counts_only_new_findings(self):
        script = ('printf "a.c: w1\\na.c: w1\\na.c: see line 12\\n" >"$BUILD/h"; '
                  'printf "a.c: w1\\na.c: see line 9\\n" >"$BUILD/b"; '
                  'mkdir -p "$BUILD/check"; base_diff sparse utrace-off a.c "$BUILD/h" "$BUILD/b"')
        rc, out, err, tally = self.sh(script)
        self.assertEqual(rc, 1, err)
        # The second 'w1' is new (repeats count); 'line 12' is 'line 9' moved.
        self.assertEqual(out, 'static: NEW sparse findings in a.c (utrace-off config):\n'
                              '    a.c: w1\n'
                              "static: (base's own sparse findings in a.c, utrace-off config, "
                              'not ours: 2)\n')
        self.assertEqual(tally, 'base 2\nnew 1\nbad utrace-off:a.c\n')
        # No config (kernel-doc, htmldocs), nothing new: no tally line but the base's.
        script = ('printf "a.c: w1\\n" >"$BUILD/h"; printf "a.c: w1\\na.c: w2\\n" >"$BUILD/b"; '
                  'mkdir -p "$BUILD/check"; base_diff htmldocs "" a.c "$BUILD/h" "$BUILD/b"')
        rc, out, err, tally = self.sh(script)
        self.assertEqual((rc, tally), (0, 'base 2\n'), err)
        self.assertEqual(out, "static: (base's own htmldocs findings in a.c, not ours: 2)\n")


if __name__ == '__main__':
    unittest.main()
