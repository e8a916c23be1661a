"""Read the harness's tab-separated lists (known-failures.txt, may-skip.txt).

Each list has comment lines ('#'), blank lines and data lines of exactly
three tab-separated fields.  Shared by tests/ktap.py and tests/side_by_side.py.
"""


def read(path, who, fields):
    """Yield the (a, b, c) fields of each data line of path.

    who names the reading program and fields the expected layout
    (e.g. 'suite<TAB>test<TAB>reason') in the error for a bad line.
    """
    with open(path) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            parts = line.rstrip('\n').split('\t')
            if len(parts) != 3:
                raise SystemExit(f'{who}: {path}: want {fields}: {line!r}')
            yield tuple(parts)
