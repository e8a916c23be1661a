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
"""
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


def main(argv):
    tree = None
    if len(argv) > 2 and argv[1] == '--tree':
        tree = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    known = defined_symbols(tree) if tree else None
    with open(argv[1]) as f:
        config = parse(f)
    bad = 0
    frags = []
    for path in argv[2:]:
        with open(path) as f:
            frags.append((path, parse(f)))
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
