"""scripts/rfc.sh (make rfc): the whole stack as one RFC series, and the
stable fix on its own.  Run on a toy kernel tree (a few files, the three
topic branches, the stable fix), so no kernel is needed:
the version and changelog rules, the cover letter filled in with no
placeholder left, the numbering, the git am checks and the Cc: stable
rule."""
import os
import re
import subprocess
import tempfile
import unittest

from tests.harness.load import TOP

RFC = os.path.join(TOP, 'scripts', 'rfc.sh')
FIX = 'ptrace: drop the step state when the tracer exits while we are stopped'
TEST = 'selftests/ptrace: add step_tracer_exit, step state after the tracer exits'
COVER = 'toy: a subject for the cover letter\n\nThe text of the cover letter.\n'


class RfcScript(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.d = self.tmp.name
        self.env = dict(os.environ, HOME=self.d, GIT_CONFIG_NOSYSTEM='1',
                        GIT_AUTHOR_NAME='A Developer', GIT_AUTHOR_EMAIL='dev@example.org',
                        GIT_COMMITTER_NAME='A Developer', GIT_COMMITTER_EMAIL='dev@example.org',
                        GIT_AUTHOR_DATE='2026-12-03T10:00:00Z',
                        GIT_COMMITTER_DATE='2026-12-03T10:00:00Z',
                        LINUX_DIR=os.path.join(self.d, 'linux'), BUILD=os.path.join(self.d, 'build'),
                        RFC_DIR=os.path.join(self.d, 'rfc'), TMPDIR=self.d)
        os.makedirs(self.env['RFC_DIR'])
        self.rfc_files('1\n', COVER, 'v1: first posting\n')

    def rfc_files(self, version, cover, changelog):
        for name, text in (('version', version), ('cover.txt', cover), ('changelog.txt', changelog)):
            with open(os.path.join(self.env['RFC_DIR'], name), 'w') as f:
                f.write(text)

    def git(self, *args):
        subprocess.run(['git', '-C', self.env['LINUX_DIR'], *args], env=self.env, check=True,
                       capture_output=True)

    def commit(self, subject, files, body='', mode=None):
        for path, text in files.items():
            p = os.path.join(self.env['LINUX_DIR'], path)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, 'w') as f:
                f.write(text)
            if mode:
                os.chmod(p, mode)
            self.git('add', path)
        self.git('commit', '-q', '-m', f'{subject}\n\n{body}Signed-off-by: A Developer <dev@example.org>')

    def toy_tree(self, fix_needs_earlier=False):
        """base; stepping-fixes: a selftest, the fix, its test; utrace-core;
        utrace-ptrace; utrace-gdb.  With fix_needs_earlier the selftest before the fix
        changes the line the fix changes, so the fix does not apply on base
        alone."""
        os.makedirs(self.env['LINUX_DIR'])
        self.git('init', '-q', '-b', 'import')
        mk = 'tools/testing/selftests/ptrace/Makefile'
        sig = ''.join(f'line {i}\n' for i in range(20))
        self.commit('import', {'kernel/signal.c': sig, mk: 'TEST_GEN_PROGS := a\n\ninclude ../lib.mk\n'})
        self.git('tag', 'base')
        self.git('checkout', '-q', '-b', 'stepping-fixes')
        early = {mk: 'TEST_GEN_PROGS := a\nTEST_GEN_PROGS += step_fork\n\ninclude ../lib.mk\n'}
        if fix_needs_earlier:
            sig = sig.replace('line 5\n', 'line 5, moved\n')
            early['kernel/signal.c'] = sig
        self.commit('selftests/ptrace: add step_fork, stepping across fork/vfork/clone', early)
        self.commit(FIX, {'kernel/signal.c': sig.replace('line 5', 'line 5, fixed')},
                    body='Why.\n\nFixes: 1da177e4c3f4 ("Linux-2.6.12-rc2")\n')
        self.commit(TEST, {'tools/testing/selftests/ptrace/step_tracer_exit.c':
                           'int main(void) { return 0; }\n',
                           mk: ('TEST_GEN_PROGS := a\nTEST_GEN_PROGS += step_fork step_tracer_exit\n\n'
                                'include ../lib.mk\n')})
        self.git('checkout', '-q', '-b', 'utrace-core')
        self.commit('utrace: add the engine API', {'kernel/utrace.c': 'utrace\n',
                                                   'tools/testing/selftests/utrace/run.sh': '#!/bin/sh\n'},
                    mode=0o755)
        self.git('checkout', '-q', '-b', 'utrace-ptrace')
        self.commit('ptrace: make ptrace a utrace engine', {'kernel/signal.c': sig + 'utrace\n'})
        self.git('checkout', '-q', '-b', 'utrace-gdb')
        self.commit('utrace: add /proc/PID/gdb', {'kernel/utrace_gdb.c': 'gdb\n'})

    def run_rfc(self, *args):
        return subprocess.run([RFC, *args], env=self.env, capture_output=True, text=True)

    def read(self, *path):
        with open(os.path.join(self.env['BUILD'], 'rfc', *path)) as f:
            return f.read()

    def test_check_passes(self):
        self.toy_tree()
        r = self.run_rfc('--check')
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("git am on base gives utrace-gdb's tree", r.stderr)
        self.assertFalse(os.path.exists(self.env['BUILD']), '--check writes nothing to build/')

    def test_no_git_identity(self):
        """A fresh CI machine has no user.name or user.email: the cover
        letter is From: the top commit's author, and the checks still run."""
        self.toy_tree()
        for k in ('GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL'):
            del self.env[k]
        # No guess from the host name either.
        self.env.update(GIT_CONFIG_COUNT='1', GIT_CONFIG_KEY_0='user.useConfigOnly',
                        GIT_CONFIG_VALUE_0='true')
        who = subprocess.run(['git', '-C', self.env['LINUX_DIR'], 'var', 'GIT_COMMITTER_IDENT'],
                             env=self.env, capture_output=True)
        self.assertNotEqual(who.returncode, 0, 'the test needs a git without an identity')
        r = self.run_rfc()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('no user.name and user.email here', r.stderr)
        cover = self.read('v1', sorted(os.listdir(os.path.join(self.env['BUILD'], 'rfc', 'v1')))[0])
        self.assertIn('\nFrom: A Developer <dev@example.org>\n', cover)
        self.assertEqual(self.run_rfc('--check').returncode, 0)

    def test_long_changelog(self):
        """A changelog larger than a pipe's buffer: session 22's CI ended
        make rfc without a word (a pipe into head, SIGPIPE under
        pipefail, once rfc/changelog.txt passed 4 KiB); 95 KB here, more than a pipe holds."""
        self.toy_tree()
        self.rfc_files('2\n', COVER, 'v2: more\n' + 'A line of changes.\n' * 5000 + 'v1: first posting\n')
        r = self.run_rfc('--check')
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('v2, 6 patches', r.stderr)

    def test_no_git_transport(self):
        """A hardened git config that allows no transport (so no local
        'git clone'): the checks borrow the tree's objects all the same."""
        self.toy_tree()
        self.env.update(GIT_CONFIG_COUNT='1', GIT_CONFIG_KEY_0='protocol.allow',
                        GIT_CONFIG_VALUE_0='never')
        r = self.run_rfc('--check')
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("git am on base gives utrace-gdb's tree", r.stderr)

    def test_writes_the_series_and_the_stable_fix(self):
        self.toy_tree()
        r = self.run_rfc()
        self.assertEqual(r.returncode, 0, r.stderr)
        names = sorted(os.listdir(os.path.join(self.env['BUILD'], 'rfc', 'v1')))
        self.assertEqual(len(names), 7, names)
        cover = self.read('v1', names[0])
        self.assertIn('Subject: [RFC PATCH v1 0/6] toy: a subject for the cover letter\n', cover)
        self.assertIn('\nThe text of the cover letter.\n\nChangelog:\nv1: first posting\n', cover)
        self.assertIn('\nbase-commit: ', cover)
        self.assertNotIn('***', cover)
        self.assertIn('Subject: [RFC PATCH v1 5/6] ptrace: make ptrace', self.read('v1', names[5]))
        self.assertIn('Subject: [RFC PATCH v1 6/6] utrace: add /proc/PID/gdb', self.read('v1', names[6]))
        # The fix alone: its selftest needs the step test before it.
        stable = sorted(os.listdir(os.path.join(self.env['BUILD'], 'rfc', 'stable')))
        self.assertEqual(len(stable), 1, stable)
        fix = self.read('stable', stable[0])
        self.assertIn('Subject: [PATCH] ptrace: drop the step state', fix)
        self.assertRegex(fix, r'\n\nCc: stable@vger.kernel.org\nFixes: [^\n]*\nSigned-off-by: [^\n]*\n---\n')
        self.assertIn('\nbase-commit: ', fix)

    def test_stable_fix_that_needs_earlier_commits(self):
        self.toy_tree(fix_needs_earlier=True)
        r = self.run_rfc()
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(f"stable: the fix '{FIX}' does not apply with git am on base alone", r.stderr)
        self.assertIn('stepping-fixes', r.stderr)
        # The whole series is fine; there is no stable series.
        self.assertEqual(len(os.listdir(os.path.join(self.env['BUILD'], 'rfc', 'v1'))), 7)
        stable = os.path.join(self.env['BUILD'], 'rfc', 'stable')
        self.assertEqual(os.listdir(stable) if os.path.isdir(stable) else [], [])

    def test_changelog_needs_a_section_for_the_version(self):
        # No kernel tree: rfc/ is checked first.
        self.rfc_files('2\n', COVER, 'v1: first posting\n')
        r = self.run_rfc('--check')
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("has no section for v2 at its top", r.stderr)
        self.rfc_files('2\n', COVER, 'v1: first posting\n\nv2: later\n')
        self.assertIn("has no section for v2 at its top", self.run_rfc('--check').stderr)
        self.rfc_files('2\n', COVER, 'v2: later\nv2: twice\n')
        self.assertIn('newest first, each version once', self.run_rfc('--check').stderr)

    def test_rfc_files_are_checked(self):
        for version, cover, want in (('1.0\n', COVER, 'must hold one number'),
                                     ('1\n', 'subject\nno blank line\n', 'a blank line, then the text'),
                                     ('1\n', '[RFC PATCH] subject\n\ntext\n', 'without the [RFC PATCH'),
                                     ('1\n', COVER + 'x' * 73 + '\n', 'at most 72 columns'),
                                     ('1\n', COVER + '\tindented\n', 'printable ASCII')):
            with self.subTest(want=want):
                self.rfc_files(version, cover, 'v1: first posting\n')
                r = self.run_rfc('--check')
                self.assertNotEqual(r.returncode, 0)
                self.assertIn(want, r.stderr)

    def test_a_placeholder_left_fails(self):
        self.toy_tree()
        self.rfc_files('1\n', COVER + '*** BLURB HERE ***\n', 'v1: first posting\n')
        r = self.run_rfc('--check')
        self.assertNotEqual(r.returncode, 0)
        self.assertRegex(r.stderr, re.escape("still has git's placeholder '*** BLURB HERE ***'"))


if __name__ == '__main__':
    unittest.main()
