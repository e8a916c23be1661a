"""scripts/kconfig_verify.py: a fragment option dropped by olddefconfig is an error."""
import os
import tempfile
import unittest

from tests.harness.load import load, usage_error

kv = load('scripts/kconfig_verify.py')

CONFIG = """\
CONFIG_64BIT=y
CONFIG_NR_CPUS=4
# CONFIG_UTRACE is not set
CONFIG_SECCOMP=y
CONFIG_DEFAULT_HOSTNAME="(none)"
"""


def drops(frag):
    return list(kv.dropped(kv.parse(CONFIG.splitlines()), kv.parse(frag.splitlines())))


class TestKconfigVerify(unittest.TestCase):
    def test_survivors_pass(self):
        self.assertEqual(drops('CONFIG_64BIT=y\nCONFIG_NR_CPUS=4\n# CONFIG_UTRACE is not set\n'), [])

    def test_dropped_option_is_named(self):
        # IPC_NS without SYSVIPC: olddefconfig drops it silently.
        self.assertEqual(drops('CONFIG_IPC_NS=y\n'), [('CONFIG_IPC_NS', 'y', 'absent')])

    def test_changed_value_is_reported(self):
        self.assertEqual(drops('CONFIG_NR_CPUS=8\n'), [('CONFIG_NR_CPUS', '8', '4')])

    def test_unwanted_option_that_is_on(self):
        self.assertEqual(drops('# CONFIG_SECCOMP is not set\n'),
                         [('CONFIG_SECCOMP', 'is not set', 'y')])

    def test_not_set_for_a_symbol_the_tree_lacks_is_fine(self):
        self.assertEqual(drops('# CONFIG_NO_SUCH_THING is not set\n'), [])

    def test_string_values_compare_exactly(self):
        self.assertEqual(drops('CONFIG_DEFAULT_HOSTNAME="(none)"\n'), [])
        self.assertEqual(len(drops('CONFIG_DEFAULT_HOSTNAME="guest"\n')), 1)

    def test_comments_are_not_options(self):
        self.assertEqual(kv.parse(['# Base fragment for the guest', '', '# include: x.config']), {})


class TestFragmentOrder(unittest.TestCase):
    """A later fragment overrides an earlier one (debug.config turns ACPI on)."""

    def run_main(self, config, *frags):
        import os
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for i, text in enumerate((config,) + frags):
                p = os.path.join(d, f'{i}.config')
                with open(p, 'w') as f:
                    f.write(text)
                paths.append(p)
            return kv.main(['kconfig_verify.py'] + paths)

    def test_later_fragment_wins(self):
        self.assertEqual(self.run_main('CONFIG_ACPI=y\n', '# CONFIG_ACPI is not set\n',
                                       'CONFIG_ACPI=y\n'), 0)

    def test_later_fragment_is_still_checked(self):
        self.assertEqual(self.run_main('# CONFIG_ACPI is not set\n', 'CONFIG_ACPI=y\n',
                                       '# CONFIG_X is not set\n'), 1)


class TestTree(unittest.TestCase):
    """--tree: an option the tree does not define yet is not an error."""

    def run_main(self, kconfig, config, frag):
        import os
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, 'tree', 'kernel'))
            with open(os.path.join(d, 'tree', 'kernel', 'Kconfig.x'), 'w') as f:
                f.write(kconfig)
            paths = []
            for name, text in (('c', config), ('f', frag)):
                p = os.path.join(d, name)
                with open(p, 'w') as f:
                    f.write(text)
                paths.append(p)
            return kv.main(['kconfig_verify.py', '--tree', os.path.join(d, 'tree')] + paths)

    def test_undefined_option_is_not_an_error(self):
        self.assertEqual(self.run_main('config UTRACE\n\tbool "x"\n', 'CONFIG_UTRACE=y\n',
                                       'CONFIG_UTRACE=y\nCONFIG_SAMPLE_UTRACE=m\n'), 0)

    def test_defined_option_dropped_is_still_an_error(self):
        self.assertEqual(self.run_main('menuconfig UTRACE\n\tbool "x"\n', '',
                                       'CONFIG_UTRACE=y\n'), 1)


class TestCommandLine(unittest.TestCase):
    """Bad input is one line on stderr and exit 2, never a traceback."""

    def bad(self, *args, want=()):
        usage_error(self, 'scripts/kconfig_verify.py', *args, want=want)

    def test_bad_arguments(self):
        with tempfile.TemporaryDirectory() as d:
            config = os.path.join(d, '.config')
            with open(config, 'w') as f:
                f.write(CONFIG)
            self.bad(want=['CONFIG', 'FRAGMENT'])
            self.bad(config, want=['FRAGMENT'])
            self.bad('--tree', want=['--tree'])
            self.bad('--bogus', config, config, want=['--bogus'])
            self.bad('--tree', os.path.join(d, 'no-tree'), config, config, want=['no-tree'])

    def test_missing_files(self):
        with tempfile.TemporaryDirectory() as d:
            config, frag = os.path.join(d, '.config'), os.path.join(d, 'frag.config')
            self.bad(config, frag, want=[config, 'No such file'])
            with open(config, 'w') as f:
                f.write(CONFIG)
            self.bad(config, frag, want=[frag, 'No such file'])


if __name__ == '__main__':
    unittest.main()
