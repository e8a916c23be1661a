"""tests/kcidb.py: compare tables -> one KCIDB document, valid by the schema.

The main case runs the real pipeline on the harness's sample data:
data/kunit-console.json through kunit_rows.py, plus a few KTAP-style rows,
through side_by_side.py (with --known, --only and --without, as
scripts/compare.sh calls it) into a three-column compare.tsv, and that
through kcidb.py.
"""
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

from tests.harness.load import TOP, load, write_tsv

kc = load('tests/kcidb.py')
kr = load('tests/kunit_rows.py')
cmp = load('tests/side_by_side.py')
vd = load('tests/verdicts.py')

SCHEMA = os.path.join(TOP, 'tests', 'kcidb', 'schema.json')
KUNIT_JSON = os.path.join(TOP, 'tests', 'harness', 'data', 'kunit-console.json')
BY = 'utrace-on+bystander'
BASE = '5e0d9c48bd980b102b0cc142ac89ac24dbfe763c'

try:
    import jsonschema
except ImportError:
    jsonschema = None
need_jsonschema = unittest.skipUnless(jsonschema, 'python3-jsonschema is not installed')

KTAP_ROWS = [
    ('ksft-ptrace/vmaccess', 'global.attach', 'fail', ''),
    ('ksft-ptrace/vmaccess', '(program)', 'fail', ''),
    ('ptrace/attach', 'attach.zombie', 'pass', ''),
    ('ptrace/attach', '(program)', 'pass', ''),
    ('ksft-x86/single_step_syscall_32', '(program)', 'skip', 'may skip here'),
    ('clients/gdb', 'transcript', 'pass', ''),
]
ENGINE_ROWS = [('ksft-utrace/utrace_engines', 'attach.detach', 'pass', '')]


def write(d, name, text):
    p = os.path.join(d, name)
    with open(p, 'w') as f:
        f.write(text)
    return p


def compare_tsv(d):
    """A compare.tsv as make compare writes it: three columns, n/a and xfail."""
    with open(KUNIT_JSON) as f:
        kunit = [r + ('',) if len(r) == 3 else r for r in kr.rows(json.load(f))]
    off = write_tsv(d, 'off.tsv', KTAP_ROWS + [('ksft-utrace/utrace_engines', 'attach.detach',
                                                'skip', '')])
    on = write_tsv(d, 'on.tsv', KTAP_ROWS + ENGINE_ROWS)
    on_kunit = write_tsv(d, 'kunit.tsv', kunit)
    by = write_tsv(d, 'by.tsv', KTAP_ROWS)
    known = write(d, 'known.txt', 'ksft-ptrace/vmaccess\tglobal.attach\tupstream\n'
                  'ksft-ptrace/vmaccess\t(program)\tupstream\n')
    out = os.path.join(d, 'compare.tsv')
    with redirect_stdout(io.StringIO()):
        cmp.main(['side_by_side.py', out, 'utrace-off=' + off, 'utrace-on=' + on,
                  'utrace-on=' + on_kunit, f'{BY}={by}', '--known', known,
                  '--only', 'utrace-on=ksft-utrace/', '--only', 'utrace-on=kunit/',
                  '--without', f'{BY}=ksft-utrace/'])
    return out


# The pinned base, as the shell callers pass it (scripts/lib.sh ref_args).
REF_ARGS = subprocess.run(['bash', '-c', '. scripts/lib.sh && ref_args'], cwd=TOP, check=True,
                          capture_output=True, text=True).stdout.split()


def run(args, ref=True):
    """(exit status, stdout, stderr) of kcidb.py ARGS (with REF_ARGS, unless not ref)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = kc.main(['kcidb.py'] + (REF_ARGS if ref else []) + args)
    return rc, out.getvalue(), err.getvalue()


def schema():
    with open(SCHEMA) as f:
        return json.load(f)


@need_jsonschema
class TestDocument(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.compare = compare_tsv(self.d)
        self.out = os.path.join(self.d, 'kcidb.json')

    def tearDown(self):
        self.tmp.cleanup()

    def doc(self, *extra):
        rc, out, err = run([self.out, self.compare, '--start-time', '2026-01-02T03:04:05+00:00']
                           + list(extra))
        self.assertEqual((rc, err), (0, ''))
        self.assertIn('KCIDB v5.3', out)
        with open(self.out) as f:
            return json.load(f)

    def test_valid_by_the_schema_copy(self):
        doc = self.doc('--series', os.path.join(TOP, 'branches', 'stepping-fixes'))
        jsonschema.Draft7Validator(schema(), format_checker=jsonschema.FormatChecker()) \
            .validate(doc)
        self.assertEqual(doc['version'], {'major': 5, 'minor': 3})

    def test_one_checkout_builds_per_config(self):
        doc = self.doc()
        [co] = doc['checkouts']
        self.assertEqual(co['git_commit_hash'], BASE)
        self.assertEqual(co['id'], 'utrace:' + BASE[:12])
        self.assertEqual([b['config_name'] for b in doc['builds']], ['utrace-off', 'utrace-on'])
        for b in doc['builds']:
            self.assertEqual((b['checkout_id'], b['architecture'], b['status']),
                             (co['id'], 'x86_64', 'PASS'))
        # The bystander column is the utrace-on build booted again.
        on = doc['builds'][1]['id']
        by = [t for t in doc['tests'] if t['misc']['column'] == BY]
        self.assertTrue(by)
        for t in by:
            self.assertEqual(t['build_id'], on)
            self.assertEqual(t['environment']['misc'], {'column': BY})

    def test_ids_unique_and_prefixed_by_origin(self):
        doc = self.doc('--origin', 'my_ci')
        ids = [o['id'] for k in ('checkouts', 'builds', 'tests') for o in doc[k]]
        self.assertEqual(len(ids), len(set(ids)))
        for k in ('checkouts', 'builds', 'tests'):
            for o in doc[k]:
                self.assertTrue(o['id'].startswith('my_ci:'), o['id'])
                self.assertEqual(o['origin'], 'my_ci')

    def test_one_test_per_row_and_column_without_na(self):
        doc = self.doc()
        with open(self.compare) as f:
            cells = [w for line in f.read().splitlines()[1:] for w in line.split('\t')[2:]]
        self.assertIn('n/a', cells)
        self.assertEqual(len(doc['tests']), len([w for w in cells if w != 'n/a']))

    def test_paths(self):
        doc = self.doc()
        paths = {(t['misc']['suite'], t['misc']['test']): t['path'] for t in doc['tests']}
        self.assertEqual(paths[('ptrace/attach', 'attach.zombie')],
                         'utrace.ptrace.attach.attach.zombie')
        self.assertEqual(paths[('ptrace/attach', '(program)')], 'utrace.ptrace.attach')
        self.assertEqual(paths[('kunit/example', 'example_params_test/example value 3')],
                         'utrace.kunit.example.example_params_test.example_value_3')
        self.assertEqual(paths[('kunit/cut_short', '(missing 2)')],
                         'utrace.kunit.cut_short.missing_2')
        self.assertEqual(paths[('kunit/no_init', '(suite)')], 'utrace.kunit.no_init')

    def test_known_failure_is_fail_with_a_comment(self):
        doc = self.doc()
        t = [t for t in doc['tests'] if t['misc']['test'] == 'global.attach'][0]
        self.assertEqual((t['misc']['result'], t['status']), ('xfail', 'FAIL'))
        self.assertIn('known failure', t['comment'])

    def test_patchset(self):
        doc = self.doc('--series', os.path.join(TOP, 'branches', 'stepping-fixes'),
                       os.path.join(TOP, 'branches', 'utrace-core'),
                       '--patch-url-base', 'https://example.org/raw/branches/')
        co = doc['checkouts'][0]
        first = co['patchset_files'][0]
        self.assertTrue(first['name'].startswith('stepping-fixes-0001-'), first)
        self.assertTrue(first['url'].startswith(
            'https://example.org/raw/branches/stepping-fixes/0001-'), first)
        self.assertEqual(co['id'], f'utrace:{BASE[:12]}-{co["patchset_hash"][:12]}')

    def test_compiler_from_out_dir(self):
        for c in ('utrace-off', 'utrace-on'):
            os.makedirs(os.path.join(self.d, 'out', c))
            write(self.d, f'out/{c}/.config', '#\n# Linux/x86 6.12.118 Kernel Configuration\n'
                  'CONFIG_CC_VERSION_TEXT="gcc (Debian 12.2.0-14) 12.2.0"\nCONFIG_64BIT=y\n')
        doc = self.doc('--out-dir', os.path.join(self.d, 'out'))
        self.assertEqual({b['compiler'] for b in doc['builds']}, {'gcc (Debian 12.2.0-14) 12.2.0'})

    def test_run_id_follows_the_results(self):
        a = self.doc()['builds'][0]['id']
        self.assertEqual(self.doc()['builds'][0]['id'], a)
        job = self.doc('--run-id', 'job42')['builds'][0]['id']
        self.assertTrue(job.endswith(':job42:utrace-off'), job)
        with open(self.compare, 'a') as f:
            f.write('x\ty\tpass\tpass\tpass\n')
        self.assertNotEqual(self.doc()['builds'][0]['id'], a)

    def test_debug_table_adds_its_kernel_only(self):
        debug = write(self.d, 'debug.tsv', 'suite\ttest\tutrace-on\tdebug\n'
                      'ptrace/attach\tattach.zombie\tpass\tpass\n'
                      'stress-ng/ptrace\t(program)\tn/a\tpass\n')
        doc = self.doc(debug)
        self.assertEqual([b['config_name'] for b in doc['builds']],
                         ['utrace-off', 'utrace-on', 'debug'])
        dbg = [t for t in doc['tests'] if t['build_id'].endswith(':debug')]
        self.assertEqual(sorted(t['path'] for t in dbg),
                         ['utrace.ptrace.attach.attach.zombie', 'utrace.stress-ng.ptrace'])
        # debug.tsv's utrace-on column repeats compare.tsv's: not read twice.
        on = [t for t in doc['tests'] if t['misc']['column'] == 'utrace-on']
        self.assertEqual(len(on), len({t['path'] for t in on}))

    def test_stdout(self):
        rc, out, err = run(['-', self.compare])
        self.assertEqual(rc, 0)
        self.assertEqual(json.loads(out)['version']['major'], 5)
        self.assertIn('kcidb: stdout', err)


# A small table as scripts/debug.sh writes it for a bug-detector kernel
# (build/results/kasan.tsv): utrace-on's rows as the reference column,
# kmemleak and stress-ng rows of that kernel only (n/a on utrace-on), a
# known failure, a KUnit case that never reported and a leak.
DEBUG_TABLE = os.path.join(TOP, 'tests', 'harness', 'data', 'kasan.tsv')


@need_jsonschema
class TestDebugTable(unittest.TestCase):
    """scripts/debug.sh: its kernel's table, alone, as a valid KCIDB document."""

    def kcidb_json(self, *opts):
        """Run lib.sh's kcidb_json as debug.sh does; (exit status, stderr, document)."""
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, 'out', 'kasan'))
            write(d, 'out/kasan/.config', '#\n# Linux/x86 6.12.118 Kernel Configuration\n'
                  'CONFIG_CC_VERSION_TEXT="gcc (Debian 12.2.0-14) 12.2.0"\nCONFIG_64BIT=y\n')
            out = os.path.join(d, 'kcidb-kasan.json')
            p = subprocess.run(['bash', '-c', '. scripts/lib.sh && kcidb_json "$@"', 'kcidb_json',
                                out, DEBUG_TABLE, *opts], cwd=TOP, capture_output=True,
                               text=True, env=dict(os.environ, TOP=TOP, BUILD=d))
            doc = None
            if os.path.exists(out):
                with open(out) as f:
                    doc = json.load(f)
        return p.returncode, p.stderr, doc

    def test_valid_and_this_kernel_only(self):
        rc, err, doc = self.kcidb_json('--leave-out', 'utrace-on')
        self.assertEqual(rc, 0, err)
        jsonschema.Draft7Validator(schema(), format_checker=jsonschema.FormatChecker()) \
            .validate(doc)
        [co] = doc['checkouts']
        self.assertTrue(co['id'].startswith(f'utrace:{BASE[:12]}-'), co['id'])
        self.assertEqual([(b['config_name'], b['compiler']) for b in doc['builds']],
                         [('kasan', 'gcc (Debian 12.2.0-14) 12.2.0')])
        self.assertEqual({t['misc']['column'] for t in doc['tests']}, {'kasan'})
        status = {t['path']: t['status'] for t in doc['tests']}
        self.assertEqual(len(status), 12)
        self.assertEqual(status['utrace.kmemleak.tests'], 'FAIL')
        self.assertEqual(status['utrace.stress-ng.ptrace'], 'PASS')
        self.assertEqual(status['utrace.kunit.utrace.stop_resume'], 'MISS')
        self.assertEqual(status['utrace.ksft-ptrace.vmaccess'], 'FAIL')

    def test_without_leave_out_the_reference_is_written_again(self):
        # utrace-on would be a build of this document too (and its
        # .config is not in this build/out): debug.sh leaves it out.
        rc, err, doc = self.kcidb_json()
        self.assertEqual((rc, doc), (1, None))
        self.assertIn('utrace-on/.config', err)

    def test_unknown_column(self):
        rc, err, doc = self.kcidb_json('--leave-out', 'utrace-of')
        self.assertEqual((rc, doc), (1, None))
        self.assertEqual(err, f'kcidb.py: --leave-out utrace-of: no such column in {DEBUG_TABLE}\n')

    def test_every_column_left_out(self):
        rc, err, doc = self.kcidb_json('--leave-out', 'utrace-on', '--leave-out', 'kasan')
        self.assertEqual((rc, doc), (1, None))
        self.assertIn('leaves no column', err)


class TestStatus(unittest.TestCase):
    def test_mapping_is_exact(self):
        self.assertEqual(kc.STATUS, {
            'pass': 'PASS', 'fail': 'FAIL', 'skip': 'SKIP', 'xfail': 'FAIL',
            'xpass': 'PASS', 'timeout': 'ERROR', 'missing': 'MISS', 'flaky': 'ERROR',
            'unexpected': 'ERROR', 'n/a': None, 'changed': None, 'unchanged': 'ERROR'})

    def test_every_status_is_a_kcidb_status(self):
        allowed = set(schema()['$defs']['status']['enum'])
        self.assertLessEqual({s for s in kc.STATUS.values() if s}, allowed)

    def test_compare_words_all_mapped(self):
        # Every result word (tests/verdicts.py), good or not.
        for w in vd.WORDS:
            self.assertIn(w, kc.STATUS)

    @need_jsonschema
    def test_each_word_in_a_document(self):
        words = [w for w in kc.STATUS if kc.STATUS[w] is not None]
        with tempfile.TemporaryDirectory() as d:
            tsv = write(d, 'c.tsv', 'suite\ttest\tutrace-off\n' + ''.join(
                f's\tt{i}\t{w}\n' for i, w in enumerate(words)) + 's\tna\tn/a\n')
            out = os.path.join(d, 'k.json')
            rc, _, err = run([out, tsv])
            self.assertEqual((rc, err), (0, ''))
            with open(out) as f:
                tests = json.load(f)['tests']
        self.assertEqual([(t['misc']['result'], t['status']) for t in tests],
                         [(w, kc.STATUS[w]) for w in words])


class TestPaths(unittest.TestCase):
    def test_parts(self):
        self.assertEqual(kc.test_path(['utrace'], 'kunit/(console)', '(results)'),
                         'utrace.kunit.console.results')
        self.assertEqual(kc.test_path([], 'ksft-ptrace/peeksiginfo', 'global.peeksiginfo'),
                         'ksft-ptrace.peeksiginfo.global.peeksiginfo')
        self.assertEqual(kc.test_path([], 's', 'a:b=c, d#2'), 's.a_b_c_d_2')
        self.assertEqual(kc.test_path([], 's', '(program)'), 's')

    def test_patchset_hash(self):
        # printf 'a\n' >1.patch; printf 'b\n' >2.patch
        # sha256sum 1.patch 2.patch | cut -c-64 | sha256sum | cut -c-64
        self.assertEqual(kc.patchset_hash([('t', '1', b'a\n'), ('t', '2', b'b\n')]),
                         '7b77b1b66500ed66bdb3e5f10e78f55ab6d4b404fa676ec1bee2ab5b31346a80')
        self.assertEqual(kc.patchset_hash([]), '')


class TestBadInput(unittest.TestCase):
    def bad(self, text=None, args=(), want=''):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, 'k.json')
            inputs = [write(d, 'c.tsv', text)] if text is not None else []
            rc, stdout, err = run([out] + inputs + list(args))
            self.assertFalse(os.path.exists(out))
        self.assertEqual(rc, 1)
        self.assertEqual(stdout, '')
        self.assertEqual(len(err.splitlines()), 1, err)
        self.assertTrue(err.startswith('kcidb.py: '), err)
        self.assertIn(want, err)

    def test_no_base_commit(self):
        with tempfile.TemporaryDirectory() as d:
            rc, _, err = run([os.path.join(d, 'k.json'), write(d, 'c.tsv', 'suite\ttest\tk\na\tb\tpass\n')],
                             ref=False)
        self.assertEqual(rc, 1)
        self.assertIn('no base commit: give --ref commit=HASH', err)

    def test_ref_args_from_the_ref_file(self):
        self.assertIn(f'--ref=commit={BASE}', REF_ARGS)
        self.assertIn('--ref=package=linux-source-6.12', REF_ARGS)

    def test_not_a_compare_table(self):
        self.bad('hello\n', want='c.tsv:1: not a compare table')

    def test_one_kernels_results(self):
        self.bad('suite\ttest\tresult\tdetail\na\tb\tpass\t\n', want="one kernel's results")

    def test_unknown_word(self):
        self.bad('suite\ttest\tutrace-off\na\tb\tpass\na\tc\twobbly\n',
                 want="c.tsv:3: unknown result 'wobbly' for utrace-off")

    def test_short_row(self):
        self.bad('suite\ttest\tutrace-off\tutrace-on\na\tb\tpass\n', want='c.tsv:2: 3 fields')

    def test_repeated_row(self):
        self.bad('suite\ttest\tk\na\tb\tpass\na\tb\tpass\n', want='appears twice')

    def test_empty_file(self):
        self.bad('', want='not a compare table')

    def test_missing_file(self):
        self.bad(None, args=['/nonexistent/compare.tsv'], want='No such file')

    def test_no_arguments(self):
        rc, _, err = run([])
        self.assertEqual(rc, 1)
        self.assertEqual(len(err.splitlines()), 1, err)

    def test_bad_options(self):
        table = 'suite\ttest\tk\na\tb\tpass\n'
        self.bad(table, ['--origin', 'My-CI'], '--origin')
        self.bad(table, ['--ref', 'commit=abc'], 'base commit')
        self.bad(table, ['--ref', 'commit'], "'commit' is not KEY=VALUE")
        self.bad(table, ['--start-time', '2026-01-01T00:00'], 'time zone')
        self.bad(table, ['--series', '/nonexistent'], '--series')
        self.bad(table, ['--out-dir', '/nonexistent'], '--out-dir')
        self.bad(table, ['--schema', '/nonexistent'], 'KCIDB schema')
        self.bad(table, ['--nonsense'], 'unrecognized arguments')

    @need_jsonschema
    def test_schema_rejects_an_option(self):
        self.bad('suite\ttest\tk\na\tb\tpass\n', ['--git-repository-url', 'http://x/y.git'],
                 'invalid KCIDB document at checkouts/0/git_repository_url')

    def test_command_line(self):
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.run([sys.executable, os.path.join(TOP, 'tests', 'kcidb.py'),
                                os.path.join(d, 'k.json'), write(d, 'c.tsv', 'x\n')],
                               capture_output=True, text=True)
        self.assertEqual(p.returncode, 1)
        self.assertNotIn('Traceback', p.stderr)
        self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)


@need_jsonschema
class TestValidate(unittest.TestCase):
    def valid(self):
        return {'version': {'major': 5, 'minor': 3},
                'checkouts': [{'id': 'o:c', 'origin': 'o'}],
                'builds': [{'id': 'o:b', 'origin': 'o', 'checkout_id': 'o:c'}],
                'tests': [{'id': 'o:t', 'origin': 'o', 'build_id': 'o:b',
                           'path': 'a.b', 'status': 'PASS'}]}

    def rejected(self, doc, where):
        with self.assertRaises(kc.Bad) as e:
            kc.validate(doc, schema())
        self.assertIn(f'invalid KCIDB document at {where}:', str(e.exception))
        self.assertNotIn('\n', str(e.exception))

    def test_valid(self):
        kc.validate(self.valid(), schema())

    def test_status_not_kcidb(self):
        doc = self.valid()
        doc['tests'][0]['status'] = 'XFAIL'
        self.rejected(doc, 'tests/0/status')

    def test_id_without_origin(self):
        doc = self.valid()
        doc['builds'][0]['id'] = 'no-origin'
        self.rejected(doc, 'builds/0/id')

    def test_path_with_a_blank(self):
        doc = self.valid()
        doc['tests'][0]['path'] = 'a b'
        self.rejected(doc, 'tests/0/path')

    def test_unknown_field(self):
        doc = self.valid()
        doc['checkouts'][0]['branch'] = 'x'
        self.rejected(doc, 'checkouts/0')

    def test_wrong_major_version(self):
        doc = self.valid()
        doc['version']['major'] = 4
        self.rejected(doc, 'version/major')


if __name__ == '__main__':
    unittest.main()
