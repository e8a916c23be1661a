#!/usr/bin/env python3
"""Feed /proc/PID/gdb malformed, oversized and random input (bounded).

  fuzz.py PID SEED ROUNDS
  fuzz.py PID cond TICK GO    (the symbols' values in the program, hex)

Every write must be taken or fail with an errno, every reply must be a
well-formed packet or ack, nothing may hang (select() timeouts), and the
process must run again once the file is closed (checked by the caller).
Prints one summary line; exit status 0 on success.
"""
import os
import random
import re
import select
import sys


def csum(body):
    return '%02x' % (sum(body) & 0xff)


def packet(body, good=True):
    if isinstance(body, str):
        body = body.encode('latin-1')
    c = csum(body) if good else '%02x' % ((sum(body) + 1) & 0xff)
    return b'$' + body + b'#' + c.encode()


def drain(fd, wait=0.3):
    out = b''
    while True:
        r, _, _ = select.select([fd], [], [], wait)
        if not r:
            return out
        chunk = os.read(fd, 65536)
        if not chunk:
            return out
        out += chunk
        wait = 0.05


def exchange(fd, body):
    """Send one packet, return the body of the reply packet."""
    os.write(fd, packet(body))
    out = b''
    for _ in range(50):
        out += drain(fd, 0.2)
        m = re.search(rb'\$([^#]*)#', out)
        if m:
            return m.group(1).decode('latin-1')
    return None


def mapping(pid, perms):
    """The start of the target program's first mapping with PERMS, or None."""
    with open('/proc/%d/maps' % pid) as maps:
        for line in maps:
            f = line.split()
            if f[1] == perms and len(f) > 5 and f[5].endswith('/target'):
                return int(f[0].split('-')[0], 16)
    return None


def breakpoints(fd, pid):
    """Z0 on the program's text: reads show the original bytes."""
    text = mapping(pid, 'r-xp')
    if text is None:
        return 'no text mapping'
    before = exchange(fd, 'm%x,8' % text)
    for body, want in [('Z0,%x,1' % text, 'OK'), ('Z0,%x,1' % text, 'OK'),
                       ('Z0,%x,1' % (text + 4), 'OK'),
                       ('m%x,8' % text, before),
                       ('M%x,1:90' % text, 'E10'),
                       ('z0,%x,1' % text, 'OK'), ('z0,%x,1' % text, 'E02'),
                       ('m%x,8' % text, before),
                       ('Z0,%x,1' % text, 'OK'),
                       ('Z0,%x,2' % text, 'E16'), ('Z1,%x,1' % text, ''),
                       ('Z0,%x,1' % pid, 'E5f'), ('Z0,ffffffffffffffff,1', 'E5f'),
                       ('Z0', 'E16'), ('Z0,', 'E16'), ('z0,0,1', 'E02')]:
        got = exchange(fd, body)
        if got != want:
            return '%s: got %r, want %r' % (body, got, want)
    return None


def watchpoints(fd, pid):
    """Z2/Z4 on the program's data: at most four, aligned, user space."""
    data = mapping(pid, 'rw-p')
    if data is None:
        return 'no data mapping'
    d = [data + 8 * i for i in range(5)]
    for body, want in [('Z2,%x,4' % d[0], 'OK'), ('Z2,%x,4' % d[0], 'OK'),
                       ('Z4,%x,8' % d[1], 'OK'), ('Z2,%x,1' % d[2], 'OK'),
                       ('Z2,%x,2' % d[3], 'OK'), ('Z2,%x,4' % d[4], 'E1c'),
                       ('z2,%x,4' % d[4], 'E02'), ('z4,%x,4' % d[1], 'E02'),
                       ('z4,%x,8' % d[1], 'OK'), ('z2,%x,1' % d[2], 'OK'),
                       ('z2,%x,2' % d[3], 'OK'),
                       ('Z3,%x,4' % d[0], ''), ('Z2,%x,3' % d[1], 'E16'),
                       ('Z2,%x,4' % (d[1] + 1), 'E16'), ('Z2,0,4', 'E16'),
                       ('Z2,ffffffffffff0000,8', 'E16'), ('Z2,%x' % d[1], 'E16'),
                       ('Z4,%x,8,1' % d[1], 'E16')]:
        got = exchange(fd, body)
        if got != want:
            return '%s: got %r, want %r' % (body, got, want)
    return None


def ax(*ops):
    """One condition's X part: agent expression bytes, in hex."""
    code = bytes(ops)
    return 'X%x,%s' % (len(code), code.hex())


def conditions_checked(fd, at):
    """Z0's checks of condition bytecode (EINVAL is E16)."""
    for cond, want in [(';' + ax(0x22, 1, 0x27), 'OK'),       # const8 1; end
                       (';' + ax(0x22, 1, 0x27) * 2, 'OK'),   # two, no ';'
                       (';' + ax(0x22, 1, 0x27) + ';' + ax(0x22, 0, 0x27), 'OK'),
                       (';' + ax(0x01, 0x27), 'E16'),          # float
                       (';' + ax(0x0c, 0x27), 'E16'),          # trace
                       (';' + ax(0x2c, 0, 0, 0x27), 'E16'),    # getv
                       (';' + ax(0x34, 0x27), 'E16'),          # printf
                       (';' + ax(0xff), 'E16'),                # no such opcode
                       (';' + ax(0x25, 1), 'E16'),             # const64 cut short
                       (';' + ax(0x20, 0, 0x10, 0x27), 'E16'),  # if_goto past the end
                       (';' + ax(0x22, 1, 0x21, 0, 1, 0x27), 'E16'),  # into an operand
                       (';' + ax(0x22, 1, 0x16, 0, 0x27), 'E16'),     # ext 0
                       (';' + ax(0x22, 1, 0x2a, 65, 0x27), 'E16'),    # zero_ext 65
                       (';X10,2227', 'E16'), (';X0,', 'E16'), (';X1,zz', 'E16'),
                       (';X1', 'E16'), (';Y1,27', 'E16'), (';', 'E16'),
                       ('X1,27', 'E16'), (';' + ax(0x27) * 9, 'E16')]:
        got = exchange(fd, 'Z0,%x,1%s' % (at, cond))
        if got != want:
            return 'Z0 with %r: got %r, want %r' % (cond, got, want)
    got = exchange(fd, 'z0,%x,1;' % at + ax(0x27))
    if got != 'E16':
        return 'z0 with a condition: got %r, want E16' % got
    got = exchange(fd, 'z0,%x,1' % at)
    if got != 'OK':
        return 'z0: got %r, want OK' % got
    return None


def load_base(pid):
    """What the program's symbols are relative to: 0 unless PIE."""
    with open('/proc/%d/exe' % pid, 'rb') as exe:
        e_type = int.from_bytes(exe.read(18)[16:18], 'little')
    if e_type != 3:     # ET_DYN
        return 0
    with open('/proc/%d/maps' % pid) as maps:
        for line in maps:
            f = line.split()
            if f[2] == '00000000' and len(f) > 5 and f[5].endswith('/target'):
                return int(f[0].split('-')[0], 16)
    raise SystemExit('# fuzz: cond: no mapping of the program at offset 0')


def conditions(pid, tick, go):
    """Conditions evaluated in the target: tick() runs four times once go
    is set.  An evaluation that fails stops it (an endless loop, a stack
    overflow, a read that faults); false conditions let it run to its
    exit."""
    base = load_base(pid)
    tick += base
    go += base
    fd = os.open('/proc/%d/gdb' % pid, os.O_RDWR)
    err = conditions_checked(fd, tick)
    if err:
        return err
    const64 = lambda v: [0x25] + list(v.to_bytes(8, 'big'))
    hits = [('an endless loop', ax(0x21, 0, 0)),                      # goto 0
            ('a stack overflow', ax(*([0x22, 1] * 33 + [0x27]))),
            ('a read that faults', ax(*(const64(8) + [0x19, 0x27])))]  # ref32
    if exchange(fd, 'M%x,4:01000000' % go) != 'OK':
        return 'cannot set go'
    for what, cond in hits:
        if exchange(fd, 'Z0,%x,1;%s' % (tick, cond)) != 'OK':
            return 'Z0 with %s refused' % what
        got = exchange(fd, 'c')
        if not got or not got.startswith('T05') or 'swbreak' not in got:
            return 'a condition with %s: got %r, want a breakpoint stop' % (what, got)
    # Three false ones: a constant, $rip == tick, go == 2.
    false = [ax(0x22, 0, 0x27),
             ax(*([0x26, 0, 16] + const64(tick) + [0x13, 0x0e, 0x27])),
             ax(*(const64(go) + [0x19, 0x22, 2, 0x13, 0x27]))]
    if exchange(fd, 'Z0,%x,1;%s' % (tick, ''.join(false))) != 'OK':
        return 'Z0 with three false conditions refused'
    got = exchange(fd, 'c')
    if got != 'W00':
        return 'false conditions: got %r, want W00 (the exit, no stop)' % got
    os.close(fd)
    print('# fuzz: cond: 3 failed evaluations stopped, 3 false conditions did not')
    return None


def main():
    if sys.argv[2] == 'cond':
        err = conditions(int(sys.argv[1]), int(sys.argv[3], 16), int(sys.argv[4], 16))
        if err:
            print('# fuzz: cond: ' + err)
            return 1
        return 0
    pid, seed, rounds = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    rnd = random.Random(seed)
    fd = os.open('/proc/%d/gdb' % pid, os.O_RDWR)
    # Two breakpoints and a watchpoint stay in: closing the file must
    # remove them.
    err = breakpoints(fd, pid)
    if err:
        print('# fuzz: breakpoints: ' + err)
        return 1
    err = watchpoints(fd, pid)
    if err:
        print('# fuzz: watchpoints: ' + err)
        return 1
    fixed = [
        packet('qSupported'), packet('?'), packet('g'), packet('QStartNoAckMode'),
        b'+++---', b'\x03', b'$', b'#', b'$#', b'$#zz', b'$m0,1#', b'}}}}',
        packet('m0,ffffffffffffffff'), packet('mffffffffffffffff,10'),
        packet('m' + 'f' * 40 + ',1'), packet('M0,2:zz'), packet('M0,1:'),
        packet('M1000,4:00'), packet('X0,0:'), packet('P999=00'),
        # 2 * len wraps to 32: must be refused, not kmalloc(2^63 + 16).
        packet('M0,8000000000000010:' + '00' * 16),
        packet('P10=' + '0' * 3), packet('p' + 'f' * 30), packet('G00'),
        packet('Hgffffffff'), packet('Hc-2'), packet('H'), packet('Tzz'),
        packet('T0'), packet('T-1'), packet('vCont;'), packet('vCont;x'),
        packet('vCont;C'), packet('vCont;Czz:1'), packet('vCont;s:0'),
        packet('vCont;c:' + 'f' * 20), packet('C'), packet('Sff'),
        packet('qXfer:features:read:target.xml:ffffffff,ffffffff'),
        packet('qXfer:features:read:target.xml:0'), packet('qXfer:auxv:read::,'),
        packet('qXfer:auxv:read::0,0'), packet('qXfer:other:read::0,10'),
        packet('qXfer:threads:read::10,10'), packet('qXfer:threads:read::0,fff'),
        packet('qXfer:threads:read::ffffffff,1'), packet('qXfer:threads:read::0,'),
        packet('QPassSignals:'), packet('QPassSignals:zz'), packet('QPassSignals:1e;'),
        packet('QPassSignals:' + 'f' * 20), packet('QPassSignals:1e;;2'),
        packet('QPassSignals:0;7f;80;ff'),
        packet('Z2,1000,8'), packet('Z4,' + 'f' * 20 + ',4'), packet('z2,1000,8'),
        packet('vRun;'), packet('vAttach;1'), packet('qsThreadInfo'),
        packet('x' * 5000), packet('q' * 4096), b'$' + b'A' * 9000 + b'#00',
        packet('g', good=False), packet('?', good=False),
    ]
    sent = replies = 0
    for data in fixed:
        os.write(fd, data)
        sent += 1
        replies += drain(fd).count(b'$')
    for _ in range(rounds):
        kind = rnd.randrange(4)
        if kind == 0:
            data = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 600)))
        elif kind == 1:
            body = rnd.choice(['m', 'M', 'g', 'G', 'p', 'P', 'H', 'T', 'q', 'Q',
                               'v', 'vCont;', 'qXfer:', 'Z0,', 'c', 's', 'C', 'S'])
            body += ''.join(rnd.choice('0123456789abcdef,:;=-xpP')
                            for _ in range(rnd.randrange(0, 80)))
            data = packet(body, good=rnd.random() < 0.9)
        elif kind == 2:
            data = rnd.choice(fixed)
            cut = rnd.randrange(len(data) + 1)
            data = data[:cut]
        else:
            data = packet(rnd.choice(['?', 'g', 'qfThreadInfo', 'qC',
                                      'qXfer:auxv:read::0,40',
                                      'qXfer:threads:read::0,40',
                                      'm%x,10' % rnd.randrange(1 << 47)]))
        # A resume would let the process run off: gdb's Ctrl-C stops it.
        os.write(fd, data)
        if b'$c' in data or b'$s' in data or b'$C' in data or b'$S' in data or b'vCont' in data:
            os.write(fd, b'\x03')
        sent += 1
        replies += drain(fd, 0.1).count(b'$')
    os.close(fd)
    print('# fuzz: seed %d: %d writes, %d replies' % (seed, sent, replies))
    return 0


if __name__ == '__main__':
    sys.exit(main())
