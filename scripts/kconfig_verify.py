#!/usr/bin/env python3
"""Check that every option a config fragment sets survived olddefconfig.

Kconfig silently drops an option whose dependencies are not met (or that
does not exist).  A dropped option means the guest kernel is not the one
the fragments describe, so it is an error that names the option.

Usage: kconfig_verify.py [--tree DIR] CONFIG FRAGMENT...
Fragments are merged in order, as merge_config.sh does: an option set by a
later fragment overrides an earlier one, and only the last setting of each
option is checked.
Exit 0 when all options survived, 1 otherwise (one line per dropped option).

--tree DIR (checks/series-build.sh, building a commit in the middle of the
series): an option that no Kconfig file under DIR defines does not exist
yet at that commit (e.g. the sample engines before their patch), so it is
only reported, not an error.  Without --tree a typo is an error, as it
must be.

Bad arguments or a file that cannot be read: one line on stderr, exit 2.
"""
import argparse
import os
import re
import sys

SET = re.compile(r'^(CONFIG_[A-Za-z0-9_]+)=(.*)$')
UNSET = re.compile(r'^# (CONFIG_[A-Za-z0-9_]+) is not set$')


def parse(lines):
    """Return {symbol: value} for a config file; value None means 'is not set'."""
    opts = {}
    for line in lines:
        line = line.rstrip('\n')
        m = SET.match(line)
        if m:
            opts[m.group(1)] = m.group(2)
            continue
        m = UNSET.match(line)
        if m:
            opts[m.group(1)] = None
    return opts


def dropped(config, fragment):
    """Yield (symbol, wanted, got) for each fragment option not in force in config."""
    for sym, want in fragment.items():
        got = config.get(sym)
        if want is None:
            if got not in (None, 'n'):
                yield sym, 'is not set', got
        elif got != want:
            yield sym, want, 'absent' if got is None else got


def defined_symbols(tree):
    """Every CONFIG_ symbol that a Kconfig file under tree defines."""
    decl = re.compile(r'^\s*(?:menu)?config\s+([A-Za-z0-9_]+)\s*$')
    syms = set()
    for root, dirs, files in os.walk(tree):
        dirs[:] = [d for d in dirs if not d.startswith('.')]
        for name in files:
            if name.startswith('Kconfig'):
                with open(os.path.join(root, name), errors='replace') as f:
                    syms.update('CONFIG_' + m.group(1) for m in map(decl.match, f) if m)
    return syms


class Parser(argparse.ArgumentParser):
    """Bad arguments are one line on stderr (exit 2), not the usage."""

    def error(self, message):
        self.exit(2, f'{self.prog}: {message} (see {self.prog} --help)\n')


def main(argv):
    ap = Parser(prog='kconfig_verify.py', description=__doc__,
                formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)
    ap.add_argument('--tree', metavar='DIR')
    ap.add_argument('config', metavar='CONFIG')
    ap.add_argument('fragments', nargs='+', metavar='FRAGMENT')
    a = ap.parse_args(argv[1:])
    tree = a.tree
    if tree and not os.path.isdir(tree):
        ap.error(f'--tree {tree}: not a directory')
    known = defined_symbols(tree) if tree else None
    bad = 0
    frags = []
    try:
        with open(a.config) as f:
            config = parse(f)
        for path in a.fragments:
            with open(path) as f:
                frags.append((path, parse(f)))
    except OSError as e:
        ap.exit(2, f'kconfig_verify.py: cannot read {e.filename}: {e.strerror or e}\n')
    for i, (path, frag) in enumerate(frags):
        later = set().union(*(f for _, f in frags[i + 1:]))
        frag = {k: v for k, v in frag.items() if k not in later}
        for sym, want, got in dropped(config, frag):
            if known is not None and sym not in known:
                print(f'{path}: {sym} is not defined in {tree} (not in the series yet '
                      f'at this commit): not checked', file=sys.stderr)
                continue
            print(f'{path}: {sym}={want} was dropped by olddefconfig (now: {got}); '
                  f'enable its dependencies in the fragment or remove it', file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
