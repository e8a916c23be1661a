"""The Makefile's recipes can source scripts/lib.sh: 'make build' and
'make profile' ask it for the active configs in the recipe itself, which
/bin/sh (dash on Debian) cannot do ("set: Illegal option -o pipefail")."""
import os
import subprocess
import tempfile
import unittest

from tests.harness.load import TOP


class RecipesSourceLib(unittest.TestCase):
    def test_active_configs_in_a_recipe(self):
        with tempfile.TemporaryDirectory() as d:
            probe = os.path.join(d, 'probe.mk')
            with open(probe, 'w') as f:
                f.write('probe:\n\t@echo "configs: $$(. $(S)/lib.sh && active_configs)"\n')
            # An empty LINUX_DIR: no tree, so only utrace-off is active.
            r = subprocess.run(['make', '-s', '-C', TOP, '-f', 'Makefile', '-f', probe,
                                'probe', f'LINUX_DIR={d}/none'],
                               capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, 'configs: utrace-off\n')


if __name__ == '__main__':
    unittest.main()
