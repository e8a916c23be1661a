"""Import the harness's scripts by path (they are programs, not a package)."""
import importlib.util
import os
import subprocess
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


def one_line_error(test, relpath, *args):
    """Run the program relpath with bad input, as its callers do: it must
    fail with one line on stderr (no traceback, no usage text).  Returns
    (exit status, that line)."""
    r = subprocess.run([sys.executable, os.path.join(TOP, relpath), *args],
                       capture_output=True, text=True)
    what = f'{relpath} {" ".join(args)}'
    test.assertNotEqual(r.returncode, 0, f'{what}: exit 0 on bad input')
    test.assertNotIn('Traceback', r.stderr, what)
    lines = r.stderr.splitlines()
    test.assertEqual(len(lines), 1, f'{what}: want one line on stderr, got:\n{r.stderr}')
    return r.returncode, lines[0]


def usage_error(test, relpath, *args, want=()):
    """one_line_error() for bad arguments or files: exit status 2, the line
    starts with the program's name, and contains every string of want."""
    rc, line = one_line_error(test, relpath, *args)
    test.assertEqual(rc, 2, line)
    test.assertTrue(line.startswith(os.path.basename(relpath) + ': '), line)
    for w in want:
        test.assertIn(w, line)
    return line
