#!/usr/bin/env python3
"""The result words of the harness, in one place.

Every result the harness writes is one of these words: a row of one
kernel's results (ktap.py, kunit_rows.py, clients/transcripts.py), a cell
of a table that puts the kernels side by side (side_by_side.py:
compare.tsv, and debug.tsv, kasan.tsv, rt.tsv from scripts/debug.sh), a
KCIDB test status (kcidb.py).  The programs import them from here; the
shell scripts ask this file ('verdicts.py counts TABLE').

  pass        the test passed
  fail        it failed
  skip        it skipped (a whole program that skips fails instead,
              unless tests/may-skip.txt lets it: ktap.py)
  timeout     the runner killed it at its time limit
  missing     no result: runner cut off, guest died, not reported
  flaky       it needed a second run, the first did not complete (a
              gdb client run that timed out and was retried: the row
              'clients/NAME retry'; tests/clients/transcripts.py)
  xfail       a failure of the base kernel itself (tests/known-failures.txt)
  xpass       a listed known failure that passed: the list is stale
  n/a         the test does not exist there by design (--only, --without)
  unexpected  a result where the column leaves the suite out
  changed     a row that the series changes on purpose, in the column of
              the unpatched base kernel (tests/base-differences.txt,
              side_by_side.py --changed): its result differs from the
              other kernels', as listed; compared as n/a
  unchanged   a row listed as changed on purpose that reads the same as
              the other kernels: the list is stale

A run passes when every cell is GOOD and every row reads the same on
every kernel, flaky counting as pass for the comparison: a retry on one
kernel and not on the other is not a difference of the kernels.  A flaky
row does not fail the run, but it is never a silent pass either: the
table marks it '~~' and side_by_side.py names it ('compare: FLAKY').
In the counts below it is a pass.

  verdicts.py counts TABLE   print 'passed failed skipped' over the rows
                             of a side-by-side TABLE (the .counts files
                             of make test): a row fails when a cell is
                             not GOOD, is skipped when no cell passed
  verdicts.py failing TABLE  print each failing row of TABLE, one line
                             'SUITE TEST: WORD WORD ...' (make test ends
                             with them, so that the tail of a CI log
                             names what failed)
"""
import sys

PASS = 'pass'
FAIL = 'fail'
SKIP = 'skip'
TIMEOUT = 'timeout'
MISSING = 'missing'
FLAKY = 'flaky'
XFAIL = 'xfail'
XPASS = 'xpass'
NA = 'n/a'
UNEXPECTED = 'unexpected'
CHANGED = 'changed'
UNCHANGED = 'unchanged'

WORDS = (PASS, FAIL, SKIP, TIMEOUT, MISSING, FLAKY, XFAIL, XPASS, NA, UNEXPECTED,
         CHANGED, UNCHANGED)

# What a run may end with.
GOOD = frozenset((PASS, SKIP, XFAIL, NA, FLAKY, CHANGED))

# KCIDB test status of each word (None: no test at all), and what the
# status alone would not say (the test's comment).  KCIDB has no expected
# failure and no flaky: a known failure still failed, and a run that had
# to be repeated did not complete the first time.
KCIDB = {
    PASS: 'PASS',
    FAIL: 'FAIL',
    SKIP: 'SKIP',
    TIMEOUT: 'ERROR',
    MISSING: 'MISS',
    FLAKY: 'ERROR',
    XFAIL: 'FAIL',
    XPASS: 'PASS',
    NA: None,
    UNEXPECTED: 'ERROR',
    CHANGED: None,
    UNCHANGED: 'ERROR',
}
KCIDB_NOTE = {
    TIMEOUT: 'timed out, killed by the runner',
    MISSING: 'no result: runner cut off, guest died or not reported',
    FLAKY: 'needed a second run: the first did not complete',
    XFAIL: 'a known failure of the base kernel, tests/known-failures.txt',
    XPASS: 'listed as a known failure of the base kernel, but passed',
    UNEXPECTED: 'this column leaves the suite out, yet a result came',
    UNCHANGED: 'listed as changed by the series on purpose, but the same as without it',
}


def comparable(word):
    """The word as the comparison of kernels sees it (flaky is a pass there,
    a row changed on purpose is not compared)."""
    return PASS if word == FLAKY else NA if word == CHANGED else word


def counts(rows):
    """(passed, failed, skipped) over rows of words, one row per test."""
    p = f = s = 0
    for words in rows:
        if any(w not in GOOD for w in words):
            f += 1
        elif any(comparable(w) == PASS for w in words):
            p += 1
        else:
            s += 1
    return p, f, s


def failing(rows):
    """The rows (lists of cells: suite, test, words...) that fail."""
    return [r for r in rows if any(w not in GOOD for w in r[2:])]


def main(argv):
    if len(argv) != 3 or argv[1] not in ('counts', 'failing'):
        print('verdicts.py: usage: verdicts.py counts|failing TABLE (see the file header)',
              file=sys.stderr)
        return 2
    try:
        with open(argv[2]) as f:
            lines = f.read().splitlines()[1:]
    except OSError as e:
        print(f'verdicts.py: cannot read {argv[2]}: {e.strerror or e}', file=sys.stderr)
        return 2
    rows = [line.split('\t') for line in lines if line]
    if argv[1] == 'failing':
        for r in failing(rows):
            print(f"{r[0]} {r[1]}: {' '.join(r[2:])}")
        return 0
    print('%d %d %d' % counts(r[2:] for r in rows))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
