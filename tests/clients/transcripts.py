#!/usr/bin/env python3
"""Compare the real clients' normalised transcripts between the kernels.

  transcripts.py RESULTS_DIR RUNLIST KERNEL [KERNEL...]

For every client in RUNLIST (suites 'clients/NAME'), takes the raw
transcript each kernel's guest printed in RESULTS_DIR/KERNEL/output.log
(between '# BEGIN TRANSCRIPT clients/NAME' and '# END TRANSCRIPT
clients/NAME', as diagnostics below the client's KTAP result), normalises
it (normalise.py) and writes

  RESULTS_DIR/KERNEL/clients/NAME.raw, NAME.transcript
  RESULTS_DIR/KERNEL/transcripts.tsv   rows 'clients/NAME  transcript  RESULT  DETAIL'
                                       and 'clients/NAME  retry  RESULT  DETAIL'
                                       (a results file, as from ktap.py)
  RESULTS_DIR/clients/NAME.diff        unified diff, when the kernels differ

RESULT is pass on every kernel when all kernels' transcripts are
identical; fail on every kernel when they differ (the diff is printed);
'missing' for a kernel without a complete transcript (the others fail);
skip when only one kernel ran (nothing to compare with), when the run list
skips the client, or on a kernel where the client skipped as a whole
(its tool is not installed) and so printed no transcript.

A client that may run its tool again after a time-out (gdb: run-client.sh
retries a run that timed out) says how it went in its output, '# clients:
NAME: runs N of at most MAX, timed out T'; that is the row 'retry' of the
client on each kernel: pass after one run, flaky when a run timed out
and a later one completed (tests/verdicts.py: not a failure, never a
silent pass), fail when every run timed out, missing without the line
(on a kernel where another printed it).  Clients that never retry have no
such row.

Exit status 0 unless the run list cannot be read (a missing output.log
only makes its kernel's rows 'missing').
"""
import difflib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.dirname(HERE))
import normalise  # noqa: E402
import verdicts as v  # noqa: E402  (tests/verdicts.py)

TOP = os.path.dirname(os.path.dirname(HERE))
BEGIN = re.compile(r'^ {4}# BEGIN TRANSCRIPT (\S+)$')
END = re.compile(r'^ {4}# END TRANSCRIPT (\S+)$')
BODY = re.compile(r'^ {4}#(?: (.*))?$')


def extract(lines):
    """output.log lines -> {suite: raw transcript text}; incomplete ones are left out."""
    found = {}
    cur = None
    buf = []
    for raw in lines:
        line = raw.rstrip('\r\n')
        m = BEGIN.match(line)
        if m:
            cur, buf = m.group(1), []
            continue
        if cur is None:
            continue
        m = END.match(line)
        if m and m.group(1) == cur:
            found[cur] = '\n'.join(buf) + '\n'
            cur = None
            continue
        m = BODY.match(line)
        if not m:  # the block was cut off (next program, runner output)
            cur = None
            continue
        buf.append(m.group(1) or '')
    return found


RUNS = re.compile(r'^ {4}# clients: (\S+): runs (\d+) of at most (\d+), timed out (\d+)$')


def runs(lines):
    """output.log lines -> {suite: (runs, timed out)} for the clients that
    may run again after a time-out."""
    out = {}
    for raw in lines:
        m = RUNS.match(raw.rstrip('\r\n'))
        if m and int(m.group(3)) > 1:
            out['clients/' + m.group(1)] = (int(m.group(2)), int(m.group(4)))
    return out


def retry_rows(clients, kernels, got):
    """got: {kernel: {suite: (runs, timed out)}} (runs()).  Returns {kernel:
    [(suite, result, detail)]}: a 'retry' row for every client of the run
    list that some kernel reported runs for."""
    rows = {k: [] for k in kernels}
    for suite, _ in clients:
        if not any(suite in got.get(k, {}) for k in kernels):
            continue
        for k in kernels:
            if suite not in got.get(k, {}):
                res = (v.MISSING, 'no "runs" line from run-client.sh in output.log')
            else:
                n, timed_out = got[k][suite]
                if timed_out == 0:
                    res = (v.PASS, f'{n} run, no time-out' if n == 1 else f'{n} runs, no time-out')
                elif timed_out < n:
                    res = (v.FLAKY, f'{timed_out} of {n} runs timed out, the last completed: '
                                    'retried (gdb start-up spin under TCG?)')
                else:
                    res = (v.FAIL, f'every run timed out ({n})')
            rows[k].append((suite,) + res)
    return rows


SKIPPED = re.compile(r'^ok \d+ (clients/\S+) # SKIP ?(.*)$')
SUB_SKIP = re.compile(r'^ {4}ok \d+ \S+ # SKIP ?(.*)$')


def skipped(lines):
    """output.log lines -> {suite: reason} for the clients that skipped as a whole
    (the reason of their last skipped check, else of the runner)."""
    out = {}
    sub = None
    for raw in lines:
        line = raw.rstrip('\r\n')
        if line.startswith('# suite: '):
            sub = None
        m = SUB_SKIP.match(line)
        if m:
            sub = m.group(1)
        m = SKIPPED.match(line)
        if m:
            out[m.group(1)] = sub or m.group(2)
    return out


def clients_of(runlist):
    """[(suite, skip reason or None)] for the clients/ suites of a run list."""
    out = []
    with open(runlist) as f:
        for line in f:
            parts = line.split(None, 2)
            if len(parts) < 2 or line.startswith('#') or not parts[0].startswith('clients/'):
                continue
            out.append((parts[0], parts[2].strip() if parts[1] == 'SKIP' else None))
    return out


def compare(clients, kernels, texts, skips=None):
    """texts: {kernel: {suite: normalised text}}; skips: {kernel: {suite: reason}}
    for clients that skipped as a whole (not installed) and left no transcript.

    Returns ({kernel: [(suite, result, detail)]}, {suite: diff text})."""
    skips = skips or {}
    rows = {k: [] for k in kernels}
    diffs = {}
    for suite, skip in clients:
        have = [k for k in kernels if suite in texts[k]]
        why = {k: skips.get(k, {}).get(suite) for k in kernels}
        if skip is not None:
            res = {k: (v.SKIP, f'not run: {skip}') for k in kernels}
        elif len(kernels) < 2:
            res = {k: (v.SKIP, f'only {k} ran: no other kernel to compare the transcript with')
                   for k in kernels}
        elif not have and all(why[k] is not None for k in kernels):
            res = {k: (v.SKIP, f'client skipped: {why[k]}') for k in kernels}
        elif len(have) < len(kernels):
            lost = ', '.join(k for k in kernels if k not in have)
            res = {k: (v.FAIL, f'no transcript from {lost}') if k in have
                   else (v.SKIP, f'client skipped: {why[k]}') if why[k] is not None
                   else (v.MISSING, 'no complete transcript in output.log') for k in kernels}
        else:
            base = kernels[0]
            diff = []
            for k in kernels[1:]:
                diff += difflib.unified_diff(
                    texts[base][suite].splitlines(True), texts[k][suite].splitlines(True),
                    f'{base}/{suite}.transcript', f'{k}/{suite}.transcript')
            if diff:
                diffs[suite] = ''.join(diff)
                res = {k: (v.FAIL, 'transcripts differ between kernels') for k in kernels}
            else:
                res = {k: (v.PASS, 'identical on ' + ', '.join(kernels)) for k in kernels}
        for k in kernels:
            rows[k].append((suite, res[k][0], res[k][1]))
    return rows, diffs


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    res_dir, runlist, kernels = argv[1], argv[2], argv[3:]
    if not os.path.exists(runlist):
        print(f'transcripts.py: no run list {runlist}: run tests/build-programs.sh', file=sys.stderr)
        return 1
    clients = clients_of(runlist)
    texts = {}
    skips = {}
    ran = {}
    for k in kernels:
        log = os.path.join(res_dir, k, 'output.log')
        if not os.path.exists(log):
            print(f'transcripts.py: {log} does not exist: did the {k} guest run?', file=sys.stderr)
            texts[k] = {}
            continue
        with open(log, errors='replace') as f:
            lines = f.readlines()
        raw = extract(lines)
        skips[k] = skipped(lines)
        ran[k] = runs(lines)
        outdir = os.path.join(res_dir, k, 'clients')
        os.makedirs(outdir, exist_ok=True)
        texts[k] = {}
        for suite, text in raw.items():
            name = suite.split('/', 1)[-1]
            texts[k][suite] = normalise.normalise(text, TOP)
            with open(os.path.join(outdir, name + '.raw'), 'w') as f:
                f.write(text)
            with open(os.path.join(outdir, name + '.transcript'), 'w') as f:
                f.write(texts[k][suite])
    rows, diffs = compare(clients, kernels, texts, skips)
    retries = retry_rows(clients, kernels, ran)
    diff_dir = os.path.join(res_dir, 'clients')
    os.makedirs(diff_dir, exist_ok=True)
    for old in os.listdir(diff_dir):
        if old.endswith('.diff'):
            os.unlink(os.path.join(diff_dir, old))
    for suite, diff in diffs.items():
        path = os.path.join(diff_dir, suite.split('/', 1)[-1] + '.diff')
        with open(path, 'w') as f:
            f.write(diff)
        print(f'transcripts: {suite}: the kernels\' transcripts differ ({path}):')
        sys.stdout.write(diff)
    for k in kernels:
        with open(os.path.join(res_dir, k, 'transcripts.tsv'), 'w') as f:
            f.write('suite\ttest\tresult\tdetail\n')
            for suite, result, detail in rows[k]:
                f.write(f'{suite}\ttranscript\t{result}\t{detail}\n')
            for suite, result, detail in retries[k]:
                f.write(f'{suite}\tretry\t{result}\t{detail}\n')
    for suite, result, detail in rows[kernels[0]]:
        print(f'transcripts: {suite}: {result}: {detail}')
    for k in kernels:
        for suite, result, detail in retries[k]:
            if result != v.PASS:
                print(f'transcripts: {suite}: {k}: {result}: {detail}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
