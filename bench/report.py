#!/usr/bin/env python3
"""Turn the benchmark guests' output into a table, a TSV file and an SVG.

  report.py --mode full|smoke --tsv OUT.tsv --svg OUT.svg
            [--absent KERNEL=REASON] KERNEL=LOG[,LOG...]...

Each LOG is one guest's output.log (bench/guest.sh); a kernel booted
twice has two.  Per benchmark and kernel the value is the mean over the
runs and the spread is (max - min) / mean, in percent.  The ratio is
utrace-on / utrace-off: every value is a cost (time per operation), so
above 1 means utrace is slower.  With a base column (the pristine tree,
built like utrace-off), off/base is utrace-off / base, which must be
1.000 +- 0.002 on every row: CONFIG_UTRACE=n costs nothing.

Exit status 1 when any run has a failed benchmark, misses a benchmark
another run has, or did not reach its end; speed never fails the run.
Bad arguments or an output file that cannot be written: one line on
stderr, exit 2.
"""
import argparse
import html
import re
import sys

KERNELS = ('base', 'utrace-off', 'utrace-on')

# utrace-off / base: |ratio - 1| at most this, on every measured row.
BASE_TOLERANCE = 0.002

# Spread over the boots of one kernel, in percent: at most this, on every
# row (issue 18).
SPREAD_TARGET = 0.1

# Benchmark groups, in table order: (title, names, target ratio or None).
GROUPS = [
    ('untraced: what everyone pays', ('getpid', 'fork-exit-wait', 'execve-tiny',
                                       'signal-handler', 'signal-handler-detached',
                                       'signal-mt', 'thread-create-join',
                                       'rseq-switch'), 1.005),
    ('ptrace', ('ptrace-syscall', 'singlestep', 'attach-detach', 'peekdata',
                'process-vm-readv', 'tracefork', 'strace-f', 'gdb-breakpoint'), 1.02),
    ('gdb through /proc/PID/gdb (needs utrace-gdb)', ('gdb-breakpoint-stub',), None),
    ('a breakpoint whose condition is false: gdb over ptrace, gdbserver, the stub',
     ('gdb-cond-ptrace', 'gdb-cond-gdbserver', 'gdb-cond-stub'), None),
    ('counting every syscall of a workload', ('syscount-untraced', 'syscount-strace-c',
                                               'syscount-utrace-engine'), None),
    ('scale (needs utrace)', ('engines-0-per-event', 'engines-1-per-event', 'engines-2-per-event',
                              'engines-4-per-event', 'engines-8-per-event',
                              'engines-16-per-event'), None),
]

# Rows whose name depends on the guest: attach-N-threads, N = the threads
# that fit (1000 normally).  Every run must have one row of each pattern.
PATTERNS = [(re.compile(r'attach-[0-9]+-threads$'), 'attach-N-threads')]
ENGINES_ROW = re.compile(r'engines-([0-9]+)-per-event$')


# Rows whose target is not their group's (issue 18: attach+detach <= 1.05).
TARGETS = {'attach-detach': 1.05}


def group_of(name):
    for i, (_, names, target) in enumerate(GROUPS):
        if name in names:
            return i, TARGETS.get(name, target)
    return len(GROUPS) - 1, None


def engine_slope(rows, kernel):
    """The cost of one more engine on kernel: least squares over the
    engines-K-per-event rows with K >= 1 (K = 0, no engine, is the plain
    system call path, a step of its own, so it is not on the line).

    Returns None with fewer than two such numbers, else a dict: slope and
    intercept (ns per engine, ns), points [(K, value)], first (value at
    K=1 minus K=0, or None without K=0), worst (largest distance of a
    point from the line, in percent of the point's value).
    """
    pts, base = [], None
    for r in rows:
        m = ENGINES_ROW.match(r['name'])
        v = r.get(kernel)
        if not m or not isinstance(v, float):
            continue
        k = int(m.group(1))
        if k == 0:
            base = v
        else:
            pts.append((k, v))
    if len(pts) < 2:
        return None
    pts.sort()
    n = len(pts)
    mk = sum(k for k, _ in pts) / n
    mv = sum(v for _, v in pts) / n
    sxx = sum((k - mk) ** 2 for k, _ in pts)
    slope = sum((k - mk) * (v - mv) for k, v in pts) / sxx
    icpt = mv - slope * mk
    v1 = dict(pts).get(1)
    return {
        'slope': slope, 'intercept': icpt, 'points': pts,
        'first': v1 - base if base is not None and v1 is not None else None,
        'worst': max(abs(v - (icpt + slope * k)) / v * 100 for k, v in pts),
    }


# Issue 18: what one engine may cost a getpid (two reports), in ns.
ENGINE_TARGETS = {'extra': 300.0, 'first': 400.0}


def engine_verdict(value, what, full):
    """' (target <= N: met)' for a full run, '' for a smoke run."""
    if not full:
        return ''
    target = ENGINE_TARGETS[what]
    return f" (target <= {target:g}: {'met' if value <= target + 1e-9 else 'NOT met'})"


def slope_lines(rows, kernels, full=False):
    """The derived "per extra engine" line of each kernel that has one."""
    out = []
    for k in kernels:
        s = engine_slope(rows, k)
        if s is None:
            continue
        ks = ', '.join(str(x) for x, _ in s['points'])
        first = '' if s['first'] is None else \
            f"; the first engine adds {fmt(s['first'])} ns to K = 0" + \
            engine_verdict(s['first'], 'first', full)
        out.append(f"per extra engine: {fmt(s['slope'])} ns"
                   f"{engine_verdict(s['slope'], 'extra', full)} ({k}; least-squares slope over "
                   f"K = {ks}, every point within {round(s['worst'], 4):.2g}% of the line{first})")
    return out


def counting_lines(rows, kernels):
    """The derived "counting" line: each way of counting every system call
    of the workload against running it untraced, on one kernel."""
    vals = {r['name']: r for r in rows}
    out = []
    for k in kernels:
        base = vals.get('syscount-untraced', {}).get(k)
        if not isinstance(base, float) or not base:
            continue
        parts = []
        for name, what in (('syscount-utrace-engine', 'utrace engine'),
                           ('syscount-strace-c', 'strace -c')):
            v = vals.get(name, {}).get(k)
            if isinstance(v, float):
                parts.append(f'{what} {v / base:.3f}')
        if parts:
            out.append(f"counting every syscall, x untraced ({k}): {', '.join(parts)}")
    return out


def stub_lines(rows, kernels):
    """The derived "gdb stub" line: a breakpoint hit through the stub
    against one through ptrace, on each kernel that has both."""
    vals = {r['name']: r for r in rows}
    out = []
    for k in kernels:
        ptrace = vals.get('gdb-breakpoint', {}).get(k)
        stub = vals.get('gdb-breakpoint-stub', {}).get(k)
        if isinstance(ptrace, float) and isinstance(stub, float) and ptrace:
            out.append(f'gdb breakpoint hit, through /proc/PID/gdb / through ptrace ({k}): '
                       f'{stub / ptrace:.3f}')
    return out


# Issue 17: a false condition through the stub at least this many times
# cheaper per hit than through gdbserver, which evaluates it in gdbserver.
COND_TARGET = 20.0


def cond_lines(rows, kernels, full=False):
    """The derived "false condition" line: gdbserver's cost per hit of a
    breakpoint whose condition is false over the stub's, on each kernel
    that has both; with its verdict in a full run."""
    vals = {r['name']: r for r in rows}
    out = []
    for k in kernels:
        server = vals.get('gdb-cond-gdbserver', {}).get(k)
        stub = vals.get('gdb-cond-stub', {}).get(k)
        if not (isinstance(server, float) and isinstance(stub, float) and stub):
            continue
        r = server / stub
        verdict = f" (target >= {COND_TARGET:g}: {'met' if r >= COND_TARGET - 1e-9 else 'NOT met'})" \
            if full else ''
        out.append(f'false breakpoint condition, per hit, gdbserver / stub ({k}): {r:.1f}{verdict}')
    return out


def parse(lines):
    """Return ({name: (kind, unit, value or reason)}, [failures], finished)."""
    rows, fails, done = {}, [], False
    for line in lines:
        line = line.rstrip('\r\n')
        w = line.split(' ', 3)
        if line == '# bench: done':
            done = True
        elif w[0] == 'result' and len(w) == 4:
            try:
                rows[w[1]] = ('result', w[2], float(w[3]))
            except ValueError:
                fails.append(f'{w[1]}: result is not a number: {w[3]!r}')
        elif w[0] == 'fail' and len(w) >= 2:
            fails.append(line[5:])
            rows[w[1]] = ('fail', '', line[5 + len(w[1]) + 1:])
        elif w[0] in ('na', 'pending', 'notmeasured') and len(w) == 4:
            rows.setdefault(w[1], (w[0], w[2], w[3]))
    return rows, fails, done


def combine(runs):
    """Merge the parsed runs of one kernel: {name: (kind, unit, value, spread%)}."""
    out = {}
    for name in {n for r in runs for n in r}:
        got = [r.get(name) for r in runs]
        failed = [g for g in got if g is not None and g[0] == 'fail']
        if failed:
            out[name] = ('FAIL', '', failed[0][2], None)
            continue
        if None in got:
            continue
        if all(g[0] == 'result' for g in got):
            vals = [g[2] for g in got]
            mean = sum(vals) / len(vals)
            spread = (max(vals) - min(vals)) / mean * 100 if mean else 0.0
            out[name] = ('result', got[0][1], mean, spread if len(vals) > 1 else None)
        else:
            g = next(g for g in got if g[0] != 'result')
            out[name] = (g[0], g[1], g[2], None)
    return out


def fmt(v):
    if v >= 100:
        return f'{v:.0f}'
    if v >= 10:
        return f'{v:.1f}'
    return f'{v:.2f}'


def build_rows(data, order, full):
    """data: {kernel: combined}; returns a list of row dicts in table order."""
    rows = []
    order = [n for n in order if any(n in d for d in data.values())]
    for name in sorted(order, key=lambda n: (group_of(n)[0], order.index(n))):
        gi, target = group_of(name)
        row = {'name': name, 'group': gi, 'target': target, 'unit': '', 'note': ''}
        for k in reversed(KERNELS):  # the note of utrace-on wins: it says more
            e = data.get(k, {}).get(name)
            if k not in data:
                row[k], row['spread-' + k] = 'not-built', None
            elif e is None:
                row[k], row['spread-' + k] = 'missing', None
            else:
                row['unit'] = row['unit'] or e[1]
                row[k] = e[2] if e[0] == 'result' else e[0]
                row['spread-' + k] = e[3]
                if e[0] != 'result' and not row['note']:
                    row['note'] = f'{e[0]}: {e[2]}'
        base, off, on = row['base'], row['utrace-off'], row['utrace-on']
        row['ratio'] = on / off if isinstance(off, float) and isinstance(on, float) and off else None
        if row['ratio'] is None or target is None or not full:
            row['verdict'] = ''
        else:
            row['verdict'] = 'met' if row['ratio'] <= target + 1e-9 else 'NOT met'
        row['base-ratio'] = off / base if isinstance(base, float) and isinstance(off, float) \
            and base else None
        if row['base-ratio'] is None or not full:
            row['base-verdict'] = ''
        else:
            row['base-verdict'] = 'met' if abs(row['base-ratio'] - 1) <= BASE_TOLERANCE + 1e-9 \
                else 'NOT met'
        rows.append(row)
    return rows


def cell(v):
    return fmt(v) if isinstance(v, float) else v


def spread_cell(v):
    return '' if v is None else f'{v:.2f}%'


def write_tsv(path, rows):
    """The columns of the two utrace kernels first (as before the base
    column existed), then the base column's, then the note."""
    two = ('utrace-off', 'utrace-on')
    cols = ['benchmark', 'unit', *two, 'ratio', 'target', 'verdict',
            *('spread-' + k for k in two), 'base', 'off/base', 'verdict-off/base',
            'spread-base', 'note']

    def value(v):
        return f'{v:.3f}' if isinstance(v, float) else v

    with open(path, 'w') as f:
        f.write('\t'.join(cols) + '\n')
        for r in rows:
            f.write('\t'.join([
                r['name'], r['unit'] or '-', *(value(r[k]) for k in two),
                f"{r['ratio']:.4f}" if r['ratio'] is not None else '-',
                f"<={r['target']:g}" if r['target'] else '-', r['verdict'] or '-',
                *(spread_cell(r['spread-' + k]) or '-' for k in two),
                value(r['base']),
                f"{r['base-ratio']:.4f}" if r['base-ratio'] is not None else '-',
                r['base-verdict'] or '-', spread_cell(r['spread-base']) or '-',
                r['note'] or '-',
            ]) + '\n')


def table(rows, kernels, full):
    """The printed table: only the kernels that were run."""
    head = ['benchmark', 'unit'] + kernels
    with_base = 'base' in kernels and 'utrace-off' in kernels
    with_ratio = 'utrace-off' in kernels and 'utrace-on' in kernels
    if with_base:
        head += ['off/base']
    if with_ratio:
        head += ['ratio', 'target']
    if full:
        head += ['spread']
    lines, group = [], None
    body = []
    for r in rows:
        if r['group'] != group:
            group = r['group']
            body.append(('#', GROUPS[group][0]))
        c = [r['name'], r['unit'] or '-'] + [cell(r[k]) for k in kernels]
        if with_base:
            c += [f"{r['base-ratio']:.4f}" + (' NOT met' if r['base-verdict'] == 'NOT met' else '')
                  if r['base-ratio'] is not None else '-']
        if with_ratio:
            c += [f"{r['ratio']:.3f}" if r['ratio'] is not None else '-',
                  f"<={r['target']:g} {r['verdict']}" if r['target'] and r['verdict'] else '']
        if full:
            c += [' / '.join(spread_cell(r['spread-' + k]) for k in kernels
                             if r['spread-' + k] is not None)]
        body.append(c)
    widths = [max(len(c[i]) for c in [head] + [b for b in body if b[0] != '#'])
              for i in range(len(head))]
    lines.append('  '.join(h.ljust(w) for h, w in zip(head, widths)).rstrip())
    for b in body:
        if b[0] == '#':
            lines.append(f'-- {b[1]}')
        else:
            lines.append('  '.join(c.rjust(w) if i >= 2 else c.ljust(w)
                                   for i, (c, w) in enumerate(zip(b, widths))).rstrip())
    notes = {}
    for r in rows:
        if r['note']:
            notes.setdefault(r['note'], []).append(r['name'])
    if notes:
        lines.append('not measured, or failed:')
        lines.extend(f"  {', '.join(names)}: {note}" for note, names in notes.items())
    return '\n'.join(lines)


def write_svg(path, rows, kernels, title):
    """One bar group per measured benchmark; bars scaled within the group."""
    colors = {'base': '#999999', 'utrace-off': '#4878a8', 'utrace-on': '#e07b39'}
    measured = [r for r in rows if any(isinstance(r[k], float) for k in kernels)]
    bar, gap, left, width = 14, 12, 190, 420
    height = 60 + len(measured) * (bar * len(kernels) + gap) + 20
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 230}" '
           f'height="{height}" font-family="sans-serif" font-size="11">',
           f'<text x="10" y="20" font-size="14">{html.escape(title)}</text>']
    for i, k in enumerate(kernels):
        out.append(f'<rect x="{10 + i * 110}" y="32" width="10" height="10" fill="{colors[k]}"/>'
                   f'<text x="{24 + i * 110}" y="41">{k}</text>')
    out.append(f'<text x="{10 + len(kernels) * 110}" y="41" fill="#555">'
               'time per operation, shorter is better; bars scaled per benchmark</text>')
    y = 60
    for r in measured:
        vals = [r[k] for k in kernels if isinstance(r[k], float)]
        top = max(vals) or 1.0
        mid = y + bar * len(kernels) / 2 + 4
        out.append(f'<text x="{left - 6}" y="{mid}" text-anchor="end">'
                   f'{html.escape(r["name"])}</text>')
        for i, k in enumerate(kernels):
            v = r[k]
            yy = y + i * bar
            if isinstance(v, float):
                w = max(1.0, v / top * width)
                out.append(f'<rect x="{left}" y="{yy}" width="{w:.1f}" height="{bar - 2}" '
                           f'fill="{colors[k]}"><title>{k}: {fmt(v)} {r["unit"]}</title></rect>')
                out.append(f'<text x="{left + w + 4:.1f}" y="{yy + bar - 4}">'
                           f'{fmt(v)} {html.escape(r["unit"])}</text>')
            else:
                out.append(f'<text x="{left + 4}" y="{yy + bar - 4}" fill="#999">'
                           f'{k}: {html.escape(str(v))}</text>')
        if r['ratio'] is not None:
            out.append(f'<text x="{left + width + 150}" y="{mid}">x{r["ratio"]:.3f}</text>')
        y += bar * len(kernels) + gap
    out.append('</svg>')
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')


class Parser(argparse.ArgumentParser):
    """Bad arguments are one line on stderr (exit 2), not the usage."""

    def error(self, message):
        self.exit(2, f'{self.prog}: {message} (see {self.prog} --help)\n')


def main(argv):
    ap = Parser(prog='report.py', description=__doc__.split('\n')[0])
    ap.add_argument('--mode', choices=('full', 'smoke'), required=True)
    ap.add_argument('--tsv', required=True)
    ap.add_argument('--svg', required=True)
    ap.add_argument('--absent', action='append', default=[], metavar='KERNEL=REASON')
    ap.add_argument('logs', nargs='+', metavar='KERNEL=LOG[,LOG...]')
    a = ap.parse_args(argv[1:])
    full = a.mode == 'full'

    problems, data, order, kernels, nruns = [], {}, [], [], 0
    for spec in a.logs:
        k, _, paths = spec.partition('=')
        if k not in KERNELS or not paths:
            ap.error(f'bad argument {spec!r}: want base=LOG, utrace-off=LOG or utrace-on=LOG')
        kernels.append(k)
        runs = []
        nruns = max(nruns, len(paths.split(',')))
        for n, p in enumerate(paths.split(','), 1):
            try:
                with open(p, errors='replace') as f:
                    rows, fails, done = parse(f)
            except OSError as e:
                problems.append(f'{k} run {n}: cannot read {p}: {e.strerror}')
                continue
            problems += [f'{k} run {n}: {x}' for x in fails]
            if not done:
                problems.append(f'{k} run {n}: the guest did not reach the end of bench/guest.sh ({p})')
            for name in rows:
                if name not in order:
                    order.append(name)
            runs.append(rows)
        expected = [n for _, names, _ in GROUPS for n in names]
        for name in expected + [n for n in order if n not in expected]:
            for n, r in enumerate(runs, 1):
                if name not in r:
                    problems.append(f'{k} run {n}: no number for {name}')
        for pat, what in PATTERNS:
            for n, r in enumerate(runs, 1):
                if not any(pat.match(name) for name in r):
                    problems.append(f'{k} run {n}: no number for {what}')
        data[k] = combine(runs)
    absent = dict(x.partition('=')[::2] for x in a.absent)

    rows = build_rows(data, order, full)
    title = f'utrace benchmark ({a.mode}): ' + ' vs '.join(kernels)
    try:
        write_tsv(a.tsv, rows)
        write_svg(a.svg, rows, kernels, title)
    except OSError as e:
        ap.exit(2, f'report.py: cannot write {e.filename}: {e.strerror or e}\n')

    print(table(rows, kernels, full))
    for line in (slope_lines(rows, kernels, full) + counting_lines(rows, kernels) +
                 stub_lines(rows, kernels) + cond_lines(rows, kernels, full)):
        print(line)
    for k in KERNELS:
        # No base column is not news: only make bench builds it.
        if k not in data and (k != 'base' or k in absent):
            print(f'{k}: not built yet: {absent.get(k, "no log given")}')
    if full and 'utrace-off' in kernels and 'utrace-on' in kernels:
        missed = [r['name'] for r in rows if r['verdict'] == 'NOT met']
        print('targets: all met' if not missed else f'targets NOT met: {", ".join(missed)}')
    if full and 'base' in kernels and 'utrace-off' in kernels:
        missed = [r['name'] for r in rows if r['base-verdict'] == 'NOT met']
        print(f'utrace-off / base within 1 +- {BASE_TOLERANCE:g}: ' +
              ('all rows' if not missed else f'NOT on {", ".join(missed)}'))
    if full:
        sp = [(r['spread-' + k], r['name']) for r in rows for k in kernels
              if r['spread-' + k] is not None]
        if sp:
            top = max(sp)
            print(f'run-to-run spread over {nruns} boots per kernel: max {top[0]:.2f}% '
                  f'({top[1]}), mean {sum(x for x, _ in sp) / len(sp):.2f}%')
            wide = sorted({n for x, n in sp if x > SPREAD_TARGET + 1e-9})
            print(f'spread <= {SPREAD_TARGET:g}%: ' +
                  ('every row' if not wide else f'NOT on {", ".join(wide)}'))
    elif not problems:
        print('smoke mode: every benchmark ran and printed a number; speed is not judged')
    print(f'wrote {a.tsv} and {a.svg}')
    for p in problems:
        print(f'bench: {p}', file=sys.stderr)
    if problems:
        print(f'bench: {len(problems)} problem(s) above: see the guest logs', file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
