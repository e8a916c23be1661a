#!/usr/bin/env python3
"""Put the per-kernel results side by side and decide.

  side_by_side.py OUT_TSV NAME=RESULTS_TSV [NAME=RESULTS_TSV...] [--absent NAME=REASON]
                  [--known FILE] [--only NAME=SUITE_PREFIX] [--without NAME=SUITE_PREFIX]
                  [--changed NAME=FILE]

Each RESULTS_TSV comes from ktap.py (or tests/clients/transcripts.py,
tests/kunit_rows.py) for one kernel; a NAME given more than once gets
the rows of all its files, in order.  Writes OUT_TSV with the header 'suite test NAME...' and prints
the table, marking rows that differ with '<>'.  A result missing from one
kernel is 'missing'.

Exit 0 only when every row is identical across the kernels and every
result is pass or skip; otherwise 1, after naming the rows that failed.
A 'flaky' result (a run that had to be repeated: tests/verdicts.py)
compares as a pass and does not fail the run, but its row is marked
'~~' and named on a line of its own.
A kernel given with --absent is not built yet: its reason is printed in
one line and it gets no column.  --known names a list of failures of the
base kernel itself (tests/known-failures.txt): such a 'fail' reads
'xfail' and counts as good; a listed row that passes reads 'xpass' and
fails the run, so the list is kept honest.

--only NAME=PREFIX marks suites that exist only on kernel NAME (the utrace
engine tests need CONFIG_UTRACE=y): on the other kernels such a row reads
'n/a' where it is missing or skipped, and is not compared; on NAME it must
pass or skip like any row.  A row of such a suite that another kernel
passes or fails is still compared, so a test that runs where it should
not shows up.

--without NAME=PREFIX marks suites that column NAME leaves out on
purpose (the utrace-on+bystander column does not run the engine
selftests, which need the test module to themselves): there such a row
reads 'n/a' and is not compared.  A result that NAME reported for it
anyway reads 'unexpected' and fails the run: its runner did not leave the
suite out.  Both options may be given more than once and hold for any
number of columns.

--changed NAME=FILE names the rows that the series changes on purpose
(suite<TAB>test<TAB>reason, tests/base-differences.txt), for column NAME,
the unpatched base kernel: there such a row must read differently from
every other column (the fix of a bug that base has).  It then reads
'changed' and is not compared; the row's other cells are judged as
usual.  A listed row that reads the same as the others reads
'unchanged' and fails the run, so the list cannot go stale silently.
The base result of each changed row is printed with the list's reason.

Bad arguments or an input file that cannot be read: one line on stderr,
exit 2.
"""
import argparse
import sys

import tablist
import verdicts as v
from verdicts import GOOD


class Parser(argparse.ArgumentParser):
    """Bad arguments are one line on stderr (exit 2), not the usage."""

    def error(self, message):
        self.exit(2, f'{self.prog}: {message} (see {self.prog} --help)\n')


def pair(what):
    """An argparse type: 'NAME=VALUE' as (NAME, VALUE), split at the first '='."""
    def split(arg):
        name, eq, value = arg.partition('=')
        if not eq:
            raise argparse.ArgumentTypeError(f'{arg!r} is not {what}')
        return name, value
    return split


def parse_args(argv):
    ap = Parser(prog='side_by_side.py', description=__doc__,
                formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)
    ap.add_argument('out', metavar='OUT_TSV')
    ap.add_argument('columns', nargs='+', type=pair('NAME=RESULTS_TSV'),
                    metavar='NAME=RESULTS_TSV')
    ap.add_argument('--absent', action='append', default=[], type=pair('NAME=REASON'),
                    metavar='NAME=REASON')
    ap.add_argument('--known', metavar='FILE')
    ap.add_argument('--only', action='append', default=[], type=pair('NAME=SUITE_PREFIX'),
                    metavar='NAME=SUITE_PREFIX')
    ap.add_argument('--without', action='append', default=[], type=pair('NAME=SUITE_PREFIX'),
                    metavar='NAME=SUITE_PREFIX')
    ap.add_argument('--changed', action='append', default=[], type=pair('NAME=FILE'),
                    metavar='NAME=FILE')
    # The options may come anywhere among the columns.
    return ap, ap.parse_intermixed_args(argv[1:])


def load(path):
    rows = {}
    order = []
    with open(path) as f:
        header = f.readline()
        if not header.startswith('suite\ttest\tresult'):
            raise SystemExit(f'side_by_side.py: {path}: not a results file (header {header!r})')
        for line in f:
            parts = line.rstrip('\n').split('\t')
            if len(parts) < 3:
                continue
            key = (parts[0], parts[1])
            if key not in rows:
                order.append(key)
            rows[key] = parts[2]
    return rows, order


def load_known(path):
    return {(suite, test): reason for suite, test, reason in
            tablist.read(path, 'side_by_side.py', 'suite<TAB>test<TAB>reason')}


def apply_known(table, known):
    out = []
    for k, res in table:
        if k in known:
            res = [v.XFAIL if x == v.FAIL else v.XPASS if x == v.PASS else x for x in res]
        out.append((k, res))
    return out


def merge(columns):
    """columns: list of (name, rows, order). Return ordered keys and a table."""
    keys = []
    seen = set()
    for _, _, order in columns:
        for k in order:
            if k not in seen:
                seen.add(k)
                keys.append(k)
    table = []
    for k in keys:
        table.append((k, [rows.get(k, v.MISSING) for _, rows, _ in columns]))
    return table


def apply_only(table, names, only):
    """Rows of a suite that only kernel NAME runs read 'n/a' elsewhere."""
    out = []
    for k, res in table:
        res = list(res)
        for name, prefix in only:
            if k[0].startswith(prefix):
                res = [v.NA if n != name and x in (v.MISSING, v.SKIP) else x
                       for n, x in zip(names, res)]
        out.append((k, res))
    return out


def apply_without(table, names, without):
    """Rows of a suite that column NAME leaves out read 'n/a' there."""
    out = []
    for k, res in table:
        res = list(res)
        for name, prefix in without:
            if k[0].startswith(prefix):
                res = [(v.NA if x == v.MISSING else v.UNEXPECTED) if n == name else x
                       for n, x in zip(names, res)]
        out.append((k, res))
    return out


def apply_changed(table, names, changed):
    """Rows changed on purpose read 'changed' in their column, if they
    differ there from every other column, else 'unchanged'.  Returns the
    table and (key, column, result, reason) of each changed row."""
    notes = []
    out = []
    for k, res in table:
        res = list(res)
        for name, rows in changed:
            if k not in rows or name not in names:
                continue
            i = names.index(name)
            mine = v.comparable(res[i])
            others = {v.comparable(x) for j, x in enumerate(res) if j != i} - {v.NA}
            if others and mine not in others:
                notes.append((k, name, res[i], rows[k]))
                res[i] = v.CHANGED
            else:
                res[i] = v.UNCHANGED
        out.append((k, res))
    return out, notes


def differs(res):
    """Do the kernels' results of one row differ (n/a aside, flaky a pass)?"""
    return len({v.comparable(x) for x in res} - {v.NA}) > 1


def mark(res):
    """The table's mark of a row: differs, fails, flaky or nothing."""
    if differs(res):
        return '<>'
    if any(x not in GOOD for x in res):
        return '!!'
    return '~~' if v.FLAKY in res else '  '


def decide(table):
    """Return (differing rows, bad rows)."""
    differ = [(k, r) for k, r in table if differs(r)]
    bad = [(k, r) for k, r in table if any(x not in GOOD for x in r)]
    return differ, bad


def main(argv):
    ap, a = parse_args(argv)
    out, absent, only, without = a.out, a.absent, a.only, a.without
    known = {}
    if a.known is not None:
        try:
            known = load_known(a.known)
        except OSError as e:
            ap.exit(2, f'side_by_side.py: cannot read {a.known}: {e.strerror or e}\n')
    changed = []
    for name, path in a.changed:
        try:
            changed.append((name, load_known(path)))
        except OSError as e:
            ap.exit(2, f'side_by_side.py: cannot read {path}: {e.strerror or e}\n')
    columns = []
    for name, path in a.columns:
        try:
            rows, order = load(path)
        except OSError as e:
            ap.exit(2, f'side_by_side.py: cannot read {path}: {e.strerror or e}\n')
        same = [c for c in columns if c[0] == name]
        if same:
            _, have, have_order = same[0]
            have_order += [k for k in order if k not in have]
            have.update(rows)
        else:
            columns.append((name, rows, order))
    names = [c[0] for c in columns]
    # --without first: a left-out suite's 'skip' there is a result, not n/a.
    table = apply_only(apply_without(apply_known(merge(columns), known), names, without),
                       names, only)
    table, notes = apply_changed(table, names, changed)
    try:
        with open(out, 'w') as f:
            f.write('\t'.join(['suite', 'test'] + names) + '\n')
            for (suite, test), res in table:
                f.write('\t'.join([suite, test] + res) + '\n')
    except OSError as e:
        ap.exit(2, f'side_by_side.py: cannot write {out}: {e.strerror or e}\n')
    width = max([len(f'{s}.{t}') for (s, t), _ in table] + [10])
    width = min(width, 72)
    cols = [max(12, len(n)) for n in names]
    print(f'   {"test":<{width}} ' + ' '.join(f'{n:<{w}}' for n, w in zip(names, cols)))
    for (suite, test), res in table:
        name = f'{suite}.{test}'
        if len(name) > width:
            name = name[:width - 3] + '...'
        print(f'{mark(res)} {name:<{width}} ' + ' '.join(f'{x:<{w}}' for x, w in zip(res, cols)))
    for name, reason in absent:
        print(f'compare: no {name} column: {reason}')
    differ, bad = decide(table)
    counts = {}
    for _, res in table:
        for x in res:
            counts[x] = counts.get(x, 0) + 1
    print('compare: ' + ', '.join(f'{n} {k}' for k, n in sorted(counts.items())) +
          f' over {len(table)} rows x {len(names)} kernel(s)')
    for (s, t), name, res, reason in notes:
        print(f'compare: CHANGED {s}.{t}: {name}={res} on purpose ({reason})')
    for (s, t), res in bad:
        for n, x in zip(names, res):
            if x == v.UNCHANGED:
                print(f'compare: UNCHANGED {s}.{t}: listed as changed on purpose in {n}, '
                      'but reads the same: update the list')
    for (s, t), res in differ:
        print(f'compare: DIFFERS {s}.{t}: ' + ', '.join(f'{n}={x}' for n, x in zip(names, res)))
    for (s, t), res in bad:
        if len(set(res)) == 1:
            print(f'compare: FAILS {s}.{t}: {res[0]} on every kernel')
        for n, x in zip(names, res):
            if x == v.UNEXPECTED:
                print(f'compare: UNEXPECTED {s}.{t}: {n} should not have run it')
    flaky = [(k, r) for k, r in table if v.FLAKY in r]
    for (s, t), res in flaky:
        print(f'compare: FLAKY {s}.{t}: ' + ', '.join(f'{n}={x}' for n, x in zip(names, res)) +
              ' (needed a second run: not a failure, not a clean pass)')
    if differ or bad:
        print(f'compare: FAILED: {len(differ)} row(s) differ, {len(bad)} row(s) not pass/skip '
              f'(details: {out}, build/results/<kernel>/output.log)')
        return 1
    print(f'compare: OK: {len(table)} rows identical on {", ".join(names)}' +
          (f', {len(flaky)} of them flaky (above)' if flaky else ''))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
