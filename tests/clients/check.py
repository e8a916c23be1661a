#!/usr/bin/env python3
"""Check one real client's transcript against what the workload must show.

  check.py CLIENT RAW_TRANSCRIPT     (run in the guest by run-client.sh)

Prints TAP (one result per expectation) and exits 0 when all hold, 1 when
one fails, 4 when the client could not be checked at all (every result a
SKIP).  The expected values are derived from the workload's source:
tests/clients/workload.h (its #defines) and the source lines of
workload.c, never from a client's output.  Checks run on the normalised
transcript (normalise.py), so pids read P1, P2, ... (strace: P1 the
workload, P2 its thread, P3 its forked child).
"""
import os
import re
import signal
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import normalise  # noqa: E402


def source_constants(path=os.path.join(HERE, 'workload.h')):
    consts = {}
    with open(path) as f:
        for line in f:
            m = re.match(r'#define\s+(\w+)\s+(\d+|\'.\'|"[^"]*")', line)
            if m:
                v = m.group(2)
                consts[m.group(1)] = int(v) if v.isdigit() else v[1:-1]
    return consts


def source_line(text, path=os.path.join(HERE, 'workload.c')):
    """Line number of the first line of workload.c containing text."""
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if text in line:
                return n
    raise SystemExit(f'check.py: {path} has no line with {text!r}: keep check.py in step with it')


C = source_constants()
WORK_RESULT = C['WORK_A'] * C['WORK_B'] - (C['WORK_A'] + C['WORK_B'])  # work_step()
SIGUSR1 = int(signal.SIGUSR1)


class Checker:
    def __init__(self):
        self.results = []

    def ok(self, name, cond, why=''):
        self.results.append((name, bool(cond), None if cond else why))

    def skip(self, name, reason):
        self.results.append((name, None, reason))

    def tap(self):
        lines = ['TAP version 13', f'1..{len(self.results)}']
        for i, (name, good, why) in enumerate(self.results, 1):
            if good is None:
                lines.append(f'ok {i} {name} # SKIP {why}')
            elif good:
                lines.append(f'ok {i} {name}')
            else:
                lines.append(f'# {name}: {why}')
                lines.append(f'not ok {i} {name}')
        return lines

    def status(self):
        if any(g is False for _, g, _ in self.results) or not self.results:
            return 1
        if all(g is None for _, g, _ in self.results):
            return 4
        return 0


def sec(secs, name):
    """Lines of the first section whose header is name or starts with 'name '."""
    for head, lines in secs:
        if head == name or head.startswith(name + ' '):
            return lines
    return None


def exit_status(secs):
    for head, _ in secs:
        m = re.match(r'exit status (\d+)$', head)
        if m:
            return int(m.group(1))
    return None


def in_order(lines, patterns):
    """Do lines match the regexes in this order (others may come between)?"""
    i = 0
    for line in lines:
        if i < len(patterns) and re.search(patterns[i], line):
            i += 1
    return i == len(patterns)


def count(lines, pattern):
    return sum(1 for l in lines if re.search(pattern, l))


def check_strace_follow(c, secs, only_traced):
    """strace -f and strace -f --seccomp-bpf -e trace=%process,getpid."""
    p1, p2, p3 = (sec(secs, f'P{i}') or [] for i in (1, 2, 3))
    helper = re.escape(C['HELPER_NAME'])
    c.ok('three_tasks', sec(secs, 'P4') is None and p1 and p2 and p3,
         'want exactly the workload (P1), its thread (P2) and its child (P3)')
    c.ok('execve_workload', p1 and re.match(r'execve\(".*/workload", .*\) = 0$', p1[0]),
         f'P1 first line: {p1[:1]}')
    c.ok('getpid_count', count(p1, r'^getpid\(\) = P1$') == C['GETPID_CALLS'],
         f'want {C["GETPID_CALLS"]} getpid() = P1 in P1')
    delivery = [r'^kill\(P1, SIGUSR1\) = 0$',
                r'^--- SIGUSR1 \{si_signo=SIGUSR1, si_code=SI_USER, si_pid=P1, .*\} ---$']
    if not only_traced:
        delivery.append(r'^rt_sigreturn\(')
    c.ok('signal_delivery', in_order(p1, delivery),
         'want kill(P1, SIGUSR1), its delivery to P1 and the handler returning')
    c.ok('thread_clone', count(p1, r'^clone3?\(.*CLONE_THREAD.* = P2$') == 1,
         'want one clone/clone3 with CLONE_THREAD returning P2 in P1')
    if not only_traced:
        c.ok('thread_pipes', in_order(p2, [r'^read\(\d+, "%s", 1\) = 1$' % C['GO_BYTE'],
                                           r'^write\(\d+, "%s", 1\) = 1$' % C['THREAD_BYTE']]),
             f'want P2 to read "{C["GO_BYTE"]}" and write "{C["THREAD_BYTE"]}"')
        c.ok('bad_closes', count(p1, r'^close\(-1\) = -1 EBADF ') == C['BAD_CLOSES'],
             f'want {C["BAD_CLOSES"]} close(-1) = -1 EBADF in P1')
    c.ok('thread_exit', in_order(p2, [r'^exit\(0\) = \?$', r'^\+\+\+ exited with 0 \+\+\+$']),
         'want P2 to exit(0)')
    c.ok('fork', count(p1, r'^(clone\(.*SIGCHLD.*|fork\(\)|clone3\(.*exit_signal=SIGCHLD.*) = P3$') == 1,
         'want one fork-like clone returning P3 in P1')
    c.ok('execve_helper', count(p3, r'^execve\(".*/%s", \["%s", "%d"\], .*\) = 0$'
                                % (helper, helper, C['CHILD_TAG'])) == 1,
         f'want P3 to execve the helper with argument {C["CHILD_TAG"]}')
    c.ok('helper_getpid', count(p3, r'^getpid\(\) = P3$') == C['HELPER_GETPID'],
         f'want {C["HELPER_GETPID"]} getpid() = P3 in P3')
    c.ok('helper_exit', in_order(p3, [r'^exit_group\(%d\) = \?$' % C['HELPER_EXIT'],
                                      r'^\+\+\+ exited with %d \+\+\+$' % C['HELPER_EXIT']]),
         f'want P3 to exit with {C["HELPER_EXIT"]}')
    c.ok('wait_status', count(p1, r'^wait4\(P3, \[\{WIFEXITED\(s\) && WEXITSTATUS\(s\) == %d\}\], '
                                  r'0, NULL\) = P3$' % C['HELPER_EXIT']) == 1,
         f'want P1 to reap P3 with exit status {C["HELPER_EXIT"]}')
    c.ok('workload_exit', p1[-2:] == ['exit_group(0) = ?', '+++ exited with 0 +++'],
         f'P1 ends with {p1[-2:]}')
    if only_traced:
        allowed = {'execve', 'clone', 'clone3', 'fork', 'vfork', 'wait4', 'kill', 'exit',
                   'exit_group', 'getpid'}
        seen = {m.group(1) for l in p1 + p2 + p3 for m in [re.match(r'^(\w+)\(', l)] if m}
        c.ok('only_filtered_calls', seen <= allowed,
             f'calls outside -e trace=%process,getpid: {sorted(seen - allowed)}')


def check_strace_c(c, secs):
    rows = {}
    for line in sec(secs, 'trace') or []:
        m = re.match(r'^(\w+)\s+(\d+)\s+(\d+)$', line)
        if m:
            rows[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    c.ok('getpid_count', rows.get('getpid') == (C['GETPID_CALLS'], 0),
         f'want getpid {C["GETPID_CALLS"]} calls 0 errors, got {rows.get("getpid")}')
    c.ok('close_errors', rows.get('close') == (C['BAD_CLOSES'], C['BAD_CLOSES']),
         f'want close {C["BAD_CLOSES"]} calls {C["BAD_CLOSES"]} errors, got {rows.get("close")}')
    c.ok('one_each', all(rows.get(n, (0, 0))[0] == 1 for n in ('execve', 'kill', 'wait4', 'rt_sigreturn')),
         'want exactly one execve, kill, wait4 and rt_sigreturn')
    c.ok('clones', rows.get('clone', (0, 0))[0] + rows.get('clone3', (0, 0))[0] == 2,
         'want two clone/clone3 calls (the thread and the fork)')


def check_gdb(c, out):
    """gdb.gdb: catch syscall, breakpoint, stepi/next/finish, SIGUSR1, follow fork."""
    body = source_line('int sum = a + b;')
    helper = re.escape(C['HELPER_NAME'])
    sc = r'(?:getpid|39)'  # x86_64 __NR_getpid; gdb without syscall XML shows the number
    c.ok('catchpoint_set', count(out, r"^Catchpoint 1 \(syscall (?:'getpid' \[39\]|39)\)$") == 1,
         'want catch syscall to set catchpoint 1 on getpid')
    stops = [(i, m.group(1)) for i, l in enumerate(out)
             for m in [re.search(r'\bCatchpoint 1 \((call to|returned from) syscall %s\), ' % sc, l)] if m]
    exec_at = next((i for i, l in enumerate(out) if 'is executing new program' in l), len(out))
    before = [k for i, k in stops if i < exec_at]
    after = [k for i, k in stops if i > exec_at]
    pair = ['call to', 'returned from']
    c.ok('catch_stops', before == pair * C['GETPID_CALLS'] and after == pair * C['HELPER_GETPID'],
         f'want {C["GETPID_CALLS"]} getpid entry/exit pairs in the workload and '
         f'{C["HELPER_GETPID"]} in the helper, got {len(before)} and {len(after)} stops')
    c.ok('breakpoint', in_order(out, [
        r'^Breakpoint 2, work_step \(a=%d, b=%d\) at .*workload\.c:%d$' % (C['WORK_A'], C['WORK_B'], body),
        r'^a = %d$' % C['WORK_A'], r'^b = %d$' % C['WORK_B']]),
        f'want a stop in work_step(a={C["WORK_A"]}, b={C["WORK_B"]}) at workload.c:{body}')
    c.ok('stepi', count(out, r'^0xADDR\t%d\t' % body) == 2,
         f'want two stepi stops inside workload.c:{body}')
    c.ok('next', in_order(out, [r'^0xADDR\t%d\t' % body,
                                r'^%d\t\s*int prod = a \* b;$' % source_line('int prod = a * b;'),
                                r'^%d\t\s*return prod - sum;$' % source_line('return prod - sum;')]),
         'want next to go to the next two source lines of work_step')
    c.ok('finish', count(out, r'^Value returned is \$1 = %d$' % WORK_RESULT) == 1,
         f'want finish to return {WORK_RESULT}')
    c.ok('signal_passed', in_order(out, [r'^Program received signal SIGUSR1, ',
                                         r'^Breakpoint 3, on_usr1 \(sig=%d\) ' % SIGUSR1,
                                         r'^sig = %d$' % SIGUSR1]),
         'want SIGUSR1 reported, then passed on to on_usr1 (its handler)')
    c.ok('follow_fork_child', in_order(out, [
        r'^\[Attaching after .*\(LWP P1\) fork to child process P2\]$',
        r'^\[New inferior 2 \(process P2\)\]$',
        r'^\[Detaching after fork from parent process P1\]$',
        r'^\[Inferior 1 \(process P1\) detached\]$']),
        'want gdb to follow the child P2 and detach the parent P1')
    c.ok('breakpoint_in_child', in_order(out, [
        r'hit Breakpoint 4, child_before_exec \(tag=%d\) ' % C['CHILD_TAG'],
        r'^tag = %d$' % C['CHILD_TAG']]),
        f'want the child to stop in child_before_exec(tag={C["CHILD_TAG"]})')
    c.ok('exec', count(out, r'^process P2 is executing new program: .*/%s$' % helper) == 1,
         'want the child to exec the helper')
    c.ok('exit_code', count(out, r'^\[Inferior 2 \(process P2\) exited with code %02o\]$'
                            % C['HELPER_EXIT']) == 1,
         f'want the helper to exit with {C["HELPER_EXIT"]}')


def watch_skip(out):
    """Why gdb could not use a hardware watchpoint here, or None."""
    for line in out:
        if line.startswith('CLIENT-SKIP: '):
            return line[len('CLIENT-SKIP: '):]
        if 'Could not insert hardware' in line:
            return f'gdb: {line.strip()}'
    return None


def check_gdb_watch(c, out):
    # x86 data breakpoints trap after the store: gdb reports the next statement.
    first = source_line('watched = WATCH_FIRST;')
    after_second = source_line('memset(&sa, 0, sizeof(sa));')
    c.ok('hardware_watchpoint', count(out, r'^Hardware watchpoint 2: watched$') >= 1,
         'want gdb to set a hardware watchpoint')
    c.ok('old_new_values', in_order(out, [
        r'^Old value = 0$', r'^New value = %d$' % C['WATCH_FIRST'],
        r'^main \(.*\) at .*workload\.c:%d$' % (first + 1),
        r'^Old value = %d$' % C['WATCH_FIRST'], r'^New value = %d$' % C['WATCH_SECOND'],
        r'^main \(.*\) at .*workload\.c:%d$' % after_second]) and
        count(out, r'^Old value') == 2,
        f'want 0 -> {C["WATCH_FIRST"]} -> {C["WATCH_SECOND"]}, each reported after its store')
    c.ok('exit', count(out, r'^\[Inferior 1 \(process P\d\) exited normally\]$') == 1,
         'want the workload to run to a normal exit')


def check_gdb_catch(c, out):
    sc = r'(?:getpid|39)'  # x86_64 __NR_getpid; gdb without syscall XML shows the number
    calls = [l for l in out if re.match(r'^Catchpoint 1 \((?:call to|returned from) syscall ', l)]
    want = [f'^Catchpoint 1 \\(call to syscall {sc}\\), ',
            f'^Catchpoint 1 \\(returned from syscall {sc}\\), '] * C['GETPID_CALLS']
    c.ok('catchpoint_set', count(out, r"^Catchpoint 1 \(syscall (?:'getpid' \[39\]|39)\)$") == 1,
         'want catch syscall to name getpid')
    c.ok('stops', len(calls) == len(want) and all(re.match(p, l) for p, l in zip(want, calls)),
         f'want {C["GETPID_CALLS"]} getpid entry/exit stop pairs, got {len(calls)} stops')
    c.ok('exit', count(out, r'^\[Inferior 1 \(process P\d\) exited normally\]$') == 1,
         'want the workload to run to a normal exit')


def check_gdb_fork(c, out):
    helper = re.escape(C['HELPER_NAME'])
    c.ok('follow_child', in_order(out, [
        r'^\[Attaching after .*\(LWP P1\) fork to child process P2\]$',
        r'^\[New inferior 2 \(process P2\)\]$',
        r'^\[Detaching after fork from parent process P1\]$',
        r'^\[Inferior 1 \(process P1\) detached\]$']),
        'want gdb to attach the child P2 and detach the parent P1')
    c.ok('breakpoint_in_child', in_order(out, [
        r'hit Breakpoint 1, child_before_exec \(tag=%d\) ' % C['CHILD_TAG'],
        r'^tag = %d$' % C['CHILD_TAG']]),
        f'want the child to stop in child_before_exec(tag={C["CHILD_TAG"]})')
    c.ok('exec', count(out, r'^process P2 is executing new program: .*/%s$' % helper) == 1,
         'want the child to exec the helper')
    c.ok('exit_code', count(out, r'^\[Inferior 2 \(process P2\) exited with code %02o\]$'
                            % C['HELPER_EXIT']) == 1,
         f'want the helper to exit with {C["HELPER_EXIT"]}')


CLIENTS = ('strace-f', 'strace-c', 'strace-seccomp', 'gdb', 'gdb-watch')


def check(client, raw):
    """Return a Checker with the results for one raw transcript."""
    if client not in CLIENTS:
        raise SystemExit(f'check.py: unknown client {client!r} (known: {", ".join(CLIENTS)})')
    c = Checker()
    secs = normalise.sections(normalise.normalise(raw))
    st = exit_status(secs)
    out = sec(secs, 'output') or []
    if client == 'gdb-watch' and watch_skip(out):
        # No hardware watchpoint (QEMU or gdb cannot): a skip, never a pass.
        c.skip('hardware_watchpoint', watch_skip(out))
        return c
    if client.startswith('strace'):
        stderr = [l for l in sec(secs, 'stderr') or [] if l.strip()]
        c.ok('client_status', st == 0, f'strace exit status {st} (the workload\'s: want 0)')
        c.ok('client_quiet', not stderr, f'strace said: {stderr[:3]}')
        c.ok('stdout', sec(secs, 'stdout') == ['workload: start', f'helper: tag {C["CHILD_TAG"]}',
                                                'workload: done'],
             f'workload stdout: {sec(secs, "stdout")}')
    else:
        c.ok('client_status', st == 0, f'gdb exit status {st}')
    if client == 'strace-f':
        check_strace_follow(c, secs, only_traced=False)
    elif client == 'strace-seccomp':
        check_strace_follow(c, secs, only_traced=True)
    elif client == 'strace-c':
        check_strace_c(c, secs)
    elif client == 'gdb':
        check_gdb(c, out)
    else:
        check_gdb_watch(c, out)
    return c


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[2], errors='replace') as f:
        c = check(argv[1], f.read())
    print('\n'.join(c.tap()))
    return c.status()


if __name__ == '__main__':
    sys.exit(main(sys.argv))
