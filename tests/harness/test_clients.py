"""tests/clients: normaliser, expectations, transcript extraction and comparison."""
import io
import os
import re
import shutil
import subprocess
import tempfile
import unittest
from contextlib import redirect_stdout

from tests.harness.load import TOP, load

norm = load('tests/clients/normalise.py')
check = load('tests/clients/check.py')
trans = load('tests/clients/transcripts.py')
ktap = load('tests/ktap.py')
cmp = load('tests/side_by_side.py')

# Shaped like a real guest run of 'strace -f' on the workload (lines trimmed).
STRACE_F = """\
== client strace-f
== command /usr/bin/strace -f -s 200 -o trace /top/build/tests/clients/workload
== trace
56    execve("/top/build/tests/clients/workload", ["/top/build/tests/clients/workload"], 0x7ffd5fd48688 /* 1 var */) = 0
56    set_tid_address(0x1c1a9690)       = 56
56    prlimit64(0, RLIMIT_STACK, NULL, {rlim_cur=8192*1024, rlim_max=RLIM64_INFINITY}) = 0
56    getrandom("\\x1b\\x22\\"\\x88", 4, GRND_NONBLOCK) = 4
56    write(1, "workload: start\\n", 16) = 16
56    getpid()                          = 56
56    getpid()                          = 56
56    getpid()                          = 56
56    getpid()                          = 56
56    getpid()                          = 56
56    kill(56, SIGUSR1)                 = 0
56    --- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_USER, si_pid=56, si_uid=0} ---
56    rt_sigreturn({mask=[CHLD]})       = 0
56    close(-1)                         = -1 EBADF (Bad file descriptor)
56    close(-1)                         = -1 EBADF (Bad file descriptor)
56    pipe2([3, 4], 0)                  = 0
56    pipe2([5, 6], 0)                  = 0
56    clone3({flags=CLONE_VM|CLONE_THREAD, child_tid=0x7f935b4d2990, exit_signal=0} => {parent_tid=[57]}, 88) = 57
56    write(4, "G", 1)                  = 1
57    read(3, "G", 1)                   = 1
56    read(5,  <unfinished ...>
57    write(6, "T", 1 <unfinished ...>
56    <... read resumed>"T", 1)         = 1
57    <... write resumed>)              = 1
56    futex(0x7f935b4d2990, FUTEX_WAIT_BITSET|FUTEX_CLOCK_REALTIME, 57, NULL, FUTEX_BITSET_MATCH_ANY <unfinished ...>
57    exit(0)                           = ?
57    +++ exited with 0 +++
56    <... futex resumed>)              = 0
56    clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD <unfinished ...>
56    <... clone resumed>, child_tidptr=0x1c1a9690) = 58
56    wait4(58,  <unfinished ...>
58    execve("/top/build/tests/clients/workload-helper", ["workload-helper", "11"], 0x7ffe48f4a3d8 /* 0 vars */) = 0
58    getpid()                          = 58
58    write(1, "helper: tag 11\\n", 15)  = 15
58    exit_group(3)                     = ?
58    +++ exited with 3 +++
56    <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 3}], 0, NULL) = 58
56    write(1, "workload: done\\n", 15)  = 15
56    exit_group(0)                     = ?
56    +++ exited with 0 +++
== stdout
workload: start
helper: tag 11
workload: done
== stderr
== exit status 0
"""

# The same run scheduled differently: other pids, thread and child lines
# interleaved elsewhere, no split calls, pthread_join() did not wait.
SPLIT = """\
56    read(5,  <unfinished ...>
57    write(6, "T", 1 <unfinished ...>
56    <... read resumed>"T", 1)         = 1
57    <... write resumed>)              = 1
"""
WHOLE = """\
57    write(6, "T", 1)                  = 1
56    read(5, "T", 1)                   = 1
"""
assert SPLIT in STRACE_F
STRACE_F_OTHER = re.sub(r'\b(56|57|58)\b', lambda m: {'56': '1201', '57': '1300', '58': '1302'}[m.group(1)],
                        '\n'.join(l for l in STRACE_F.replace(SPLIT, WHOLE).split('\n')
                                  if 'futex' not in l)).replace('0x1c1a9690', '0x2a0b1690')


STRACE_C = """\
== client strace-c
== command /usr/bin/strace -c -S name -o trace /top/build/tests/clients/workload
== trace
% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
  0.00    0.000000           0         1           clone
  1.45    0.000160         160         1           clone3
  1.03    0.000114          57         2         2 close
 23.29    0.002575        2575         1           execve
 12.00    0.000300         300         1           futex
  1.58    0.000175          35         5           getpid
  0.64    0.000071          71         1           kill
  0.56    0.000056          56         1           rt_sigreturn
 50.55    0.005589        5589         1           wait4
------ ----------- ----------- --------- --------- ----------------
100.00    0.011057         290        14         2 total
== stdout
workload: start
helper: tag 11
workload: done
== stderr
== exit status 0
"""

GDB = """\
== client gdb
== command /usr/bin/gdb -nx -batch -x /top/tests/clients/gdb.gdb /top/build/tests/clients/workload
== output
Catchpoint 1 (syscall 'getpid' [39])
Breakpoint 2 at 0x4016ad: file workload.c, line 39.
Breakpoint 3 at 0x4016d1: file workload.c, line 47.
Breakpoint 4 at 0x401724: file workload.c, line 62.
[Thread debugging using libthread_db enabled]
Using host libthread_db library "/lib/x86_64-linux-gnu/libthread_db.so.1".

Catchpoint 1 (call to syscall getpid), 0x0000000000435557 in getpid ()

Catchpoint 1 (returned from syscall getpid), 0x0000000000435557 in getpid ()

Catchpoint 1 (call to syscall getpid), 0x0000000000435557 in getpid ()

Catchpoint 1 (returned from syscall getpid), 0x0000000000435557 in getpid ()

Catchpoint 1 (call to syscall getpid), 0x0000000000435557 in getpid ()

Catchpoint 1 (returned from syscall getpid), 0x0000000000435557 in getpid ()

Catchpoint 1 (call to syscall getpid), 0x0000000000435557 in getpid ()

Catchpoint 1 (returned from syscall getpid), 0x0000000000435557 in getpid ()

Catchpoint 1 (call to syscall getpid), 0x0000000000435557 in getpid ()

Catchpoint 1 (returned from syscall getpid), 0x0000000000435557 in getpid ()

Breakpoint 2, work_step (a=6, b=7) at workload.c:39
39\t\tint sum = a + b;
a = 6
b = 7
0x00000000004016b0\t39\t\tint sum = a + b;
0x00000000004016b3\t39\t\tint sum = a + b;
40\t\tint prod = a * b;
42\t\treturn prod - sum;
main (argc=1, argv=0x7fffffffed98) at workload.c:95
95\t\tif (work_step(WORK_A, WORK_B) != WORK_A * WORK_B - (WORK_A + WORK_B))
Value returned is $1 = 29

Program received signal SIGUSR1, User defined signal 1.
0x0000000000408d67 in kill ()

Breakpoint 3, on_usr1 (sig=10) at workload.c:47
47\t\tusr1_seen = sig;
sig = 10
[Attaching after Thread 0x4c43c0 (LWP 5668) fork to child process 5672]
[New inferior 2 (process 5672)]
[Detaching after fork from parent process 5668]
[Inferior 1 (process 5668) detached]
[Thread debugging using libthread_db enabled]
Using host libthread_db library "/lib/x86_64-linux-gnu/libthread_db.so.1".
[Switching to Thread 0x4c43c0 (LWP 5672)]

Thread 2.1 "workload" hit Breakpoint 4, child_before_exec (tag=11) at workload.c:62
62\t\tchar *argv[] = { HELPER_NAME, arg, NULL };
tag = 11
process 5672 is executing new program: /top/build/tests/clients/workload-helper
Error in re-setting breakpoint 2: Function "work_step" not defined.
Error in re-setting breakpoint 3: Function "on_usr1" not defined.
Error in re-setting breakpoint 4: Function "child_before_exec" not defined.

Thread 2.1 "workload-helper" hit Catchpoint 1 (call to syscall getpid), 0x000000000042ff67 in getpid ()

Thread 2.1 "workload-helper" hit Catchpoint 1 (returned from syscall getpid), 0x000000000042ff67 in getpid ()
[Inferior 2 (process 5672) exited with code 03]
== exit status 0
"""


# The fixture was recorded with work_step's lines at 39, 40 and 42 of
# workload.c; follow the source if it moved (values follow workload.h).
L_SUM, L_PROD, L_RET = (check.source_line(t) for t in (
    'int sum = a + b;', 'int prod = a * b;', 'return prod - sum;'))
GDB = GDB.replace('workload.c:39\n', f'workload.c:{L_SUM}\n').replace(
    '\t39\t', f'\t{L_SUM}\t').replace('\n39\t', f'\n{L_SUM}\t').replace(
    '\n40\t', f'\n{L_PROD}\t').replace('\n42\t', f'\n{L_RET}\t')

GDB_WATCH = """\
== client gdb-watch
== command /usr/bin/gdb -nx -batch -x /top/tests/clients/gdb-watch.gdb /top/build/tests/clients/workload
== output
Breakpoint 1 at 0x4017a5: file workload.c, line 75.

Breakpoint 1, main (argc=1, argv=0x7fffffffed98) at workload.c:75
75\t\tvoid *ret = NULL;
Hardware watchpoint 2: watched

Hardware watchpoint 2: watched

Old value = 0
New value = {first}
main (argc=1, argv=0x7fffffffed98) at workload.c:{l1}
{l1}\t\twatched = WATCH_SECOND;

Hardware watchpoint 2: watched

Old value = {first}
New value = {second}
main (argc=1, argv=0x7fffffffed98) at workload.c:{l2}
{l2}\t\tmemset(&sa, 0, sizeof(sa));
[Detaching after fork from child process 177]
[Inferior 1 (process 171) exited normally]
== exit status 0
"""


def gdb_watch(**kw):
    v = dict(first=check.C['WATCH_FIRST'], second=check.C['WATCH_SECOND'],
             l1=check.source_line('watched = WATCH_SECOND;'),
             l2=check.source_line('memset(&sa, 0, sizeof(sa));'))
    v.update(kw)
    return GDB_WATCH.format(**v)


class TestNormaliseStrace(unittest.TestCase):
    def test_schedule_and_pids_do_not_matter(self):
        a = norm.normalise(STRACE_F, '/top')
        b = norm.normalise(STRACE_F_OTHER, '/top')
        self.assertEqual(a, b)

    def test_tasks_named_by_creation_and_calls_joined(self):
        out = norm.normalise(STRACE_F, '/top').splitlines()
        self.assertIn('== P1', out)
        self.assertIn('read(5, "T", 1) = 1', out)
        self.assertIn('clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, '
                      'child_tidptr=0xADDR) = P3', out)
        self.assertIn('wait4(P3, [{WIFEXITED(s) && WEXITSTATUS(s) == 3}], 0, NULL) = P3', out)
        self.assertIn('--- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_USER, si_pid=P1, si_uid=0} ---', out)
        self.assertIn('clone3({flags=CLONE_VM|CLONE_THREAD, child_tid=0xADDR, exit_signal=0} => '
                      '{parent_tid=[P2]}, 88) = P2', out)
        self.assertIn('execve("<top>/build/tests/clients/workload-helper", ["workload-helper", "11"], '
                      '0xADDR /* 0 vars */) = 0', out)
        self.assertIn('getrandom("<random>", 4, GRND_NONBLOCK) = 4', out)
        self.assertFalse([l for l in out if 'futex' in l and not l.startswith('(')])
        p2 = out[out.index('== P2') + 1:out.index('== P3')]
        self.assertEqual(p2, ['read(3, "G", 1) = 1', 'write(6, "T", 1) = 1', 'exit(0) = ?',
                              '+++ exited with 0 +++'])

    def test_numbers_equal_to_a_pid_are_left_alone_outside_pid_places(self):
        raw = ('== client strace-f\n== trace\n'
               '16    write(1, "workload: start\\n", 16) = 16\n'
               '16    prlimit64(0, RLIMIT_STACK, NULL, NULL) = 0\n'
               '16    getppid() = 9\n')
        out = norm.normalise(raw).splitlines()
        self.assertIn('write(1, "workload: start\\n", 16) = 16', out)
        self.assertIn('prlimit64(0, RLIMIT_STACK, NULL, NULL) = 0', out)
        self.assertIn('getppid() = <pid>', out)

    def test_strace_c_keeps_counts_drops_times_and_futex(self):
        out = norm.normalise(STRACE_C).splitlines()
        body = out[out.index('== trace') + 1:out.index('== stdout')]
        self.assertEqual(body[0].split(), ['syscall', 'calls', 'errors'])
        rows = {l.split()[0]: l.split()[1:] for l in body[1:] if l[0].isalpha()}
        self.assertEqual(rows['close'], ['2', '2'])
        self.assertEqual(rows['getpid'], ['5', '0'])
        self.assertNotIn('futex', rows)
        self.assertEqual(rows['total'], ['13', '2'])
        self.assertFalse([l for l in body if '0.00' in l])
        other = STRACE_C.replace('12.00    0.000300         300         1           futex',
                                 ' 9.00    0.000900         900         3         1 futex')
        self.assertEqual(norm.normalise(other), norm.normalise(STRACE_C))


class TestNormaliseGdb(unittest.TestCase):
    def test_pids_addresses_and_paths(self):
        raw = ('== client gdb\n== output\n'
               '[Attaching after Thread 0x4c43c0 (LWP 130) fork to child process 134]\n'
               '[New inferior 2 (process 134)]\n'
               '[Inferior 1 (process 130) detached]\n'
               '0x00007ffff7e4a3b7 in kill () at /build/glibc-6Bqyzq/glibc-2.36/kill.c:3\n'
               'process 134 is executing new program: /top/build/tests/clients/workload-helper\n')
        self.assertEqual(norm.normalise(raw, '/top').splitlines()[2:], [
            '[Attaching after Thread 0xADDR (LWP P1) fork to child process P2]',
            '[New inferior 2 (process P2)]',
            '[Inferior 1 (process P1) detached]',
            '0xADDR in kill () at /build/<pkg>/glibc-2.36/kill.c:3',
            'process P2 is executing new program: <top>/build/tests/clients/workload-helper'])

    def test_small_hex_and_line_numbers_stay(self):
        raw = '== client gdb\n== output\n0x0000000000401790\t39\t\tint sum = a + b;\n$1 = 0x20\n'
        self.assertEqual(norm.normalise(raw).splitlines()[2:],
                         ['0xADDR\t39\t\tint sum = a + b;', '$1 = 0x20'])


class TestExpectations(unittest.TestCase):
    def results(self, client, raw):
        c = check.check(client, raw)
        return {n: g for n, g, _ in c.results}, c.status()

    def test_strace_f_passes_on_a_good_transcript(self):
        res, st = self.results('strace-f', STRACE_F)
        self.assertEqual(st, 0, [n for n, g in res.items() if not g])
        self.assertIn('signal_delivery', res)

    def test_strace_f_counts_getpid_exactly(self):
        raw = STRACE_F.replace('56    getpid()                          = 56\n', '', 1)
        res, st = self.results('strace-f', raw)
        self.assertEqual(st, 1)
        self.assertFalse(res['getpid_count'])

    def test_strace_f_wants_the_helper_status(self):
        raw = STRACE_F.replace('WEXITSTATUS(s) == 3', 'WEXITSTATUS(s) == 4')
        res, _ = self.results('strace-f', raw)
        self.assertFalse(res['wait_status'])

    def test_strace_seccomp_sees_only_the_filtered_calls(self):
        keep = ('execve', 'clone', 'clone3', 'wait4', 'kill', 'exit', 'exit_group', 'getpid')

        def traced(line):
            m = re.match(r'^\d+ +(?:<\.\.\. )?(\w+)', line)
            return not m or m.group(1) in keep or re.match(r'^\d+ +(---|\+\+\+)', line)
        raw = '\n'.join(l for l in STRACE_F.replace('client strace-f', 'client strace-seccomp')
                        .split('\n') if traced(l))
        res, st = self.results('strace-seccomp', raw)
        self.assertEqual(st, 0, [n for n, g in res.items() if not g])
        res, st = self.results('strace-seccomp', raw.replace(
            '56    kill(', '56    read(3, "G", 1) = 1\n56    kill('))
        self.assertFalse(res['only_filtered_calls'])

    def test_strace_c(self):
        res, st = self.results('strace-c', STRACE_C)
        self.assertEqual(st, 0, res)
        res, st = self.results('strace-c', STRACE_C.replace(
            '2         2 close', '2         1 close'))
        self.assertEqual(st, 1)
        self.assertFalse(res['close_errors'])

    def test_gdb_watch_values_come_from_the_source(self):
        res, st = self.results('gdb-watch', gdb_watch())
        self.assertEqual(st, 0, res)
        res, st = self.results('gdb-watch', gdb_watch(second=check.C['WATCH_SECOND'] + 1))
        self.assertEqual(st, 1)
        self.assertFalse(res['old_new_values'])

    def test_gdb_watch_without_hardware_is_a_skip_never_a_pass(self):
        raw = ('== client gdb-watch\n== output\nWatchpoint 2: watched\n'
               'CLIENT-SKIP: gdb set a software watchpoint, no hardware debug register\n'
               '== exit status 0\n')
        c = check.check('gdb-watch', raw)
        self.assertEqual(c.status(), 4)
        self.assertTrue(all(g is None for _, g, _ in c.results))
        self.assertIn('# SKIP gdb set a software watchpoint', '\n'.join(c.tap()))
        raw = raw.replace('CLIENT-SKIP: gdb set a software watchpoint, no hardware debug register',
                          'Could not insert hardware watchpoint 2.')
        self.assertEqual(check.check('gdb-watch', raw).status(), 4)

    def test_gdb_passes_on_a_good_transcript(self):
        res, st = self.results('gdb', GDB)
        self.assertEqual(st, 0, [n for n, g in res.items() if not g])
        self.assertEqual(len(res), 12)

    def test_gdb_catch_accepts_syscall_numbers(self):
        # gdb-minimal has no syscall-name XML: it prints the number.
        raw = GDB.replace("(syscall 'getpid' [39])", '(syscall 39)').replace(
            'syscall getpid)', 'syscall 39)')
        self.assertNotEqual(raw, GDB)
        self.assertEqual(self.results('gdb', raw)[1], 0)

    def test_gdb_counts_catch_stops_in_workload_and_helper(self):
        stop = '\nThread 2.1 "workload-helper" hit Catchpoint 1 (call to syscall getpid), 0x000000000042ff67 in getpid ()\n'
        self.assertIn(stop, GDB)
        res, st = self.results('gdb', GDB.replace(stop, '\n', 1))
        self.assertEqual(st, 1)
        self.assertFalse(res['catch_stops'])

    def test_gdb_values_come_from_the_source(self):
        res, _ = self.results('gdb', GDB.replace('Value returned is $1 = 29', 'Value returned is $1 = 30'))
        self.assertFalse(res['finish'])
        res, _ = self.results('gdb', GDB.replace('on_usr1 (sig=10)', 'on_usr1 (sig=12)'))
        self.assertFalse(res['signal_passed'])
        res, _ = self.results('gdb', GDB.replace('exited with code 03', 'exited with code 01'))
        self.assertFalse(res['exit_code'])

    def test_failures_are_tap_with_a_reason(self):
        c = check.check('strace-f', STRACE_F.replace('== exit status 0', '== exit status 1'))
        tap = c.tap()
        self.assertIn('not ok 1 client_status', tap)
        self.assertTrue(any(l.startswith('# client_status: strace exit status 1') for l in tap))


def guest_log(blocks):
    """An output.log as run-tests.sh prints it around run-client.sh output."""
    out = ['# guest: 6.12 running run-tests.sh', 'KTAP version 1', f'1..{len(blocks)}']
    for i, (suite, raw, complete) in enumerate(blocks, 1):
        out.append(f'# suite: {suite}')
        body = [f'# BEGIN TRANSCRIPT {suite}'] + ['# ' + l for l in raw.splitlines()]
        if complete:
            body.append(f'# END TRANSCRIPT {suite}')
        body += ['TAP version 13', '1..1', 'ok 1 x.client_status']
        out += ['    ' + l if l else '' for l in body]
        out.append(f'ok {i} {suite} # time=3s')
    return '\n'.join(out).replace('    # \n', '    #\n') + '\n'


class TestTranscripts(unittest.TestCase):
    def test_extract_round_trip_and_ktap_ignores_transcripts(self):
        log = guest_log([('clients/strace-f', STRACE_F, True),
                         ('clients/strace-c', STRACE_C, False)])
        got = trans.extract(log.splitlines(True))
        self.assertEqual(list(got), ['clients/strace-f'])
        self.assertEqual(got['clients/strace-f'], STRACE_F)
        rows, problems = ktap.parse(log.splitlines(True))
        self.assertEqual(problems, [])
        self.assertEqual(len(rows), 4)

    def test_extract_keeps_empty_lines_and_survives_carriage_returns(self):
        raw = '== client gdb\n== output\n\nBreakpoint 1, x\n== exit status 0\n'
        log = guest_log([('clients/gdb', raw, True)])
        got = trans.extract([l + '\r\n' for l in log.splitlines()])
        self.assertEqual(got['clients/gdb'], raw)

    def test_compare_rows(self):
        clients = [('clients/a', None), ('clients/b', None), ('clients/c', None),
                   ('clients/d', 'not installed')]
        texts = {'off': {'clients/a': 'x\n', 'clients/b': 'x\n', 'clients/d': ''},
                 'on': {'clients/a': 'x\n', 'clients/b': 'y\n', 'clients/c': 'z\n'}}
        rows, diffs = trans.compare(clients, ['off', 'on'], texts)
        got = {k: [(s, r) for s, r, _ in v] for k, v in rows.items()}
        self.assertEqual(got['off'], [('clients/a', 'pass'), ('clients/b', 'fail'),
                                      ('clients/c', 'missing'), ('clients/d', 'skip')])
        self.assertEqual(got['on'], [('clients/a', 'pass'), ('clients/b', 'fail'),
                                     ('clients/c', 'fail'), ('clients/d', 'skip')])
        self.assertEqual(list(diffs), ['clients/b'])
        self.assertIn('-x\n+y\n', diffs['clients/b'])

    def test_compare_three_columns(self):
        # the bystander column is compared like a kernel of its own
        kernels = ['utrace-off', 'utrace-on', 'utrace-on+bystander']
        same = {k: {'clients/a': 'x\n'} for k in kernels}
        rows, diffs = trans.compare([('clients/a', None)], kernels, same)
        self.assertEqual([rows[k][0][1] for k in kernels], ['pass'] * 3)
        self.assertIn('identical on utrace-off, utrace-on, utrace-on+bystander',
                      rows[kernels[2]][0][2])
        self.assertEqual(diffs, {})
        other = dict(same, **{'utrace-on+bystander': {'clients/a': 'y\n'}})
        rows, diffs = trans.compare([('clients/a', None)], kernels, other)
        self.assertEqual([rows[k][0][1] for k in kernels], ['fail'] * 3)
        self.assertIn('+++ utrace-on+bystander/clients/a.transcript', diffs['clients/a'])
        lost = dict(same, **{'utrace-on+bystander': {}})
        rows, _ = trans.compare([('clients/a', None)], kernels, lost)
        self.assertEqual([rows[k][0][1] for k in kernels], ['fail', 'fail', 'missing'])

    def test_client_skipped_as_a_whole_is_a_skip(self):
        log = ['# suite: clients/gdb', '    ok 1 setup # SKIP gdb is not installed',
               'ok 5 clients/gdb # SKIP exit status 4']
        skips = trans.skipped(log)
        self.assertEqual(skips, {'clients/gdb': 'gdb is not installed'})
        rows, _ = trans.compare([('clients/gdb', None)], ['off', 'on'], {'off': {}, 'on': {}},
                                {'off': skips, 'on': skips})
        self.assertEqual([r for _, r, _ in rows['off'] + rows['on']], ['skip', 'skip'])
        rows, _ = trans.compare([('clients/gdb', None)], ['off', 'on'],
                                {'off': {}, 'on': {'clients/gdb': 'x\n'}}, {'off': skips})
        self.assertEqual([rows['off'][0][1], rows['on'][0][1]], ['skip', 'fail'])

    def test_one_kernel_never_claims_pass(self):
        rows, diffs = trans.compare([('clients/a', None)], ['off'], {'off': {'clients/a': 'x\n'}})
        self.assertEqual(rows['off'][0][1], 'skip')
        self.assertIn('only off ran', rows['off'][0][2])
        self.assertEqual(diffs, {})

    def test_main_writes_rows_diff_and_merges_into_compare(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, 'runlist'), 'w') as f:
                f.write('# suite timeout command\nptrace/x 60 /x\n'
                        'clients/strace-f 120 bash run-client.sh strace-f /b\n')
            for k, raw in (('utrace-off', STRACE_F), ('utrace-on', STRACE_F_OTHER)):
                os.makedirs(os.path.join(d, k))
                with open(os.path.join(d, k, 'output.log'), 'w') as f:
                    f.write(guest_log([('clients/strace-f', raw, True)]))
            with redirect_stdout(io.StringIO()):
                self.assertEqual(trans.main(['t', d, os.path.join(d, 'runlist'),
                                             'utrace-off', 'utrace-on']), 0)
            with open(os.path.join(d, 'utrace-on', 'transcripts.tsv')) as f:
                self.assertIn('clients/strace-f\ttranscript\tpass\t', f.read())
            self.assertTrue(os.path.exists(os.path.join(d, 'utrace-on', 'clients',
                                                        'strace-f.transcript')))
            # now make the kernels differ
            with open(os.path.join(d, 'utrace-on', 'output.log'), 'w') as f:
                f.write(guest_log([('clients/strace-f', STRACE_F.replace(
                    'exit_group(3)', 'exit_group(4)'), True)]))
            buf = io.StringIO()
            with redirect_stdout(buf):
                trans.main(['t', d, os.path.join(d, 'runlist'), 'utrace-off', 'utrace-on'])
            diff = os.path.join(d, 'clients', 'strace-f.diff')
            with open(diff) as f:
                self.assertIn('+exit_group(4) = ?', f.read())
            self.assertIn('+exit_group(4) = ?', buf.getvalue())
            # side_by_side.py: a kernel's two results files make one column
            res = os.path.join(d, 'results.tsv')
            with open(res, 'w') as f:
                f.write('suite\ttest\tresult\tdetail\nclients/strace-f\t(program)\tpass\t\n')
            out = os.path.join(d, 'compare.tsv')
            with redirect_stdout(io.StringIO()):
                rc = cmp.main(['side_by_side.py', out] + [
                    f'{k}={p}' for k in ('utrace-off', 'utrace-on')
                    for p in (res, os.path.join(d, k, 'transcripts.tsv'))])
            self.assertEqual(rc, 1)
            with open(out) as f:
                lines = f.read().splitlines()
            self.assertEqual(lines, ['suite\ttest\tutrace-off\tutrace-on',
                                     'clients/strace-f\t(program)\tpass\tpass',
                                     'clients/strace-f\ttranscript\tfail\tfail'])



class TestRetry(unittest.TestCase):
    """A gdb run that needed a retry is a row of its own, flaky, never a silent pass."""

    def log(self, runs_line):
        out = ['KTAP version 1', '1..1', '# suite: clients/gdb',
               '    # clients: gdb: ran for 45s, exit status 0']
        if runs_line:
            out.append('    # clients: gdb: ' + runs_line)
        return [l + '\n' for l in out + ['ok 1 clients/gdb # time=45s']]

    def test_runs_line(self):
        self.assertEqual(trans.runs(self.log('runs 2 of at most 2, timed out 1')),
                         {'clients/gdb': (2, 1)})
        self.assertEqual(trans.runs(self.log('runs 1 of at most 1, timed out 0')), {})
        self.assertEqual(trans.runs(self.log(None)), {})

    def test_rows(self):
        clients = [('clients/gdb', None), ('clients/strace-f', None)]
        got = {'off': {'clients/gdb': (1, 0)}, 'on': {'clients/gdb': (2, 1)},
               'by': {'clients/gdb': (2, 2)}, 'cut': {}}
        rows = trans.retry_rows(clients, ['off', 'on', 'by', 'cut'], got)
        self.assertEqual({k: [(s, r) for s, r, _ in v] for k, v in rows.items()},
                         {'off': [('clients/gdb', 'pass')], 'on': [('clients/gdb', 'flaky')],
                          'by': [('clients/gdb', 'fail')], 'cut': [('clients/gdb', 'missing')]})
        self.assertIn('1 of 2 runs timed out', rows['on'][0][2])
        # No kernel reported runs (strace never retries): no row at all.
        self.assertEqual(trans.retry_rows(clients, ['off'], {'off': {}}), {'off': []})

    def test_flaky_row_is_shown_and_does_not_fail(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, 'runlist'), 'w') as f:
                f.write('clients/gdb 120 bash run-client.sh gdb /b\n')
            for k, line in (('utrace-off', 'runs 1 of at most 2, timed out 0'),
                            ('utrace-on', 'runs 2 of at most 2, timed out 1')):
                os.makedirs(os.path.join(d, k))
                with open(os.path.join(d, k, 'output.log'), 'w') as f:
                    f.write(guest_log([('clients/gdb', '== client gdb\n== exit status 0\n', True)])
                            .replace('# suite: clients/gdb\n',
                                     f'# suite: clients/gdb\n    # clients: gdb: {line}\n'))
            buf = io.StringIO()
            with redirect_stdout(buf):
                trans.main(['t', d, os.path.join(d, 'runlist'), 'utrace-off', 'utrace-on'])
            self.assertIn('transcripts: clients/gdb: utrace-on: flaky: 1 of 2 runs timed out',
                          buf.getvalue())
            with open(os.path.join(d, 'utrace-on', 'transcripts.tsv')) as f:
                self.assertIn('clients/gdb\tretry\tflaky\t', f.read())
            out = os.path.join(d, 'compare.tsv')
            buf = io.StringIO()
            with redirect_stdout(buf):
                rc = cmp.main(['side_by_side.py', out] + [
                    f'{k}={os.path.join(d, k, "transcripts.tsv")}'
                    for k in ('utrace-off', 'utrace-on')])
            text = buf.getvalue()
            self.assertEqual(rc, 0, text)
            self.assertRegex(text, r'(?m)^~~ clients/gdb\.retry +pass +flaky')
            self.assertIn('compare: FLAKY clients/gdb.retry: utrace-off=pass, utrace-on=flaky', text)
            self.assertIn('1 of them flaky', text)

    def test_run_client_retries_and_says_so(self):
        # run-client.sh itself, on the host, with a gdb that hangs on its
        # first run only and a 1 s time limit per run.
        with tempfile.TemporaryDirectory() as d:
            bindir = os.path.join(d, 'bin')
            os.makedirs(bindir)
            os.makedirs(os.path.join(d, 'gdb-data'))
            for name in ('workload', 'workload-helper'):
                with open(os.path.join(bindir, name), 'w') as f:
                    f.write('#!/bin/sh\n')
                os.chmod(os.path.join(bindir, name), 0o755)
            gdb = os.path.join(bindir, 'gdb')
            with open(gdb, 'w') as f:
                f.write(f'#!/bin/sh\n[ -e {d}/ran ] || {{ : >{d}/ran; exec sleep 30; }}\n'
                        'echo second run\n')
            os.chmod(gdb, 0o755)
            env = dict(os.environ, CLIENT_RUN_TIMEOUT='1',
                       PATH=bindir + os.pathsep + os.environ['PATH'])
            r = subprocess.run(['bash', os.path.join(TOP, 'tests', 'clients', 'run-client.sh'),
                                'gdb', bindir], env=env, capture_output=True, text=True,
                               timeout=60)
        lines = r.stdout.splitlines()
        self.assertIn('# clients: gdb: runs 2 of at most 2, timed out 1', lines, r.stdout)
        self.assertIn('# second run', lines)
        got = trans.runs(['    ' + l + '\n' for l in lines])
        self.assertEqual(trans.retry_rows([('clients/gdb', None)], ['k'], {'k': got})['k'][0][1],
                         'flaky')

    def test_run_client_skips_without_gdb(self):
        # No gdb on the PATH and no gdb-data (build-programs.sh makes it
        # only where gdb exists): a skip that names gdb, not a failure.
        with tempfile.TemporaryDirectory() as d:
            bindir = os.path.join(d, 'bin')
            tools = os.path.join(d, 'tools')
            os.makedirs(bindir)
            os.makedirs(tools)
            for name in ('workload', 'workload-helper'):
                with open(os.path.join(bindir, name), 'w') as f:
                    f.write('#!/bin/sh\n')
                os.chmod(os.path.join(bindir, name), 0o755)
            for tool in ('dirname', 'python3'):
                os.symlink(shutil.which(tool), os.path.join(tools, tool))
            r = subprocess.run([shutil.which('bash'), os.path.join(TOP, 'tests', 'clients', 'run-client.sh'),
                                'gdb', bindir], env={'PATH': tools}, capture_output=True,
                               text=True, timeout=60)
        self.assertEqual(r.returncode, 4, r.stdout + r.stderr)
        self.assertIn('ok 1 setup # SKIP gdb is not installed', r.stdout)


if __name__ == '__main__':
    unittest.main()
