"""bench/report.py: parsing, means and spread, ratios, targets, failures."""
import contextlib
import io
import os
import re
import tempfile
import unittest

from tests.harness.load import TOP, load, usage_error

rep = load('bench/report.py')

DONE = '# bench: done\n'
EXPECTED = [n for _, names, _ in rep.GROUPS for n in names]


ATTACH = 'attach-1000-threads'


def log(values=None, skip=(), extra=''):
    """A finished guest log: every expected benchmark (and the attach row)
    at 100 us unless given."""
    values = values or {}
    lines = [f'result {n} us/op {values.get(n, 100.0)}\n' for n in EXPECTED + [ATTACH]
             if n not in skip]
    return ''.join(lines) + extra + DONE


def scale_rows(kernel, values):
    """Row dicts as build_rows() makes them, for engine_slope()."""
    return [{'name': n, kernel: v} for n, v in values.items()]


class TestParse(unittest.TestCase):
    def test_kinds(self):
        rows, fails, done = rep.parse([
            '# bench: getpid\n', 'result getpid ns/call 220.5\n',
            '  | result fake x 1\n',
            'na syscount-utrace-engine us/iteration needs CONFIG_UTRACE=y\n',
            'pending engines-1-per-event ns/syscall needs a module\n',
            'fail fork exit status 1\n', DONE])
        self.assertEqual(rows['getpid'], ('result', 'ns/call', 220.5))
        self.assertEqual(rows['syscount-utrace-engine'][0], 'na')
        self.assertEqual(rows['engines-1-per-event'][2], 'needs a module')
        self.assertEqual(rows['fork'][0], 'fail')
        self.assertNotIn('fake', rows)
        self.assertEqual(fails, ['fork exit status 1'])
        self.assertTrue(done)

    def test_not_a_number_fails(self):
        _, fails, done = rep.parse(['result getpid ns/call nan?\n'])
        self.assertEqual(len(fails), 1)
        self.assertFalse(done)


class TestCombine(unittest.TestCase):
    def test_mean_and_spread(self):
        runs = [{'a': ('result', 'us', 100.0)}, {'a': ('result', 'us', 102.0)}]
        kind, unit, mean, spread = rep.combine(runs)['a']
        self.assertEqual((kind, unit, mean), ('result', 'us', 101.0))
        self.assertAlmostEqual(spread, 2 / 101 * 100)

    def test_one_run_has_no_spread(self):
        self.assertIsNone(rep.combine([{'a': ('result', 'us', 1.0)}])['a'][3])


class TestReport(unittest.TestCase):
    def run_report(self, mode, kernels, absent=None):
        """kernels: {kernel: [log text, ...]}; returns (rc, tsv lines, stdout, stderr)."""
        with tempfile.TemporaryDirectory() as d:
            args = ['report.py', '--mode', mode, '--tsv', os.path.join(d, 'b.tsv'),
                    '--svg', os.path.join(d, 'b.svg')]
            if absent:
                args += ['--absent', absent]
            for k, texts in kernels.items():
                paths = []
                for i, t in enumerate(texts):
                    p = os.path.join(d, f'{k}-{i}.log')
                    with open(p, 'w') as f:
                        f.write(t)
                    paths.append(p)
                args.append(f'{k}=' + ','.join(paths))
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                rc = rep.main(args)
            with open(os.path.join(d, 'b.tsv')) as f:
                tsv = f.read().splitlines()
            with open(os.path.join(d, 'b.svg')) as f:
                self.assertTrue(f.read().startswith('<svg'))
            return rc, tsv, out.getvalue(), err.getvalue()

    def test_legacy_only(self):
        rc, tsv, out, _ = self.run_report(
            'smoke', {'utrace-off': [log({'getpid': 200.0})]},
            absent='utrace-on=no CONFIG_UTRACE yet')
        self.assertEqual(rc, 0)
        self.assertTrue(tsv[0].startswith('benchmark\tunit\tutrace-off\tutrace-on\tratio'))
        self.assertTrue(tsv[1].startswith('getpid\tus/op\t200.000\tnot-built\t-\t'))
        self.assertIn('utrace-on: not built yet: no CONFIG_UTRACE yet', out)

    def test_ratio_and_targets(self):
        off = log({'getpid': 200.0, 'singlestep': 10.0})
        on = log({'getpid': 201.0, 'singlestep': 10.5})
        rc, tsv, out, _ = self.run_report('full', {'utrace-off': [off, off],
                                                   'utrace-on': [on, on]})
        self.assertEqual(rc, 0, 'missing a target must not fail the run')
        rows = {l.split('\t')[0]: l.split('\t') for l in tsv[1:]}
        self.assertEqual(rows['getpid'][4:7], ['1.0050', '<=1.005', 'met'])
        self.assertEqual(rows['singlestep'][4:7], ['1.0500', '<=1.02', 'NOT met'])
        self.assertEqual(rows['getpid'][7], '0.00%')
        self.assertIn('targets NOT met: singlestep', out)

    def test_spread_target(self):
        off = log({'getpid': 200.0})
        rc, _, out, _ = self.run_report('full', {'utrace-off': [off, off],
                                                 'utrace-on': [off, off]})
        self.assertEqual(rc, 0)
        self.assertIn('spread <= 0.1%: every row', out)
        # 200.0 against 200.2: 0.0999...%, within; 200.3: 0.1499...%, not.
        near = log({'getpid': 200.2, 'fork-exit-wait': 100.1})
        wide = log({'getpid': 200.3, 'tracefork': 100.2})
        rc, _, out, _ = self.run_report('full', {'utrace-off': [off, near],
                                                 'utrace-on': [off, wide]})
        self.assertEqual(rc, 0, 'a wide spread must not fail the run')
        self.assertIn('spread <= 0.1%: NOT on getpid, tracefork', out)

    def test_smoke_does_not_judge_speed(self):
        off = log({'getpid': 200.0})
        on = log({'getpid': 300.0})
        rc, tsv, out, _ = self.run_report('smoke', {'utrace-off': [off], 'utrace-on': [on]})
        self.assertEqual(rc, 0)
        self.assertEqual(tsv[1].split('\t')[6], '-')
        self.assertNotIn('NOT met', out)

    def test_failed_benchmark_fails(self):
        rc, _, _, err = self.run_report(
            'smoke', {'utrace-off': [log(skip=['fork-exit-wait'], extra='fail fork-exit-wait exit status 1\n')]})
        self.assertEqual(rc, 1)
        self.assertIn('fork-exit-wait exit status 1', err)

    def test_missing_number_fails(self):
        a = log()
        b = log(skip=['fork-exit-wait'])
        rc, tsv, _, err = self.run_report('full', {'utrace-off': [a, b]})
        self.assertEqual(rc, 1)
        self.assertIn('no number for fork-exit-wait', err)

    def test_benchmark_never_run_fails(self):
        rc, _, _, err = self.run_report('smoke', {'utrace-off': [log(skip=['gdb-breakpoint'])]})
        self.assertEqual(rc, 1)
        self.assertIn('no number for gdb-breakpoint', err)

    def test_unfinished_guest_fails(self):
        rc, _, _, err = self.run_report('smoke', {'utrace-off': [log()[:-len(DONE)]]})
        self.assertEqual(rc, 1)
        self.assertIn('did not reach the end', err)

    def test_pending_rows_do_not_fail(self):
        text = log(skip=['engines-1-per-event'],
                   extra='pending engines-1-per-event ns/syscall needs a module\n')
        rc, tsv, out, _ = self.run_report('smoke', {'utrace-off': [text]})
        self.assertEqual(rc, 0)
        self.assertIn('engines-1-per-event\tns/syscall\tpending', '\n'.join(tsv))
        self.assertIn("pending: needs a module", out)


class TestScale(unittest.TestCase):
    def test_slope_is_least_squares_over_k_from_1(self):
        # 300 ns plain, the first engine +1000, then 650 per engine; K=0 is off the line.
        vals = {f'engines-{k}-per-event': 300.0 + (350.0 + 650.0 * k if k else 0.0)
                for k in (0, 1, 2, 4, 8, 16)}
        vals['attach-1000-threads'] = 2800.0
        s = rep.engine_slope(scale_rows('utrace-on', vals), 'utrace-on')
        self.assertAlmostEqual(s['slope'], 650.0)
        self.assertAlmostEqual(s['intercept'], 650.0)
        self.assertAlmostEqual(s['first'], 1000.0)
        self.assertAlmostEqual(s['worst'], 0.0)
        self.assertEqual([k for k, _ in s['points']], [1, 2, 4, 8, 16])

    def test_slope_of_noisy_points(self):
        # 100 + 10 K, with K=2 6 ns high: mean K 6.2, Sxx = 341 - 5 * 6.2^2 = 148.8,
        # so the slope is 10 + (2 - 6.2) * 6 / 148.8 and the line goes through the means.
        pts = {1: 110.0, 2: 126.0, 4: 140.0, 8: 180.0, 16: 260.0}
        rows = scale_rows('on', {f'engines-{k}-per-event': v for k, v in pts.items()})
        s = rep.engine_slope(rows, 'on')
        slope = 10 - 4.2 * 6 / 148.8
        icpt = 163.2 - slope * 6.2
        self.assertAlmostEqual(s['slope'], slope)
        self.assertAlmostEqual(s['intercept'], icpt)
        self.assertIsNone(s['first'])
        self.assertAlmostEqual(s['worst'], max(abs(v - icpt - slope * k) / v * 100
                                               for k, v in pts.items()))
        self.assertGreater(s['worst'], 3.0)

    def test_no_slope_without_two_numbers(self):
        self.assertIsNone(rep.engine_slope(scale_rows('on', {
            'engines-0-per-event': 200.0, 'engines-1-per-event': 900.0,
            'engines-2-per-event': 'na', 'engines-4-per-event': 'pending'}), 'on'))
        self.assertIsNone(rep.engine_slope([], 'on'))

    def test_report_prints_the_slope_of_utrace_on_only(self):
        on_vals = {f'engines-{k}-per-event': 1000.0 + 500.0 * k for k in (0, 1, 2, 4, 8, 16)}
        on = log(on_vals)
        off = log(skip=list(on_vals) + [ATTACH], extra=''.join(
            f'na {n} ns/call CONFIG_UTRACE=n\n' for n in on_vals) +
            f'na {ATTACH} ns/attach CONFIG_UTRACE=n\n')
        rc, tsv, out, _ = self.run_report('full', {'utrace-off': [off, off], 'utrace-on': [on, on]})
        self.assertEqual(rc, 0)
        self.assertIn('per extra engine: 500 ns (target <= 300: NOT met) (utrace-on; '
                      'least-squares slope over K = 1, 2, 4, 8, 16, every point within 0% '
                      'of the line; the first engine adds 500 ns to K = 0 '
                      '(target <= 400: NOT met))', out)
        self.assertNotIn('(utrace-off;', out)
        rows = {l.split('\t')[0]: l.split('\t') for l in tsv[1:]}
        self.assertEqual(rows['engines-16-per-event'][2:4], ['na', '9000.000'])
        self.assertIn('CONFIG_UTRACE=n', rows[ATTACH][-1])

    def test_engine_targets_met(self):
        on_vals = {f'engines-{k}-per-event': 220.0 + 299.0 + 128.0 * (k - 1) if k else 220.0
                   for k in (0, 1, 2, 4, 8, 16)}
        off = log(skip=list(on_vals), extra=''.join(
            f'na {n} ns/call CONFIG_UTRACE=n\n' for n in on_vals))
        rc, _, out, _ = self.run_report('full', {'utrace-off': [off], 'utrace-on': [log(on_vals)]})
        self.assertEqual(rc, 0)
        self.assertIn('per extra engine: 128 ns (target <= 300: met)', out)
        self.assertIn('the first engine adds 299 ns to K = 0 (target <= 400: met))', out)
        rc, _, out, _ = self.run_report('smoke', {'utrace-off': [off], 'utrace-on': [log(on_vals)]})
        self.assertNotIn('target <=', out.split('per extra engine')[1].splitlines()[0])

    def test_no_slope_line_when_pending(self):
        text = log(skip=[f'engines-{k}-per-event' for k in (1, 2, 4, 8, 16)], extra=''.join(
            f'pending engines-{k}-per-event ns/call no module\n' for k in (1, 2, 4, 8, 16)))
        rc, _, out, _ = self.run_report('smoke', {'utrace-on': [text]})
        self.assertEqual(rc, 0)
        self.assertNotIn('per extra engine', out)

    def test_attach_row_is_named_after_the_threads_that_fit(self):
        text = log(skip=[ATTACH], extra='result attach-600-threads ns/attach 2900\n')
        rc, tsv, out, _ = self.run_report('smoke', {'utrace-on': [text]})
        self.assertEqual(rc, 0)
        names = [l.split('\t')[0] for l in tsv[1:]]
        self.assertEqual(names[-7:], [f'engines-{k}-per-event' for k in (0, 1, 2, 4, 8, 16)] +
                         ['attach-600-threads'])
        self.assertIn('-- scale', out)

    def test_missing_attach_row_fails(self):
        rc, _, _, err = self.run_report('smoke', {'utrace-on': [log(skip=[ATTACH])]})
        self.assertEqual(rc, 1)
        self.assertIn('no number for attach-N-threads', err)

    def test_module_that_does_not_unload_fails(self):
        text = log(extra='fail test_utrace-unload rmmod test_utrace failed with 2 engines live\n')
        rc, _, _, err = self.run_report('smoke', {'utrace-on': [text]})
        self.assertEqual(rc, 1)
        self.assertIn('test_utrace-unload rmmod test_utrace failed', err)

    run_report = TestReport.run_report


class TestStub(unittest.TestCase):
    def test_stub_against_ptrace_where_both_ran(self):
        rows = [{'name': 'gdb-breakpoint', 'off': 50.0, 'on': 51.0},
                {'name': 'gdb-breakpoint-stub', 'off': 'na', 'on': 25.5}]
        self.assertEqual(rep.stub_lines(rows, ['off', 'on']), [
            'gdb breakpoint hit, through /proc/PID/gdb / through ptrace (on): 0.500'])


class TestCond(unittest.TestCase):
    rows = [{'name': 'gdb-cond-gdbserver', 'off': 300.0, 'on': 310.0},
            {'name': 'gdb-cond-stub', 'off': 'na', 'on': 10.0}]

    def test_ratio_where_both_ran_with_verdict_in_full_mode(self):
        self.assertEqual(rep.cond_lines(self.rows, ['off', 'on'], full=True), [
            'false breakpoint condition, per hit, gdbserver / stub (on): 31.0 (target >= 20: met)'])

    def test_missed_target_and_smoke_mode(self):
        rows = [dict(self.rows[0]), {'name': 'gdb-cond-stub', 'off': 'na', 'on': 20.0}]
        self.assertEqual(rep.cond_lines(rows, ['on'], full=True), [
            'false breakpoint condition, per hit, gdbserver / stub (on): 15.5 (target >= 20: NOT met)'])
        self.assertEqual(rep.cond_lines(rows, ['on']), [
            'false breakpoint condition, per hit, gdbserver / stub (on): 15.5'])


class TestCounting(unittest.TestCase):
    def test_ratios_against_untraced_on_each_kernel(self):
        rows = [{'name': 'syscount-untraced', 'off': 10.0, 'on': 12.5},
                {'name': 'syscount-strace-c', 'off': 70.0, 'on': 75.0},
                {'name': 'syscount-utrace-engine', 'off': 'na', 'on': 13.0}]
        self.assertEqual(rep.counting_lines(rows, ['off', 'on']), [
            'counting every syscall, x untraced (off): strace -c 7.000',
            'counting every syscall, x untraced (on): utrace engine 1.040, strace -c 6.000'])

    def test_no_line_without_an_untraced_number(self):
        rows = [{'name': 'syscount-untraced', 'on': 'FAIL'},
                {'name': 'syscount-utrace-engine', 'on': 13.0}]
        self.assertEqual(rep.counting_lines(rows, ['on']), [])


class TestUntracedRows(unittest.TestCase):
    """Every untraced row is run by bench/guest.sh as a subcommand of
    bench/src/bench.c, and the rows added for issue 18 (hooks on untraced
    paths: rseq's TIF_NOTIFY_RESUME per context switch, signals to a
    multi-threaded process) are judged like the other untraced rows."""

    NEW = ('signal-mt', 'rseq-switch')

    def read(self, relpath):
        with open(os.path.join(TOP, relpath)) as f:
            return f.read()

    def test_issue_18_targets(self):
        self.assertEqual(rep.group_of('getpid')[1], 1.005)
        self.assertEqual(rep.group_of('ptrace-syscall')[1], 1.02)
        self.assertEqual(rep.group_of('attach-detach')[1], 1.05)
        self.assertEqual(rep.group_of('engines-1-per-event')[1], None)

    def test_new_rows_have_the_untraced_target(self):
        title, names, target = rep.GROUPS[0]
        self.assertTrue(title.startswith('untraced'))
        for name in self.NEW:
            self.assertIn(name, names)
            self.assertEqual(rep.group_of(name), (0, target))

    def test_guest_runs_every_untraced_row_in_table_order(self):
        guest, bench = self.read('bench/guest.sh'), self.read('bench/src/bench.c')
        runs = re.findall(r'^run (\S+) [0-9]+ \$B (\S+) "\$\(n [0-9]+\)"', guest, re.M)
        names = rep.GROUPS[0][1]
        self.assertEqual([n for n, _ in runs if n in names], list(names))
        for row, sub in runs:
            if row in names:
                self.assertTrue(f'{{ "{sub}", b_' in bench or f'!strcmp(name, "{sub}")' in bench,
                                f'{row}: bench.c has no subcommand {sub!r}')

    def test_new_rows_ratio_and_verdict(self):
        off = log({'signal-mt': 10000.0, 'rseq-switch': 6000.0})
        on = log({'signal-mt': 10050.0, 'rseq-switch': 6120.0})
        rc, tsv, out, _ = self.run_report('full', {'utrace-off': [off, off],
                                                   'utrace-on': [on, on]})
        self.assertEqual(rc, 0)
        rows = {l.split('\t')[0]: l.split('\t') for l in tsv[1:]}
        self.assertEqual(rows['signal-mt'][4:7], ['1.0050', '<=1.005', 'met'])
        self.assertEqual(rows['rseq-switch'][4:7], ['1.0200', '<=1.005', 'NOT met'])
        self.assertIn('targets NOT met: rseq-switch', out)

    run_report = TestReport.run_report


class TestBaseColumn(unittest.TestCase):
    """make bench's base column: utrace-off / base within 1 +- 0.002."""

    def rows(self, tsv):
        head = tsv[0].split('\t')
        return {l.split('\t')[0]: dict(zip(head, l.split('\t'))) for l in tsv[1:]}

    def test_off_over_base_and_verdict(self):
        base = log({'getpid': 200.0, 'fork-exit-wait': 100.0, 'ptrace-syscall': 1000.0})
        off = log({'getpid': 200.4, 'fork-exit-wait': 100.3, 'ptrace-syscall': 998.0})
        on = log({'getpid': 200.4})
        rc, tsv, out, _ = self.run_report('full', {'base': [base, base],
                                                   'utrace-off': [off, off],
                                                   'utrace-on': [on, on]})
        self.assertEqual(rc, 0, 'missing a target must not fail the run')
        rows = self.rows(tsv)
        self.assertEqual((rows['getpid']['base'], rows['getpid']['off/base'],
                          rows['getpid']['verdict-off/base']), ('200.000', '1.0020', 'met'))
        self.assertEqual((rows['fork-exit-wait']['off/base'],
                          rows['fork-exit-wait']['verdict-off/base']), ('1.0030', 'NOT met'))
        # Faster than base is as wrong as slower: the tolerance is both ways.
        self.assertEqual((rows['ptrace-syscall']['off/base'],
                          rows['ptrace-syscall']['verdict-off/base']), ('0.9980', 'met'))
        self.assertEqual(rows['getpid']['ratio'], '1.0000')
        self.assertIn('utrace-off / base within 1 +- 0.002: NOT on fork-exit-wait', out)
        self.assertIn('off/base', out.splitlines()[0])
        self.assertIn('1.0030 NOT met', out)

    def test_engines_rows_have_no_base_ratio(self):
        base = log(extra='na engines-1-per-event ns/call CONFIG_UTRACE=n\n',
                   skip=('engines-1-per-event',))
        off = log(extra='na engines-1-per-event ns/call CONFIG_UTRACE=n\n',
                  skip=('engines-1-per-event',))
        rc, tsv, out, _ = self.run_report('full', {'base': [base], 'utrace-off': [off]})
        self.assertEqual(rc, 0)
        row = self.rows(tsv)['engines-1-per-event']
        self.assertEqual((row['base'], row['off/base'], row['verdict-off/base']), ('na', '-', '-'))
        self.assertIn('utrace-off / base within 1 +- 0.002: all rows', out)

    def test_no_base_column_is_not_news(self):
        rc, tsv, out, _ = self.run_report('smoke', {'utrace-off': [log()], 'utrace-on': [log()]})
        self.assertEqual(rc, 0)
        self.assertNotIn('base:', out)
        self.assertEqual(self.rows(tsv)['getpid']['base'], 'not-built')

    run_report = TestReport.run_report


class TestCommandLine(unittest.TestCase):
    """Bad input is one line on stderr and exit 2, never a traceback or the usage."""

    def bad(self, *args, want=()):
        usage_error(self, 'bench/report.py', *args, want=want)

    def test_bad_arguments(self):
        with tempfile.TemporaryDirectory() as d:
            opts = ['--mode', 'smoke', '--tsv', os.path.join(d, 'b.tsv'), '--svg', os.path.join(d, 'b.svg')]
            log = 'utrace-off=' + os.path.join(d, 'off.log')
            self.bad(want=['required'])
            self.bad(*opts, want=['KERNEL=LOG'])
            self.bad(*opts, '--bogus', log, want=['--bogus'])
            self.bad('--mode', 'fast', *opts[2:], log, want=['fast'])
            self.bad(*opts, 'nokernel', want=['nokernel'])

    def test_output_cannot_be_written(self):
        with tempfile.TemporaryDirectory() as d:
            tsv = os.path.join(d, 'no', 'dir', 'b.tsv')
            self.bad('--mode', 'smoke', '--tsv', tsv, '--svg', os.path.join(d, 'b.svg'),
                     'utrace-off=' + os.path.join(d, 'off.log'), want=[tsv])


if __name__ == '__main__':
    unittest.main()
