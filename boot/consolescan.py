#!/usr/bin/env python3
"""Scan a guest kernel console log for signs of a kernel bug.

Any oops, BUG, WARNING, lockdep report, KASAN/UBSAN/KFENCE report, RCU
stall, hung task, soft lockup, panic or kmemleak report fails the run, and
so does any kernel stack trace or kernel register dump without one of
those headers (catch-all: a 'Call Trace:' or '<TASK>' trace, a
kernel-mode 'RIP: 0010:' line).  A report is one finding however long it is: the trace and the
registers below a header belong to it, up to the end of its trace (and
the '---[ end trace' marker and the RIP line x86 repeats right after
it).  Findings of the same kind whose traces start with the same
functions are printed once, with how often they were seen.  Prints one
block per group (the first lines of its first occurrence) and exits 1
when there is any finding, 0 otherwise.

Usage: consolescan.py console.log...
Bad arguments or a log that cannot be read: one line on stderr, exit 2.
"""
import argparse
import re
import sys

# (name, pattern) pairs; the pattern is searched in each console line with
# the printk timestamp removed.  A named header always starts a finding
# (unless it is within CONTEXT lines of the previous header: one report).
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
    ('kmemleak', re.compile(r'kmemleak: \d+ new suspected memory leaks|unreferenced object 0x')),
]
# Catch-all: these start a finding only outside a report (every WARN and
# oops has a RIP line and a Call Trace of its own).  RIP: kernel mode
# only (CS 0010): 'RIP: 0033:' is a user program's registers.
CATCH_ALL = [
    ('call trace', re.compile(r'^\s*(Call Trace:|<(TASK|IRQ|NMI)>\s*$)')),
    ('RIP', re.compile(r'^\s*RIP: 0010:')),
]
STAMP = re.compile(r'^\[\s*\d+\.\d+\]\s?')
TRACE_START = CATCH_ALL[0][1]
TRACE_END = re.compile(r'^\s*</TASK>\s*$')
END_MARKER = re.compile(r'---\[ end ')
# ' func+0x1a/0x30', ' ? func+0x1a/0x30' (unreliable), 'func.cold+0x5/0x9 [module]'
FRAME = re.compile(r'^\s*(\? )?(?:\[<[0-9a-f]+>\] )?([\w.$]+)\+0x[0-9a-f]+/0x[0-9a-f]+')
# Functions that only print or raise the report (or allocate, for
# kmemleak): they start many unrelated traces, so they do not count
# among a trace's first frames.
REPORT_FRAMES = {
    'dump_stack', 'dump_stack_lvl', 'show_stack', 'sched_show_task', 'panic',
    '__warn', 'warn_slowpath_fmt', 'report_bug', 'handle_bug',
    'exc_invalid_op', 'asm_exc_invalid_op', 'exc_page_fault', 'asm_exc_page_fault',
    'print_report', 'kasan_report', 'kfence_report_error', 'ubsan_epilogue',
    'print_circular_bug', 'check_noncircular', 'check_prev_add', 'check_prevs_add',
    'validate_chain', '__lock_acquire', 'lock_acquire', 'lockdep_rcu_suspicious',
    'print_usage_bug', 'mark_lock', 'kmemleak_alloc', '__schedule', 'schedule',
}
REPORT_FRAME_PREFIXES = ('__ubsan_handle_',)
CONTEXT = 8      # lines shown of a finding; named headers this close are one report
BEFORE = 4       # lines shown before a catch-all: dump_stack()'s CPU, Tainted, Hardware
                 # name lines and what the kernel said before them
SPAN = 200       # a report with no end in sight is over after this many lines
SUMMARY = 3      # lines after '---[ end trace' that still belong to it (x86 repeats RIP there)
FRAMES = 3       # first frames compared when grouping
SHOW_LINES = 10  # line numbers listed for a group


def report_frame(name):
    return name in REPORT_FRAMES or name.endswith('_noprof') or \
        name.startswith(REPORT_FRAME_PREFIXES)


class Finding:
    """One report: its kind, where it starts, its first lines and frames."""

    def __init__(self, kind, lines, i, before=0):
        self.kind = kind
        self.index = i
        self.lineno = i + 1
        self.excerpt = [l.rstrip('\r\n') for l in lines[max(0, i - before):i + CONTEXT]]
        self.header = STAMP.sub('', lines[i].rstrip('\r\n')).strip()
        self.until = i + SPAN   # the report is over at this line
        self.ended = None       # where its trace ended
        self.in_trace = False
        self.trace_done = False
        self.trace_frames = []
        self.other_frames = []   # frames outside a Call Trace (kmemleak's backtrace)

    def take(self, i, line):
        """Line i (timestamp removed) belongs to this report."""
        if END_MARKER.search(line):
            self.until = i + SUMMARY
        elif TRACE_START.match(line) and not self.trace_done:
            self.in_trace = True
        elif TRACE_END.match(line) and self.in_trace:
            self.in_trace, self.trace_done = False, True
            self.until, self.ended = i + 1, i
        else:
            m = FRAME.match(line)
            if m and not m.group(1) and not report_frame(m.group(2)) and not self.trace_done:
                (self.trace_frames if self.in_trace else self.other_frames).append(m.group(2))

    def frames(self):
        """The first functions of its trace ('?' and report frames left out)."""
        return tuple((self.trace_frames or self.other_frames)[:FRAMES])

    def key(self):
        """Findings with the same key are the same problem seen again."""
        if self.frames():
            return (self.kind, self.frames())
        # No trace: the header line itself, numbers and addresses left out.
        return (self.kind, re.sub(r'0x[0-9a-f]+|\d+', 'N', self.header))


def match(patterns, line):
    for kind, pat in patterns:
        if pat.search(line):
            return kind
    return None


def scan(lines):
    """Return the findings, in console order (a list of Finding)."""
    found = []
    cur = None  # the report being read: its lines start no catch-all finding
    for i, raw in enumerate(lines):
        line = STAMP.sub('', raw.rstrip('\r\n'))
        if cur is not None and i >= cur.until:
            cur = None
        if cur is None and END_MARKER.search(line) and found and found[-1].ended is not None \
                and i - found[-1].ended < CONTEXT:
            cur = found[-1]  # its end marker, a few lines after its trace
        kind = match(PATTERNS, line)
        if kind and not (found and i - found[-1].index < CONTEXT):
            cur = Finding(kind, lines, i)
            found.append(cur)
        elif cur is None:
            kind = match(CATCH_ALL, line)
            if kind:
                cur = Finding(kind, lines, i, BEFORE)
                found.append(cur)
        if cur is not None:
            cur.take(i, line)
    return found


def group(findings):
    """Return [(first finding, all findings with its key)], in console order."""
    groups = {}
    for f in findings:
        groups.setdefault(f.key(), []).append(f)
    return [(fs[0], fs) for fs in groups.values()]


class Parser(argparse.ArgumentParser):
    """Bad arguments are one line on stderr (exit 2), not the usage."""

    def error(self, message):
        self.exit(2, f'{self.prog}: {message} (see {self.prog} --help)\n')


def main(argv):
    ap = Parser(prog='consolescan.py', description=__doc__,
                formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)
    ap.add_argument('logs', nargs='+', metavar='console.log')
    bad = 0
    for path in ap.parse_args(argv[1:]).logs:
        try:
            with open(path, errors='replace') as f:
                lines = f.readlines()
        except OSError as e:
            ap.exit(2, f'consolescan.py: cannot read {path}: {e.strerror or e}\n')
        for first, all_of_it in group(scan(lines)):
            bad += 1
            seen = ''
            if len(all_of_it) > 1:
                at = ', '.join(str(f.lineno) for f in all_of_it[:SHOW_LINES])
                more = ', ...' if len(all_of_it) > SHOW_LINES else ''
                seen = f' (seen {len(all_of_it)} times, at lines {at}{more})'
            print(f'{path}:{first.lineno}: kernel {first.kind} report in the guest console{seen}:')
            for l in first.excerpt:
                print('    ' + l)
            if first.frames():
                print('    first frames: ' + ', '.join(first.frames()))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
