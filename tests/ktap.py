#!/usr/bin/env python3
"""Parse the guest runner's KTAP output into result rows.

The runner (tests/run-tests.sh) prints one top-level KTAP result per test
program and indents the program's own TAP output (kselftest_harness) by
four spaces below it.  Each program gives one row for itself, named
'(program)', and one row per subtest it reported.

Result words (tests/verdicts.py): pass, fail, skip, timeout.  A program
whose run was cut off (guest died, host watchdog) gets 'missing' for its
'(program)' row.

A program that ran nothing is a failure: when every test it reported is a
skip, or it reported none and its own plan is '1..0', or the runner says
it skipped (exit status 4, or not run at all), its '(program)' row reads
'fail' ("ran nothing"), unless MAY_SKIP lists it for KERNEL; then it
reads 'skip'.  MAY_SKIP (tests/may-skip.txt) has lines suite<TAB>kernels<TAB>
reason, kernels a comma-separated list of kernel names or '*'.

Usage: ktap.py [--kernel KERNEL --may-skip MAY_SKIP] OUTPUT_LOG > results.tsv
       (columns: suite test result detail)
Bad arguments or a file that cannot be read: one line on stderr, exit 2.
"""
import argparse
import re
import sys

import tablist
import verdicts as v

TOP_RESULT = re.compile(r'^(not )?ok (\d+) (\S+)(?: # (.*))?$')
SUB_RESULT = re.compile(r'^    (not )?ok (\d+) (.+?)(?: # (.*))?$')
SUITE = re.compile(r'^# suite: (\S+)$')
PLAN = re.compile(r'^1\.\.(\d+)$')
SUB_PLAN_NONE = re.compile(r'^    1\.\.0\b')  # kselftest: '1..0 # SKIP reason'


def verdict(failed, directive):
    d = (directive or '').strip()
    if d.upper().startswith('SKIP'):
        return v.SKIP
    if d.upper().startswith('TIMEOUT'):
        return v.TIMEOUT
    return v.FAIL if failed else v.PASS


def load_may_skip(path, kernel):
    """{suite: reason} of the programs MAY_SKIP lets skip as a whole on kernel."""
    allowed = {}
    for suite, kernels, reason in tablist.read(path, 'ktap.py', 'suite<TAB>kernels<TAB>reason'):
        if kernels == '*' or kernel in kernels.split(','):
            allowed[suite] = reason
    return allowed


def program_row(suite, result, detail, subtests, no_plan, may_skip):
    """The '(program)' row: a program that ran nothing fails unless it may skip."""
    if subtests:
        all_skipped = all(r == v.SKIP for _, _, r, _ in subtests)
    else:
        all_skipped = no_plan
    if not (result == v.SKIP or result == v.PASS and all_skipped):
        return (suite, '(program)', result, detail)
    if suite in may_skip:
        return (suite, '(program)', v.SKIP, f'may skip here: {may_skip[suite]}')
    why = detail if result == v.SKIP else 'every test skipped'
    return (suite, '(program)', v.FAIL,
            f'ran nothing ({why}); not in tests/may-skip.txt for this kernel')


def parse(lines, may_skip=None):
    """Return (rows, problems): rows are (suite, test, result, detail) tuples.

    may_skip: {suite: reason} of the programs that may skip as a whole."""
    may_skip = may_skip or {}
    rows = []
    problems = []
    suite = None
    subtests = []
    no_plan = False
    names = {}
    seen = set()
    planned = None
    for raw in lines:
        line = raw.rstrip('\r\n')
        m = PLAN.match(line)
        if m and planned is None:
            planned = int(m.group(1))
            continue
        m = SUITE.match(line)
        if m:
            if suite is not None:
                problems.append(f'{suite}: no result line (runner cut off?)')
                rows.extend(subtests)
                rows.append((suite, '(program)', v.MISSING, 'no result line'))
            suite, subtests, names, no_plan = m.group(1), [], {}, False
            continue
        if SUB_PLAN_NONE.match(line) and suite is not None:
            no_plan = True
            continue
        m = SUB_RESULT.match(line)
        if m and suite is not None:
            name = m.group(3).strip()
            names[name] = names.get(name, 0) + 1
            if names[name] > 1:
                name = f'{name}#{names[name]}'
            subtests.append((suite, name, verdict(m.group(1), m.group(4)),
                             (m.group(4) or '').strip()))
            continue
        m = TOP_RESULT.match(line)
        if m:
            name = m.group(3)
            if name != suite:
                problems.append(f'result for {name} outside its suite block')
            rows.extend(subtests)
            rows.append(program_row(name, verdict(m.group(1), m.group(4)),
                                    (m.group(4) or '').strip(), subtests, no_plan, may_skip))
            seen.add(name)
            suite, subtests = None, []
    if suite is not None:
        problems.append(f'{suite}: no result line (runner cut off?)')
        rows.extend(subtests)
        rows.append((suite, '(program)', v.MISSING, 'no result line'))
        seen.add(suite)
    if planned is None:
        problems.append('no KTAP plan line: the runner did not start')
    elif len(seen) != planned:
        problems.append(f'plan says {planned} programs, {len(seen)} reported')
    return rows, problems


class Parser(argparse.ArgumentParser):
    """Bad arguments are one line on stderr (exit 2), not the usage."""

    def error(self, message):
        self.exit(2, f'{self.prog}: {message} (see {self.prog} --help)\n')


def main(argv):
    ap = Parser(prog='ktap.py', description=__doc__,
                formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)
    ap.add_argument('--kernel', metavar='KERNEL')
    ap.add_argument('--may-skip', metavar='MAY_SKIP')
    ap.add_argument('log', metavar='OUTPUT_LOG')
    a = ap.parse_args(argv[1:])
    if (a.kernel is None) != (a.may_skip is None):
        ap.error('--kernel and --may-skip go together')
    kernel, may_skip = a.kernel, {}
    try:
        if a.may_skip is not None:
            may_skip = load_may_skip(a.may_skip, kernel)
        with open(a.log, errors='replace') as f:
            rows, problems = parse(f.readlines(), may_skip)
    except OSError as e:
        ap.exit(2, f'ktap.py: cannot read {e.filename}: {e.strerror or e}\n')
    print('suite\ttest\tresult\tdetail')
    for r in rows:
        print('\t'.join(r))
    for s, t, r, d in rows:
        if t == '(program)' and r == v.FAIL and d.startswith('ran nothing'):
            print(f'ktap.py: {a.log}: {s} ran nothing on {kernel or "this kernel"}: '
                  'a failure (list it in tests/may-skip.txt if it may skip there)',
                  file=sys.stderr)
    for p in problems:
        print(f'ktap.py: {a.log}: {p}', file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
