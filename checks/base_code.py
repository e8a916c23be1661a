#!/usr/bin/env python3
"""Compare two vmlinux images function by function.

  base_code.py [--allow FILE] BASE_VMLINUX OTHER_VMLINUX

CONFIG_UTRACE=n must compile to the unpatched kernel's code: every
function of utrace-off's vmlinux must be the same code as in the base
tree's vmlinux, built from the same fragments, but for the functions
that a patch of the series changes on purpose.  Those are listed in
FILE (checks/base-code-differences.txt): 'function<TAB>reason' lines.

Each function's disassembly (objdump -d, no raw bytes) is normalised to
what does not depend on where the linker put things: kernel addresses
(absolute and RIP-relative operands, call and jump targets) become
their symbol with its offset where objdump names one, else ADDR.  So
the same code at another address compares equal, and any change of an
instruction, of inlining or of a call shows up.  Functions present in
only one image are differences too.

Prints one line per differing function ('differs', 'only in base',
'only in OTHER', or 'changed on purpose: reason') and a summary.  Exit
status 0 when every difference is listed and every listed function does
differ (a listed function that reads the same fails too: the list must
stay true); 1 otherwise; 2 on bad usage.
"""
import argparse
import re
import subprocess
import sys

FUNC = re.compile(r'^[0-9a-f]+ <([^>]+)>:$')
INSN = re.compile(r'^\s*[0-9a-f]+:\s*(.*)$')
# 'ffffffff81234567 <sym+0x12>' (call and jump targets, objdump's comment
# after a RIP-relative operand): keep the symbol and offset.
TARGET = re.compile(r'\b[0-9a-f]{16} <([^>]+)>')
# Any other kernel address, absolute or as a displacement.
ADDRESS = re.compile(r'0x(?:ffffffff)?[0-9a-f]{5,8}\b')
RIPREL = re.compile(r'-?0x[0-9a-f]+\(%rip\)')
# The alignment padding after a function (objdump counts it to the
# function before): its length depends on where the next one starts.
PADDING = re.compile(r'^(int3|nop.*|xchg %ax,%ax|cs nopw.*|data16 .*)$')


def functions(vmlinux):
    """{function: normalised instructions} of VMLINUX's text."""
    try:
        out = subprocess.run(['objdump', '-d', '--no-show-raw-insn', '-w', vmlinux],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f'base_code: objdump -d {vmlinux} failed: {e}')
    funcs, name = {}, None
    for line in out.splitlines():
        m = FUNC.match(line)
        if m:
            # Local symbols of the same name (static functions of two
            # files) are told apart by their order.
            name, n = m.group(1), 1
            while name in funcs:
                n += 1
                name = f'{m.group(1)}#{n}'
            funcs[name] = []
            continue
        m = INSN.match(line)
        if m and name is not None:
            insn = TARGET.sub(r'<\1>', m.group(1))
            insn = RIPREL.sub('ADDR(%rip)', insn)
            insn = ADDRESS.sub('ADDR', insn)
            funcs[name].append(' '.join(insn.split()))
    for body in funcs.values():
        while body and PADDING.match(body[-1]):
            body.pop()
    return funcs


def load_allow(path):
    allow = {}
    if path is None:
        return allow
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            parts = line.split('\t')
            if len(parts) != 2 or not parts[0] or not parts[1]:
                sys.exit(f'base_code: {path}:{n}: want "function<TAB>reason"')
            allow[parts[0]] = parts[1]
    return allow


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--allow', metavar='FILE', help='function<TAB>reason lines')
    ap.add_argument('base')
    ap.add_argument('other')
    a = ap.parse_args()
    allow = load_allow(a.allow)
    base, other = functions(a.base), functions(a.other)
    if not base or not other:
        sys.exit('base_code: no functions found: is this a vmlinux with symbols?')
    bad = 0
    same = 0
    for name in sorted(set(base) | set(other)):
        if name in base and name in other and base[name] == other[name]:
            same += 1
            if name in allow:
                print(f'UNCHANGED {name}: listed as changed on purpose ({allow[name]}), '
                      'but the code is the same: take it off the list')
                bad += 1
            continue
        where = ('only in base' if name not in other else
                 'only in ' + a.other if name not in base else 'differs')
        if name in allow:
            print(f'changed on purpose {name} ({where}): {allow[name]}')
        else:
            print(f'DIFFERS {name} ({where})')
            bad += 1
    print(f'base_code: {same} functions identical, {bad} problem(s)')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
