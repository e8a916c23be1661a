#!/usr/bin/env python3
"""Scan a guest kernel console log for signs of a kernel bug.

Any oops, BUG, WARNING, lockdep report, KASAN/UBSAN/KFENCE report, RCU
stall, hung task, soft lockup or panic fails the run.  Prints one block
per finding (its first lines) and exits 1 when there is any, 0 otherwise.

Usage: consolescan.py console.log...
"""
import re
import sys

# (name, pattern) pairs; the pattern is searched in each console line with
# the printk timestamp removed.
PATTERNS = [
    ('oops', re.compile(r'\bOops\b|general protection fault|BUG: unable to handle')),
    ('BUG', re.compile(r'\bBUG: |kernel BUG at ')),
    ('WARNING', re.compile(r'WARNING: (CPU: \d+ PID: \d+|at )|-+\[ cut here \]-+')),
    ('lockdep', re.compile(r'possible (circular|recursive) locking|inconsistent lock state|'
                           r'suspicious RCU usage|lock held when returning|'
                           r'bad unlock balance|possible irq lock inversion|'
                           r'DEBUG_LOCKS_WARN_ON|INFO: lockdep')),
    ('KASAN', re.compile(r'BUG: KASAN|KASAN: ')),
    ('UBSAN', re.compile(r'UBSAN: ')),
    ('KFENCE', re.compile(r'BUG: KFENCE')),
    ('RCU stall', re.compile(r'rcu: INFO: .*detected stall|rcu_(sched|preempt) self-detected stall')),
    ('hung task', re.compile(r'INFO: task .* blocked for more than')),
    ('soft lockup', re.compile(r'watchdog: BUG: soft lockup|hard LOCKUP')),
    ('list corruption', re.compile(r'list_(add|del) corruption')),
    ('panic', re.compile(r'Kernel panic - not syncing')),
    ('debugobjects', re.compile(r'ODEBUG: ')),
]
STAMP = re.compile(r'^\[\s*\d+\.\d+\]\s?')
CONTEXT = 8


def scan(lines):
    """Return a list of (kind, line number, excerpt lines) findings."""
    found = []
    skip_until = -1
    for i, raw in enumerate(lines):
        if i <= skip_until:
            continue
        line = STAMP.sub('', raw.rstrip('\r\n'))
        for kind, pat in PATTERNS:
            if pat.search(line):
                excerpt = [l.rstrip('\r\n') for l in lines[i:i + CONTEXT]]
                found.append((kind, i + 1, excerpt))
                skip_until = i + CONTEXT - 1
                break
    return found


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bad = 0
    for path in argv[1:]:
        with open(path, errors='replace') as f:
            lines = f.readlines()
        for kind, lineno, excerpt in scan(lines):
            bad += 1
            print(f'{path}:{lineno}: kernel {kind} report in the guest console:')
            for l in excerpt:
                print('    ' + l)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
