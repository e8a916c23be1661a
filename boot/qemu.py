#!/usr/bin/env python3
"""Boot a guest kernel under QEMU and run one script in it.

The one place where QEMU options and the kernel command line are chosen,
so both kernels of a comparison boot exactly the same way.

  qemu.py --kernel bzImage --script S [--args A] --out DIR
          [--timeout SEC] [--silence SEC] [--icount] [--plugin SO,ARGS]
          [--initrd FILE]

Writes DIR/console.log (kernel console, ttyS0) and DIR/output.log (the
script's output, ttyS1).  Exit status: 0 when the guest powered off by
itself, 2 on a timeout or silence (the guest is killed), 3 when QEMU
failed to start.  The console is scanned separately (consolescan.py).

KVM on these machines is nested and crashes guests early (XRSTOR fault),
so it is never assumed: with --accel auto (the default) a probe boot under
KVM must reach the guest script and power off cleanly, and its verdict is
cached in build/kvm-probe; otherwise TCG is used.  --icount implies TCG,
and so does --plugin (a TCG plugin, e.g. bench/profile.sh's tbprof.so).

--initrd FILE boots from that initramfs (bench/initramfs.sh, which puts
guest-init.sh and the script in it at their host paths) instead of the
host's / over 9p: no 9p request then happens unless the guest mounts the
host's / itself (mount tag /dev/root, still offered), so with --icount
nothing but the guest's own instructions decides its state (make bench,
"Determinism").  The kernel needs CONFIG_BLK_DEV_INITRD=y.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
INIT = os.path.join(HERE, 'guest-init.sh')


def kbuild_dir(kernel):
    """The O= directory a kernel was built in, if it is still in place."""
    kernel = os.path.abspath(kernel)
    suffix = os.path.join('arch', 'x86', 'boot', 'bzImage')
    return kernel[:-len(suffix) - 1] if kernel.endswith(os.sep + suffix) else ''


def qemu_command(kernel, out, script, args, icount, accel, plugin='', initrd=''):
    kbuild = kbuild_dir(kernel)
    if initrd:
        root = [f'rdinit={INIT}']
    else:
        root = ['root=/dev/root', 'rootfstype=9p', 'ro',
                'rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose',
                f'init={INIT}']
    cmdline = ' '.join([
        'console=ttyS0,115200', 'earlyprintk=serial,ttyS0,115200',
        *root, 'panic=-1',
        'loglevel=7', 'printk.time=1', 'tsc=reliable', 'no_hash_pointers',
        f'UTRACE_SCRIPT={script}', f'UTRACE_ARGS={args}' if args else '',
        # The guest finds this kernel's modules (samples, test_utrace) there.
        f'UTRACE_KBUILD={kbuild}' if kbuild else '',
    ]).split()
    cmd = [
        'qemu-system-x86_64', '-nodefaults', '-no-reboot', '-display', 'none',
        # Two vCPUs run in parallel (multi-threaded TCG); under -icount
        # QEMU runs vCPUs round-robin anyway, and the benchmarks want one.
        '-machine', 'q35', '-accel', accel + (',thread=multi' if accel == 'tcg' and not icount else ''),
        '-cpu', 'max', '-smp', '1' if icount else '2', '-m', '1G',
        '-kernel', kernel, '-append', ' '.join(cmdline),
        *(['-initrd', initrd] if initrd else []),
        '-fsdev', 'local,id=root,path=/,security_model=none,readonly=on,multidevs=remap',
        '-device', 'virtio-9p-pci,fsdev=root,mount_tag=/dev/root',
        '-serial', 'file:' + os.path.join(out, 'console.log'),
        '-serial', 'file:' + os.path.join(out, 'output.log'),
        '-monitor', 'none',
    ]
    if icount:
        # Guest time is the instruction count, and nothing the host does
        # may change what the guest executes: its clock starts at a fixed
        # date and runs on guest time (not the host's RTC), and RDRAND,
        # RDSEED and the other guest random numbers come from a seeded
        # generator (not the host's): with either from the host, two
        # boots differed by up to 0.8% (bench/README.md, "Determinism").
        cmd += ['-icount', 'shift=0,align=off,sleep=off',
                '-rtc', 'base=2020-01-01T00:00:00,clock=vm', '-seed', '1']
    if plugin:
        cmd += ['-plugin', plugin]
    return cmd


def run(cmd, out, timeout, silence, quiet=False):
    """Run QEMU; kill it on overall timeout or when both logs stay silent."""
    logs = [os.path.join(out, n) for n in ('console.log', 'output.log')]
    with open(os.path.join(out, 'qemu.stderr'), 'w') as err:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=err, stderr=err)
    start = last = time.monotonic()
    sizes = None
    while proc.poll() is None:
        time.sleep(1)
        now = time.monotonic()
        cur = [os.path.getsize(p) if os.path.exists(p) else 0 for p in logs]
        if cur != sizes:
            sizes, last = cur, now
        why = None
        if now - start > timeout:
            why = f'overall timeout of {timeout} s'
        elif now - last > silence:
            why = f'no guest output for {silence} s'
        if why:
            proc.kill()
            proc.wait()
            with open(logs[1], 'a') as f:
                f.write(f'\n# host: guest killed: {why}\n')
            if not quiet:
                print(f'qemu.py: guest killed: {why} (logs in {out})', file=sys.stderr)
            return 2
    if proc.returncode != 0:
        if quiet:
            return 3
        print(f'qemu.py: qemu exited with {proc.returncode}; see {out}/qemu.stderr',
              file=sys.stderr)
        return 3
    return 0


def probe_kvm(kernel, out):
    """Boot once under KVM with a script that only says hello; cache the verdict."""
    cache = os.path.join(os.path.dirname(HERE), 'build', 'kvm-probe')
    if os.path.exists(cache):
        with open(cache) as f:
            return f.read().strip() == 'kvm'
    ok = False
    if os.access('/dev/kvm', os.R_OK | os.W_OK):
        pdir = os.path.join(out, 'kvm-probe')
        os.makedirs(pdir, exist_ok=True)
        script = os.path.join(HERE, 'hello.sh')
        cmd = qemu_command(kernel, pdir, script, '', False, 'kvm')
        rc = run(cmd, pdir, 60, 30, quiet=True)
        try:
            with open(os.path.join(pdir, 'output.log'), errors='replace') as f:
                ok = rc == 0 and 'hello from the guest' in f.read()
        except OSError:
            ok = False
    with open(cache, 'w') as f:
        f.write('kvm\n' if ok else 'tcg\n')
    print(f'qemu.py: KVM probe: {"usable" if ok else "not usable, using TCG"}', file=sys.stderr)
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--kernel', required=True)
    ap.add_argument('--script', required=True, help='shell script run in the guest')
    ap.add_argument('--args', default='', help='one word passed to the script')
    ap.add_argument('--out', required=True)
    ap.add_argument('--timeout', type=int, default=1800)
    ap.add_argument('--silence', type=int, default=300)
    ap.add_argument('--icount', action='store_true', help='deterministic guest time')
    ap.add_argument('--accel', choices=('auto', 'tcg', 'kvm'), default='auto')
    ap.add_argument('--plugin', default='', help='a TCG plugin: FILE.so[,ARG=VALUE...]')
    ap.add_argument('--initrd', default='',
                    help='boot from this initramfs, not from the host\'s / over 9p')
    a = ap.parse_args()
    if not shutil.which('qemu-system-x86_64'):
        sys.exit('qemu.py: qemu-system-x86_64 not found: run make deps')
    for p in (a.kernel, a.script, a.initrd):
        if p and not os.path.exists(p):
            sys.exit(f'qemu.py: {p} does not exist')
    if ' ' in a.args or ' ' in a.script:
        sys.exit('qemu.py: script path and --args must not contain spaces')
    os.makedirs(a.out, exist_ok=True)
    for n in ('console.log', 'output.log'):
        p = os.path.join(a.out, n)
        if os.path.exists(p):
            os.unlink(p)
    accel = a.accel
    if a.plugin:
        accel = 'tcg'
    if a.icount or accel == 'auto':
        accel = 'tcg'
        if not a.icount and a.accel == 'auto' and probe_kvm(os.path.abspath(a.kernel), a.out):
            accel = 'kvm'
    cmd = qemu_command(os.path.abspath(a.kernel), a.out, os.path.abspath(a.script),
                       a.args, a.icount, accel, a.plugin,
                       os.path.abspath(a.initrd) if a.initrd else '')
    with open(os.path.join(a.out, 'qemu.cmd'), 'w') as f:
        f.write(' '.join(cmd) + '\n')
    sys.exit(run(cmd, a.out, a.timeout, a.silence))


if __name__ == '__main__':
    main()
