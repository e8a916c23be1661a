#!/usr/bin/env python3
"""Normalise a real client's transcript so two kernels' runs can be compared.

A raw transcript (written in the guest by tests/clients/run-client.sh) is a
sequence of sections, each opened by a line '== NAME [TEXT]':

  == client NAME        strace-f, strace-c, strace-seccomp, gdb or gdb-watch
  == command ...        the command line, run in a scratch directory
  == trace              strace's -o output
  == output             gdb's stdout and stderr
  == stdout / stderr    the workload's stdout, strace's stderr
  == exit status N      the client's exit status

What changes from run to run, or from kernel to kernel without meaning
anything, is replaced; what the client reports about the workload stays:

* pids and tids -> P1, P2, ... .  strace -f: the traced tasks in the order
  their creator's clone/fork returned them (a breadth-first walk from the
  first task), so the names do not depend on scheduling; a number is only
  taken for a pid where strace prints one (the line's pid column, si_pid=,
  the pid arguments of kill/tgkill/wait4..., the result of
  clone/fork/getpid/wait4..., parent_tid=[...]).  gdb: 'process N' and
  'LWP N', in order of first appearance.  A pid we did not see created is
  '<pid>'.
* hex numbers of five digits or more (addresses, pointers) -> 0xADDR;
  getrandom()'s bytes -> "<random>".
* strace -f: each task's lines are grouped under '== P<n>' (the
  interleaving of tasks is scheduling); a call split into '<unfinished
  ...>' and '<... resumed>' is joined into one line; runs of blanks become
  one blank; futex() lines are dropped (whether pthread_join() has to wait
  depends on timing).
* strace -c: the time columns are dropped, calls and errors are kept, rows
  sorted by name; the futex row is dropped (as above) and the total is
  recomputed without it.
* the project's top directory -> <top>; Debian build paths
  (/build/<pkg-dir>/...) -> /build/<pkg>/...

  normalise.py [--top DIR] RAW_TRANSCRIPT    prints the normalised transcript
"""
import re
import sys

HEX = re.compile(r'\b0x[0-9a-fA-F]{5,}\b')
# A Debian package build directory at the start of a path (gdb's glibc sources).
BUILD_PATH = re.compile(r'(?<![\w.<>/-])/build/[^/\s"]+/')
STRACE_LINE = re.compile(r'^(\d+) +(.*)$')
UNFINISHED = re.compile(r' ?<unfinished \.\.\.>$')
RESUMED = re.compile(r'^<\.\.\. [\w]+ resumed>')
SYSCALL = re.compile(r'^([a-z_][a-z0-9_]*)\(')
# Syscalls whose (non-negative) result is a pid or tid.
RETURNS_PID = {'clone', 'clone3', 'fork', 'vfork', 'wait4', 'getpid', 'gettid',
               'getppid', 'set_tid_address', 'getpgid', 'getpgrp', 'getsid', 'setsid'}
# Where strace prints a pid inside a line: (regex, group holding the pid).
PID_FIELDS = [
    re.compile(r'^(?:kill|tkill|tgkill|wait4|prlimit64|pidfd_open|getpgid|setpgid|getsid|'
               r'sched_\w+|process_vm_\w+|kcmp)\((\d+)'),
    re.compile(r'^(?:tgkill|setpgid|kcmp)\(\S+, (\d+)'),
    re.compile(r'^waitid\(P_PID, (\d+)'),
    re.compile(r'^ptrace\(PTRACE_\w+, (\d+)'),
    re.compile(r'\bsi_pid=(\d+)'),
    re.compile(r'\b(?:parent|child)_tid=\[(\d+)\]'),
]
RESULT = re.compile(r' = (\d+)$')
ARROW = re.compile(r' ?=> ?')
RANDOM = re.compile(r'^getrandom\("(?:[^"\\]|\\.)*"(?:\.\.\.)?')
GDB_PID = re.compile(r'\b(process|LWP) (\d+)\b')
CLONE_RESULT = re.compile(r'^(?:clone3?|fork|vfork)\(.* = (\d+)$')
STRACE_C_ROW = re.compile(r'^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(\d*)\s*(\S+)$')


def sections(text):
    """Split a raw transcript into [(header, [lines])]; header '' for lines before any."""
    out = [('', [])]
    for line in text.splitlines():
        if line.startswith('== '):
            out.append((line[3:], []))
        else:
            out[-1][1].append(line)
    if not out[0][1]:
        out.pop(0)
    return out


def client_of(secs):
    for head, _ in secs:
        if head.startswith('client '):
            return head.split(None, 1)[1].strip()
    return ''


def common(line, top):
    if top:
        line = line.replace(top.rstrip('/'), '<top>')
    line = BUILD_PATH.sub('/build/<pkg>/', line)
    return HEX.sub('0xADDR', line)


def join_split_calls(lines):
    """strace -f: group lines by pid, join unfinished/resumed halves.

    Returns (order of pids as first seen, {pid: [lines]}, [lines without a pid])."""
    per = {}
    order = []
    other = []
    for line in lines:
        m = STRACE_LINE.match(line)
        if not m:
            if line.strip():
                other.append(line)
            continue
        pid, rest = m.group(1), m.group(2)
        if pid not in per:
            per[pid] = []
            order.append(pid)
        seq = per[pid]
        if RESUMED.match(rest) and seq and seq[-1].endswith('<unfinished ...>'):
            seq[-1] = UNFINISHED.sub('', seq[-1]) + RESUMED.sub('', rest, count=1)
        else:
            seq.append(rest)
    for pid in per:
        per[pid] = [ARROW.sub(' => ', ' '.join(l.split())) for l in per[pid]]
    return order, per, other


def name_tasks(order, per):
    """Breadth-first from the first task over clone/fork results -> {pid: 'P<n>'}."""
    names = {}
    if not order:
        return names
    queue = [order[0]]
    names[order[0]] = 'P1'
    while queue:
        pid = queue.pop(0)
        for line in per.get(pid, []):
            m = CLONE_RESULT.match(line)
            if m and m.group(1) not in names:
                names[m.group(1)] = f'P{len(names) + 1}'
                queue.append(m.group(1))
    for pid in order:  # traced tasks we did not see created (should not happen)
        if pid not in names:
            names[pid] = f'P{len(names) + 1}'
    return names


def replace_group(line, m, group, value):
    return line[:m.start(group)] + value + line[m.end(group):]


def strace_pids(line, names):
    """Replace the pids strace prints inside one call line."""
    def pid(n):
        return names.get(n, n if n == '0' else '<pid>')  # 0: the caller itself
    for rx in PID_FIELDS:
        # left to right; re-search after each replacement (lengths change)
        pos = 0
        while True:
            m = rx.search(line, pos)
            if not m:
                break
            new = pid(m.group(1))
            line = replace_group(line, m, 1, new)
            pos = m.start(1) + len(new)
    m = SYSCALL.match(line)
    r = RESULT.search(line)
    if m and r and m.group(1) in RETURNS_PID:
        line = replace_group(line, r, 1, pid(r.group(1)))
    return line


def strace_f(lines, top):
    order, per, other = join_split_calls(lines)
    names = name_tasks(order, per)
    out = []
    for pid in sorted(per, key=lambda p: int(names[p][1:])):
        out.append(f'== {names[pid]}')
        for line in per[pid]:
            if line.startswith('futex('):
                continue
            line = RANDOM.sub('getrandom("<random>"', line)
            out.append(common(strace_pids(line, names), top))
    if other:
        out.append('== lines without a pid')
        out += [common(l, top) for l in other]
    return out


def strace_c(lines):
    rows = {}
    other = []
    for line in lines:
        if line.startswith('% time') or set(line.strip()) <= {'-', ' '}:
            continue
        m = STRACE_C_ROW.match(line)
        if not m:
            other.append(line)
            continue
        calls, errors, name = int(m.group(1)), int(m.group(2) or 0), m.group(3)
        if name in ('total', 'futex'):
            continue
        rows[name] = (calls, errors)
    out = [f'{"syscall":<24} {"calls":>6} {"errors":>6}']
    for name in sorted(rows):
        out.append(f'{name:<24} {rows[name][0]:>6} {rows[name][1]:>6}')
    out.append(f'{"total":<24} {sum(c for c, _ in rows.values()):>6} '
               f'{sum(e for _, e in rows.values()):>6}')
    out.append('(futex omitted: whether pthread_join() waits depends on timing)')
    return out + other


def gdb(lines, top):
    names = {}

    def sub(m):
        n = m.group(2)
        if n not in names:
            names[n] = f'P{len(names) + 1}'
        return f'{m.group(1)} {names[n]}'
    return [common(GDB_PID.sub(sub, line), top) for line in lines]


def normalise(text, top=None):
    """Raw transcript text -> normalised text (ends with a newline)."""
    secs = sections(text)
    client = client_of(secs)
    out = []
    for head, lines in secs:
        if head:
            out.append('== ' + common(head, top))
        if head == 'trace' and client == 'strace-c':
            out += strace_c(lines)
        elif head == 'trace' and client.startswith('strace'):
            out += strace_f(lines, top)
        elif head == 'output' and client.startswith('gdb'):
            out += gdb(lines, top)
        else:
            out += [common(l, top) for l in lines]
    return '\n'.join(out) + '\n'


def main(argv):
    args = argv[1:]
    top = None
    if len(args) == 3 and args[0] == '--top':
        top = args[1]
        args = args[2:]
    if len(args) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(args[0], errors='replace') as f:
        sys.stdout.write(normalise(f.read(), top))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
