#!/usr/bin/env python3
"""Parse the guest runner's KTAP output into result rows.

The runner (tests/run-tests.sh) prints one top-level KTAP result per test
program and indents the program's own TAP output (kselftest_harness) by
four spaces below it.  Each program gives one row for itself, named
'(program)', and one row per subtest it reported.

Result words: pass, fail, skip, timeout.  A program whose run was cut off
(guest died, host watchdog) gets 'missing' for its '(program)' row.

Usage: ktap.py OUTPUT_LOG > results.tsv   (columns: suite test result detail)
"""
import re
import sys

TOP_RESULT = re.compile(r'^(not )?ok (\d+) (\S+)(?: # (.*))?$')
SUB_RESULT = re.compile(r'^    (not )?ok (\d+) (.+?)(?: # (.*))?$')
SUITE = re.compile(r'^# suite: (\S+)$')
PLAN = re.compile(r'^1\.\.(\d+)$')


def verdict(failed, directive):
    d = (directive or '').strip()
    if d.upper().startswith('SKIP'):
        return 'skip'
    if d.upper().startswith('TIMEOUT'):
        return 'timeout'
    return 'fail' if failed else 'pass'


def parse(lines):
    """Return (rows, problems): rows are (suite, test, result, detail) tuples."""
    rows = []
    problems = []
    suite = None
    subtests = []
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
                rows.append((suite, '(program)', 'missing', 'no result line'))
            suite, subtests, names = m.group(1), [], {}
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
            rows.append((name, '(program)', verdict(m.group(1), m.group(4)),
                         (m.group(4) or '').strip()))
            seen.add(name)
            suite, subtests = None, []
    if suite is not None:
        problems.append(f'{suite}: no result line (runner cut off?)')
        rows.extend(subtests)
        rows.append((suite, '(program)', 'missing', 'no result line'))
        seen.add(suite)
    if planned is None:
        problems.append('no KTAP plan line: the runner did not start')
    elif len(seen) != planned:
        problems.append(f'plan says {planned} programs, {len(seen)} reported')
    return rows, problems


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1], errors='replace') as f:
        rows, problems = parse(f.readlines())
    print('suite\ttest\tresult\tdetail')
    for r in rows:
        print('\t'.join(r))
    for p in problems:
        print(f'ktap.py: {argv[1]}: {p}', file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
