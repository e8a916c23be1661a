"""Import the harness's scripts by path (they are programs, not a package)."""
import importlib.util
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load(relpath):
    # Their sibling modules (e.g. tests/tablist.py) import as they do when run.
    here = os.path.dirname(os.path.join(TOP, relpath))
    if here not in sys.path:
        sys.path.insert(0, here)
    name = os.path.splitext(os.path.basename(relpath))[0]
    spec = importlib.util.spec_from_file_location(name, os.path.join(TOP, relpath))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def write_tsv(d, name, rows, end='\n'):
    """Write rows as a results table (suite test result detail) d/name."""
    p = os.path.join(d, name)
    with open(p, 'w') as f:
        f.write('suite\ttest\tresult\tdetail\n')
        for r in rows:
            f.write('\t'.join(r) + end)
    return p
