#!/usr/bin/env python3
"""Turn the kernel's KUnit parser's JSON into result rows, one per case.

The built-in KUnit suites print KTAP on the console at boot.  The kernel's
own parser reads it:

  tools/testing/kunit/kunit.py parse --json=KUNIT_JSON console.log

(--json=FILE, with '=': a bare --json prints to stdout and takes FILE for
the input).  Its JSON (KernelCI style) is a group per suite, holding the
suite's cases and a sub-group per parameterised case; a suite that ran no
case (its init failed) is a case of the top group, and a result the suite
planned but never printed (the kernel crashed, a case hung) is a case
with an empty name and status ERROR.

Rows, as ktap.py's: suite 'kunit/SUITE', test 'CASE' ('CASE/PARAM' for a
parameterised case, '(suite)' for a suite without cases; '(missing N)'
for the N-th result that never came, a case or a whole suite), result
pass, fail or skip.

Usage: kunit_rows.py KUNIT_JSON > kunit.tsv   (columns: suite test result detail)

Exit 1, with one 'kunit/(console) (results) missing' row, when the JSON
is missing or holds no case: the kernel printed no KUnit results (run it
only for a kernel with CONFIG_KUNIT=y).  Bad arguments: one line on
stderr, exit 2.
"""
import argparse
import json
import sys

import verdicts as v

RESULT = {'PASS': v.PASS, 'SKIP': v.SKIP, 'FAIL': v.FAIL, 'ERROR': v.FAIL}
NO_RESULTS = ('kunit/(console)', '(results)', v.MISSING)


def result(status):
    """(result, detail) for a KernelCI status."""
    res = RESULT.get(status, v.FAIL)
    if status == 'ERROR':
        return res, 'crashed: no result line'
    return res, '' if status in RESULT else f'status {status}'


def case_rows(suite, group, prefix=''):
    rows = []
    for n, case in enumerate(group.get('test_cases', []), 1):
        name = prefix + (case['name'] or f'(missing {n})')
        rows.append((suite, name) + result(case['status']))
    for sub in group.get('sub_groups', []):
        rows.extend(case_rows(suite, sub, prefix + sub['name'] + '/'))
    return rows


def rows(data):
    """The rows of kunit.py's JSON (the top group), duplicates numbered."""
    out = []
    for suite in data.get('sub_groups', []):
        out.extend(case_rows(f'kunit/{suite["name"]}', suite))
    for n, case in enumerate(data.get('test_cases', []), 1):  # a suite that ran no case
        name = case['name'] or f'(missing {n})'
        out.append((f'kunit/{name}', '(suite)') + result(case['status']))
    seen = {}
    numbered = []
    for suite, test, res, detail in out:
        seen[suite, test] = seen.get((suite, test), 0) + 1
        if seen[suite, test] > 1:
            test = f'{test}#{seen[suite, test]}'
        numbered.append((suite, test, res, detail))
    return numbered


class Parser(argparse.ArgumentParser):
    """Bad arguments are one line on stderr (exit 2), not the usage."""

    def error(self, message):
        self.exit(2, f'{self.prog}: {message} (see {self.prog} --help)\n')


def main(argv):
    ap = Parser(prog='kunit_rows.py', description=__doc__,
                formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)
    ap.add_argument('json', metavar='KUNIT_JSON')
    path = ap.parse_args(argv[1:]).json
    try:
        with open(path) as f:
            found = rows(json.load(f))
        why = 'kunit.py found no KUnit results in the console (no KTAP: did the suites run?)'
    except (OSError, ValueError) as e:
        found, why = [], f'kunit.py wrote no JSON ({e}): see its own output'
    print('suite\ttest\tresult\tdetail')
    if not found:
        print('\t'.join(NO_RESULTS + (why,)))
        print(f'kunit_rows.py: {path}: {why}', file=sys.stderr)
        return 1
    for r in found:
        print('\t'.join(r))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
