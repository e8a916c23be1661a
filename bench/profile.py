#!/usr/bin/env python3
"""Per-function kernel instruction counts per benchmark operation.

  profile.py --iterations K NAME=SYSTEM_MAP,BLOCKS_N,BLOCKS_2N[,KO@ADDR] ...

BLOCKS files come from the tbprof plugin (bench/src/tbprof.c): "ADDR EXECS
INSNS" per block of kernel text and "user EXECS INSNS".  Each block is
charged to the function of System.map that contains its start; the runs
of the block at a function's first address count its calls.  The second run did K more
operations than the first, so (second - first) / K is the cost of one
operation.  KO@ADDR adds the text symbols of a module (`nm KO`) loaded
with its .text at ADDR in both runs (the guest prints it), named
"module:function".  Prints one column per kernel, the functions sorted by the
largest difference between the first two kernels, then the totals.
"""
import argparse
import bisect
import os
import subprocess
import sys


def load_map(path):
    addrs, names = [], []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[1] in 'tTwW':
                addrs.append(int(parts[0], 16))
                names.append(parts[2])
    order = sorted(range(len(addrs)), key=addrs.__getitem__)
    return [addrs[i] for i in order], [names[i] for i in order]


def add_module(smap, spec):
    """Add the .text symbols of module KO, loaded at ADDR, to smap."""
    ko, _, addr = spec.partition('@')
    base = int(addr, 16)
    out = subprocess.run(['nm', '--defined-only', ko], capture_output=True,
                         text=True, check=True).stdout
    mod = os.path.basename(ko).removesuffix('.ko')
    addrs, names = smap
    for line in out.splitlines():
        parts = line.split()
        # .text symbols only: .init.text and .exit.text are elsewhere.
        if len(parts) == 3 and parts[1] in 'tT' and \
                not parts[2].startswith(('__pfx_', 'init_module', 'cleanup_module')):
            addrs.append(base + int(parts[0], 16))
            names.append(f'{mod}:{parts[2]}')
    order = sorted(range(len(addrs)), key=addrs.__getitem__)
    return [addrs[i] for i in order], [names[i] for i in order]


def load_blocks(path, smap):
    """{function: [calls, instructions]}"""
    addrs, names = smap
    funcs = {}
    with open(path) as f:
        for line in f:
            key, execs, count = line.split()
            entry = False
            if key == 'user':
                name = '(user space)'
            else:
                addr = int(key, 16)
                i = bisect.bisect_right(addrs, addr) - 1
                name = names[i] if i >= 0 else '(unknown)'
                entry = i >= 0 and addrs[i] == addr
            f_ = funcs.setdefault(name, [0, 0])
            f_[0] += int(execs) if entry else 0
            f_[1] += int(count)
    return funcs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--iterations', type=int, required=True)
    ap.add_argument('--top', type=int, default=40)
    ap.add_argument('kernels', nargs='+', metavar='NAME=MAP,BLOCKS_N,BLOCKS_2N[,KO@ADDR]')
    a = ap.parse_args()
    cols = []
    for spec in a.kernels:
        name, _, files = spec.partition('=')
        parts = files.split(',')
        if len(parts) not in (3, 4):
            sys.exit(f'profile.py: {spec}: expected NAME=MAP,BLOCKS_N,BLOCKS_2N[,KO@ADDR]')
        smap = load_map(parts[0])
        if len(parts) == 4:
            smap = add_module(smap, parts[3])
        first, second = (load_blocks(p, smap) for p in parts[1:3])
        zero = [0, 0]
        per = {k: tuple((second.get(k, zero)[j] - first.get(k, zero)[j]) / a.iterations
                        for j in (0, 1))
               for k in set(first) | set(second)}
        cols.append((name, per))
    names = sorted(set().union(*(c[1] for c in cols)))

    zero = (0.0, 0.0)

    def delta(fn):
        vals = [c[1].get(fn, zero)[1] for c in cols]
        return vals[-1] - vals[0] if len(vals) > 1 else vals[0]

    names.sort(key=lambda fn: -abs(delta(fn)))
    head = ''.join(f'{c[0] + " calls":>18}{c[0]:>12}' for c in cols)
    print(f'# calls and instructions per operation ({a.iterations} operations)')
    print(f'{"function":<40}{head}{"diff":>10}')
    for fn in names[:a.top]:
        vals = ''.join(f'{c[1].get(fn, zero)[0]:>18.2f}{c[1].get(fn, zero)[1]:>12.1f}'
                       for c in cols)
        print(f'{fn[:39]:<40}{vals}{delta(fn):>10.1f}')
    kern = [sum(v[1] for k, v in c[1].items() if k != '(user space)') for c in cols]
    print(f'{"total kernel":<40}' + ''.join(f'{"":>18}{v:>12.1f}' for v in kern) +
          (f'{kern[-1] - kern[0]:>10.1f}' if len(kern) > 1 else ''))


if __name__ == '__main__':
    main()
