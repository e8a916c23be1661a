#!/usr/bin/env python3
"""Write make compare's results as one KCIDB JSON document.

  kcidb.py [options] OUT.json RESULTS.tsv [RESULTS.tsv...]

KCIDB is KernelCI's results database; its I/O schema (checkouts, builds,
tests) is copied in tests/kcidb/schema.json (kernelci/kcidb-io v5.3,
GPL-2.0-or-later; origin and export in tests/kcidb/README).  The document
is validated against that file (python3-jsonschema, Draft7Validator)
before it is written, so it can be submitted to KernelCI as it is
(tests/README.md, "KCIDB").  OUT.json '-' writes to stdout.

Input: tables as tests/side_by_side.py writes them (build/results/compare.tsv,
and debug.tsv, kasan.tsv, rt.tsv from scripts/debug.sh): header
'suite test KERNEL...', one row per test, one result word per kernel
column.  A column whose name was already read from an earlier file is
left out (debug.sh's reference column repeats compare.tsv's utrace-on),
and so is every column named by --leave-out (scripts/debug.sh writes its
kernel's table alone, kcidb-KERNEL.json, with --leave-out utrace-on:
that column is make compare's kcidb.json).

Output:
  checkout  one: the pinned base commit (--ref commit=HASH) plus the
            series of --series DIR... (each a
            branches/<topic> directory with a 'series' file, in stacking
            order): patchset_hash over those patches, as the schema
            defines it; patchset_files only with --patch-url-base.
  builds    one per kernel config, x86_64: a column 'CONFIG+WHAT' (the
            utrace-on+bystander column) is the same bzImage booted again,
            so its tests belong to build CONFIG, with the column in their
            'environment'.  --out-dir build/out reads each kernel's
            compiler from its .config (CONFIG_CC_VERSION_TEXT).
  tests     one per row and column, path PREFIX.SUITE.TEST (default
            prefix 'utrace'), dotted KCIDB style: '/' and '.' separate
            path parts, any run of other characters outside [A-Za-z0-9_-]
            becomes '_' (none at a part's ends: '(missing 2)' is
            'missing_2'); a '(program)' or '(suite)' row is the suite's own
            node (KCIDB: a path may name a whole suite).  A path repeated
            within a column gets '_2', '_3'.  The row's suite, test and
            result word are kept in the test's 'misc'.

Status: each result word's KCIDB status and comment are in
tests/verdicts.py (KCIDB, KCIDB_NOTE), with the words themselves: pass
PASS, fail FAIL, skip SKIP, xfail FAIL (a known failure of the base
kernel still failed; KCIDB has no expected failure, the comment says it
is known), xpass PASS, timeout ERROR (the test did not complete),
missing MISS, unexpected ERROR (the harness misbehaved), unchanged ERROR
(the list of intended differences is stale), and n/a and changed no test
at all (the test does not exist on that kernel by design; the base
kernel's row that the series changes on purpose is not a result of the
series).  Any other word is an error.

IDs are 'ORIGIN:...' (--origin, default 'utrace'; KernelCI assigns the
origin with the submission token): the checkout 'ORIGIN:BASE12-PATCHSET12'
(BASE12 alone without --series; or --checkout-id), a build 'CHECKOUT:RUN:CONFIG', a test
'CHECKOUT:RUN:COLUMN:PATH'.  RUN (--run-id) defaults to a hash of the input
files, so resubmitting the same results replaces them and different
results are new objects.  start_time (--start-time, ISO 8601 with a time
zone) defaults to the first input file's modification time.

Exit 0 after writing OUT.json; 1, with one line naming the file and line
or the document's field, on bad input or a document the schema rejects.
"""
import argparse
import datetime
import hashlib
import json
import os
import re
import sys

import verdicts

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA = os.path.join(TOP, 'tests', 'kcidb', 'schema.json')

STATUS = verdicts.KCIDB
NOTE = verdicts.KCIDB_NOTE
# What a 'CONFIG+WHAT' column is, for its tests' environment.
COLUMN_KIND = {
    'bystander': 'the same kernel booted again, every program run under '
                 'tests/bystander: a second utrace engine on every process',
}
SUITE_NODE = ('(program)', '(suite)')
PATH_PART = re.compile(r'^[A-Za-z0-9_-]+$')
HEX40 = re.compile(r'^[0-9a-f]{40}$')
ORIGIN = re.compile(r'^[a-z0-9_]+$')


class Bad(Exception):
    """Bad input or an invalid document: one line for the user."""


def read_table(path):
    """(kernel names, [(suite, test, [word per kernel])]) of a compare table."""
    try:
        with open(path, encoding='utf-8') as f:
            lines = f.read().split('\n')
    except OSError as e:
        raise Bad(f'{path}: {e.strerror}') from None
    except UnicodeDecodeError:
        raise Bad(f'{path}: not UTF-8 text') from None
    header = lines[0].split('\t')
    if header[:2] != ['suite', 'test'] or len(header) < 3 or '' in header:
        raise Bad(f'{path}:1: not a compare table (want header suite<TAB>test<TAB>KERNEL..., '
                  f'got {lines[0][:60]!r})')
    names = header[2:]
    if names[0] == 'result':
        raise Bad(f'{path}:1: one kernel\'s results (ktap.py), not a compare table '
                  '(build/results/compare.tsv)')
    if len(set(names)) != len(names):
        raise Bad(f'{path}:1: a kernel column is named twice')
    rows, seen = [], set()
    for n, line in enumerate(lines[1:], 2):
        if not line:
            continue
        parts = line.split('\t')
        if len(parts) != len(header):
            raise Bad(f'{path}:{n}: {len(parts)} fields, the header has {len(header)}')
        suite, test, words = parts[0], parts[1], parts[2:]
        if not suite or not test:
            raise Bad(f'{path}:{n}: empty suite or test name')
        if (suite, test) in seen:
            raise Bad(f'{path}:{n}: row {suite} {test} appears twice')
        seen.add((suite, test))
        for name, w in zip(names, words):
            if w not in STATUS:
                raise Bad(f'{path}:{n}: unknown result {w!r} for {name} '
                          f'(known: {", ".join(STATUS)})')
        rows.append((suite, test, words))
    return names, rows


def path_parts(text):
    """Dotted-path parts of a suite or test name."""
    out = []
    for p in re.split(r'[/.]+', text):
        p = re.sub(r'[^A-Za-z0-9_-]+', '_', p).strip('_')
        if p:
            out.append(p)
    return out


def test_path(prefix, suite, test):
    parts = prefix + (path_parts(suite) or ['_'])
    if test not in SUITE_NODE:
        parts += path_parts(test) or ['_']
    return '.'.join(parts)


def read_series(dirs):
    """[(topic, patch name, bytes)] of the series directories, in order."""
    patches = []
    for d in dirs:
        topic = os.path.basename(os.path.normpath(d))
        series = os.path.join(d, 'series')
        try:
            with open(series) as f:
                names = [x.strip() for x in f if x.strip() and not x.startswith('#')]
            for name in names:
                with open(os.path.join(d, name), 'rb') as f:
                    patches.append((topic, name, f.read()))
        except OSError as e:
            raise Bad(f'{e.filename}: {e.strerror} (--series)') from None
    return patches


def patchset_hash(patches):
    """KCIDB's patchset_hash: sha256 over the patches' sha256 lines, in order
    (sha256sum *.patch | cut -c-64 | sha256sum | cut -c-64)."""
    if not patches:
        return ''
    lines = ''.join(hashlib.sha256(data).hexdigest() + '\n' for _, _, data in patches)
    return hashlib.sha256(lines.encode()).hexdigest()


def kernel_config(out_dir, config):
    """(compiler, architecture) from build/out/CONFIG/.config."""
    path = os.path.join(out_dir, config, '.config')
    cc = arch = None
    bits64 = False
    try:
        with open(path) as f:
            for line in f:
                m = re.match(r'^# Linux/(\w+) \S+ Kernel Configuration', line)
                if m:
                    arch = m.group(1)
                m = re.match(r'^CONFIG_CC_VERSION_TEXT="(.*)"$', line)
                if m:
                    cc = m.group(1)
                bits64 = bits64 or line.strip() == 'CONFIG_64BIT=y'
    except OSError as e:
        raise Bad(f'{path}: {e.strerror} (--out-dir: is kernel {config} built?)') from None
    if arch == 'x86':  # the header names the source arch
        arch = 'x86_64' if bits64 else 'i386'
    return cc, arch


def iso_time(text):
    try:
        t = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise Bad(f'--start-time {text!r}: not an ISO 8601 time') from None
    if t.tzinfo is None:
        raise Bad(f'--start-time {text!r}: needs a time zone (e.g. +00:00)')
    return t.isoformat()


def load_schema(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as e:
        raise Bad(f'{path}: {e.strerror} (the KCIDB schema)') from None
    except ValueError as e:
        raise Bad(f'{path}: not JSON: {e}') from None


def schema_version(schema):
    v = schema['properties']['version']['properties']
    return {'major': v['major']['const'], 'minor': v['minor']['maximum']}


def validate(doc, schema):
    """Raise Bad naming the first field the schema rejects."""
    try:
        import jsonschema
    except ImportError:
        raise Bad('python3-jsonschema is not installed (apt-get install python3-jsonschema)') \
            from None
    try:
        jsonschema.Draft7Validator.check_schema(schema)
    except jsonschema.SchemaError as e:
        raise Bad(f'the KCIDB schema itself is invalid: {e.message[:200]}') from None
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    err = jsonschema.exceptions.best_match(validator.iter_errors(doc))
    if err is not None:
        where = '/'.join(str(p) for p in err.absolute_path) or '(top level)'
        msg = ' '.join(err.message.split())
        if len(msg) > 240:
            msg = msg[:237] + '...'
        raise Bad(f'invalid KCIDB document at {where}: {msg}')


def build_document(args, tables, schema):
    origin = args.origin
    if not ORIGIN.match(origin):
        raise Bad(f'--origin {origin!r}: KCIDB wants [a-z0-9_]+')
    prefix = path_parts(args.path_prefix) if args.path_prefix else []
    if args.path_prefix and '.'.join(prefix) != args.path_prefix:
        raise Bad(f'--path-prefix {args.path_prefix!r}: want dotted parts of [A-Za-z0-9_-]')

    ref = dict(args.ref)
    base = ref.get('commit')
    if not base:
        raise Bad('no base commit: give --ref commit=HASH (scripts/lib.sh ref_args gives '
                  'every --ref from linux.git-submodule-ref)')
    if not HEX40.match(base):
        raise Bad(f'base commit {base!r}: want 40 lowercase hex digits')
    patches = read_series(args.series or [])
    phash = patchset_hash(patches) if args.series else None

    checkout_id = f'{origin}:' + (args.checkout_id or
                                  (f'{base[:12]}-{phash[:12]}' if phash else base[:12]))
    run = args.run_id or hashlib.sha256(b''.join(t['digest'] for t in tables)).hexdigest()[:12]
    start = iso_time(args.start_time) if args.start_time else \
        datetime.datetime.fromtimestamp(tables[0]['mtime'], datetime.timezone.utc) \
        .replace(microsecond=0).isoformat()

    checkout = {'id': checkout_id, 'origin': origin, 'git_commit_hash': base,
                'valid': True, 'start_time': start}
    what = []
    if ref.get('package') and ref.get('version'):
        what.append(f'Debian {ref["package"]} {ref["version"]}')
    if ref.get('upstream'):
        what.append(f'(upstream {ref["upstream"]})')
    if args.series:
        topics = list(dict.fromkeys(t for t, _, _ in patches))
        what.append(f'+ {len(patches)} patches: {", ".join(topics)}')
        checkout['patchset_hash'] = phash
        if args.patch_url_base:
            url = args.patch_url_base.rstrip('/')
            checkout['patchset_files'] = [{'name': f'{t}-{n}', 'url': f'{url}/{t}/{n}'}
                                          for t, n, _ in patches]
    if what:
        checkout['comment'] = ' '.join(what)
    misc = {k: ref[k] for k in ('package', 'version', 'upstream', 'tree') if k in ref}
    if misc:
        checkout['misc'] = misc
    for key, val in (('tree_name', args.tree_name),
                     ('git_repository_url', args.git_repository_url),
                     ('git_repository_branch', args.git_repository_branch)):
        if val:
            checkout[key] = val

    builds, tests = {}, []
    for table in tables:
        for col, name in enumerate(table['names']):
            if name in table['left_out']:
                continue
            config, _, kind = name.partition('+')
            if config not in builds:
                b = {'id': f'{checkout_id}:{run}:{config}', 'origin': origin,
                     'checkout_id': checkout_id, 'config_name': config,
                     'architecture': args.architecture, 'status': 'PASS',
                     'start_time': start,
                     'comment': f'kernel {config}: kconfigs/{config}.config on '
                                'kconfigs/base.config'}
                if args.out_dir:
                    cc, arch = kernel_config(args.out_dir, config)
                    if cc:
                        b['compiler'] = cc
                    if arch and arch != args.architecture:
                        raise Bad(f'{args.out_dir}/{config}/.config is for {arch}, '
                                  f'not --architecture {args.architecture}')
                builds[config] = b
            build_id = builds[config]['id']
            env = None
            if kind:
                env = {'comment': f'{name}: ' + COLUMN_KIND.get(kind, f'column {name}'),
                       'misc': {'column': name}}
            paths = {}
            for suite, test, words in table['rows']:
                word = words[col]
                status = STATUS[word]
                if status is None:
                    continue
                path = test_path(prefix, suite, test)
                paths[path] = paths.get(path, 0) + 1
                if paths[path] > 1:
                    path = f'{path}_{paths[path]}'
                comment = f'{suite} {test}: {word}'
                if word in NOTE:
                    comment += f', {NOTE[word]}'
                t = {'id': f'{checkout_id}:{run}:{name}:{path}', 'origin': origin,
                     'build_id': build_id, 'path': path, 'status': status,
                     'start_time': start, 'comment': comment,
                     'misc': {'suite': suite, 'test': test, 'result': word,
                              'column': name}}
                if env:
                    t['environment'] = env
                tests.append(t)

    return {'version': schema_version(schema), 'checkouts': [checkout],
            'builds': list(builds.values()), 'tests': tests}


def load_tables(paths, leave_out=()):
    tables, taken = [], set()
    for p in paths:
        names, rows = read_table(p)
        with open(p, 'rb') as f:
            digest = hashlib.sha256(f.read()).digest()
        skip = {n for n in names if n in taken or n in leave_out}
        taken.update(names)
        tables.append({'path': p, 'names': names, 'rows': rows, 'left_out': skip,
                       'digest': digest, 'mtime': os.stat(p).st_mtime})
    for name in leave_out:
        if name not in taken:
            raise Bad(f'--leave-out {name}: no such column in {", ".join(paths)}')
    if all(set(t['names']) <= t['left_out'] for t in tables):
        raise Bad('--leave-out leaves no column: nothing to write')
    return tables


def write(out, doc):
    text = json.dumps(doc, indent=1, sort_keys=True) + '\n'
    if out == '-':
        sys.stdout.write(text)
        return
    tmp = f'{out}.tmp'
    try:
        with open(tmp, 'w') as f:
            f.write(text)
        os.replace(tmp, out)
    except OSError as e:
        raise Bad(f'{e.filename}: {e.strerror}') from None


def ref_entry(arg):
    """An argparse type: 'KEY=VALUE' as (KEY, VALUE)."""
    key, eq, value = arg.partition('=')
    if not eq or not key or not value:
        raise argparse.ArgumentTypeError(f'{arg!r} is not KEY=VALUE')
    return key, value


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise Bad(f'{message} (see --help)')


def parse_args(argv):
    ap = Parser(prog='kcidb.py', description=__doc__.split('\n')[0] + ' (see the file header)')
    ap.add_argument('out', metavar='OUT.json', help="the KCIDB document ('-': stdout)")
    ap.add_argument('inputs', metavar='RESULTS.tsv', nargs='+',
                    help='side_by_side.py tables: compare.tsv, debug.tsv, kasan.tsv, rt.tsv')
    ap.add_argument('--leave-out', metavar='COLUMN', action='append', default=[],
                    help='a column of the tables not to write (debug.sh: utrace-on, the '
                         'reference column, already in make compare\'s document)')
    ap.add_argument('--origin', default='utrace',
                    help='the origin KernelCI gave this CI system (default utrace)')
    ap.add_argument('--schema', default=SCHEMA, help='the KCIDB JSON schema (default: %(default)s)')
    ap.add_argument('--ref', metavar='KEY=VALUE', action='append', default=[], type=ref_entry,
                    help='the pinned base, as linux.git-submodule-ref has it: commit (needed), '
                         'package, version, upstream, tree; the shell callers pass '
                         'scripts/lib.sh\'s ref_args')
    ap.add_argument('--series', metavar='DIR', nargs='+', action='extend',
                    help='branches/<topic> directories, in stacking order '
                         '(after the RESULTS.tsv files: it takes every word up to the next option)')
    ap.add_argument('--patch-url-base', metavar='URL',
                    help='URL under which TOPIC/PATCH of --series can be downloaded')
    ap.add_argument('--checkout-id',
                    help='checkout id after "ORIGIN:" (default: from base and patches)')
    ap.add_argument('--run-id', help='run id in build and test ids (default: hash of the inputs)')
    ap.add_argument('--start-time', help='ISO 8601 time with zone (default: first input\'s mtime)')
    ap.add_argument('--tree-name', help='checkout tree_name')
    ap.add_argument('--git-repository-url',
                    help='https:// URL of a repository holding the base commit')
    ap.add_argument('--git-repository-branch', help='checkout git_repository_branch')
    ap.add_argument('--architecture', default='x86_64')
    ap.add_argument('--out-dir', metavar='DIR',
                    help='kernel build directories (build/out): compiler from DIR/CONFIG/.config')
    ap.add_argument('--path-prefix', default='utrace', help='first test path part(s); "" for none')
    return ap.parse_intermixed_args(argv)


def main(argv):
    try:
        args = parse_args(argv[1:])
        if args.patch_url_base and not re.match(r'^https?://[^/\s]+(/\S*)?$', args.patch_url_base):
            raise Bad(f'--patch-url-base {args.patch_url_base!r}: want an http(s):// URL')
        if args.patch_url_base and not args.series:
            raise Bad('--patch-url-base needs --series')
        schema = load_schema(args.schema)
        doc = build_document(args, load_tables(args.inputs, args.leave_out), schema)
        validate(doc, schema)
        write(args.out, doc)
    except Bad as e:
        print(f'kcidb.py: {e}', file=sys.stderr)
        return 1
    v = doc['version']
    print(f'kcidb: {"stdout" if args.out == "-" else args.out}: {len(doc["checkouts"])} checkout, '
          f'{len(doc["builds"])} build(s), {len(doc["tests"])} tests '
          f'(KCIDB v{v["major"]}.{v["minor"]}, origin {args.origin})',
          file=sys.stderr if args.out == '-' else sys.stdout)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
