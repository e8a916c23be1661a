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
    """Read what the stub sends within WAIT seconds, and then until it
    is silent for 0.05 s.  WAIT 0: only what is queued already (a reply
    that is not a stop reply is queued before write() returns), with no
    wait after it."""
    out = b''
    while True:
        r, _, _ = select.select([fd], [], [], wait)
        if not r:
            return out
        chunk = os.read(fd, 65536)
        if not chunk:
            return out
        out += chunk
        wait = min(wait, 0.05)


RESUME = (b'$c', b'$s', b'$C', b'$S', b'vCont')


def may_resume(data):
    """Whether DATA may hold a resume packet."""
    return any(k in data for k in RESUME)


def resumes(data):
    """Whether DATA may hold a resume or a Ctrl-C, whose stop reply comes
    later.  The reply to any other packet is queued before write()
    returns, so only such writes wait for more output (most writes get no
    reply at all: waiting after each would be most of the run)."""
    return may_resume(data) or b'\x03' in data


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


def const64(v):
    """const64 V (two's complement for a negative V)."""
    return [0x25] + list((v & (1 << 64) - 1).to_bytes(8, 'big'))


def false_if(code, want):
    """A condition that is false exactly when CODE leaves WANT on top:
    CODE; const64 WANT; equal; log_not; end."""
    return ax(*(code + const64(want) + [0x13, 0x0e, 0x27]))


def stop_pc(fd, reply):
    """The PC of the thread that a stop reply names (Hg, then p10)."""
    m = re.search(r'thread:([0-9a-f]+);', reply or '')
    if not m or exchange(fd, 'Hg' + m.group(1)) != 'OK':
        return None
    v = exchange(fd, 'p10')
    return int.from_bytes(bytes.fromhex(v), 'little') if v and len(v) == 16 else None


def expedited(fd, reply):
    """None if the stop reply carries rbp, rsp and rip (registers 06, 07
    and 10 of the target description) with the values that p reads for
    the thread it names, as gdbserver's amd64 replies do (gdb then needs
    no g packet for a stop it does not show); else what is wrong."""
    regs = dict(re.findall(r';([0-9a-f]{2}):([0-9a-f]+)(?=;)', reply or ''))
    m = re.search(r'thread:([0-9a-f]+);', reply or '')
    if not m or exchange(fd, 'Hg' + m.group(1)) != 'OK':
        return 'no thread to read the registers of in %r' % reply
    for n in ('06', '07', '10'):
        if n not in regs:
            return 'register %s missing from %r' % (n, reply)
        got = exchange(fd, 'p' + n)
        if got != regs[n]:
            return 'register %s is %s in %r but p%s reads %s' % (n, regs[n], reply, n, got)
    return None


def conditions(pid, tick, go):
    """Conditions evaluated in the target.  Once go is set tick() runs
    four times, and each call passes three breakpoint addresses: tick
    (push %rbp), tick + 1 (mov %rsp,%rbp), tick + 4.  In the first two
    calls every address has a condition whose evaluation fails, so each
    hit must stop there; in the last two every address has conditions
    that are false only if the interpreter computes exactly the value
    each one checks, so the program must run to its exit."""
    base = load_base(pid)
    tick += base
    go += base
    at = [tick, tick + 1, tick + 4]
    fd = os.open('/proc/%d/gdb' % pid, os.O_RDWR)
    err = conditions_checked(fd, tick)
    if err:
        return err
    failing = [[('an endless loop', ax(0x21, 0, 0)),                  # goto 0
                ('a stack overflow', ax(*([0x22, 1] * 33 + [0x27]))),
                ('a read that faults', ax(*(const64(8) + [0x19, 0x27])))],  # ref32
               [('a stack underflow', ax(0x22, 1, 0x02, 0x02, 0x27)),  # add, add
                ('a division by zero', ax(0x22, 1, 0x22, 0, 0x06, 0x27)),
                ('a register that is not a general one (st0)', ax(0x26, 0, 24, 0x27))]]
    if exchange(fd, 'M%x,4:01000000' % go) != 'OK':
        return 'cannot set go'
    for call, conds in enumerate(failing, 1):
        for a, (what, cond) in zip(at, conds):
            if exchange(fd, 'Z0,%x,1;%s' % (a, cond)) != 'OK':
                return 'Z0 with %s refused' % what
        for a, (what, cond) in zip(at, conds):
            got = exchange(fd, 'c')
            if not got or not got.startswith('T05') or 'swbreak' not in got:
                return 'call %d, %s: got %r, want a breakpoint stop' % (call, what, got)
            pc = stop_pc(fd, got)
            if pc != a:
                return 'call %d, %s: stopped at %s, want tick + %d' % (
                    call, what, pc if pc is None else 'tick + %d' % (pc - tick), a - tick)
            err = expedited(fd, got)
            if err:
                return 'call %d, %s: %s' % (call, what, err)
    # Every operation, each checked for its exact result.
    false = [[false_if([0x22, 0xff, 0x16, 8], -1),                        # ext 8
              false_if([0x23, 0xff, 0xff, 0x2a, 8], 0xff),                # zero_ext 8
              false_if(const64(-16) + [0x22, 2, 0x0a], -4),               # rsh_signed
              false_if(const64(-16) + [0x22, 60, 0x0b], 15),              # rsh_unsigned
              false_if([0x22, 3, 0x22, 4, 0x09], 48),                     # lsh
              false_if(const64(-7) + [0x22, 2, 0x05], -3),                # div_signed
              false_if(const64(-7) + [0x22, 2, 0x07], -1),                # rem_signed
              false_if([0x22, 7, 0x22, 2, 0x08], 1)],                     # rem_unsigned
             [false_if([0x22, 7, 0x22, 2, 0x06], 3),                      # div_unsigned
              false_if(const64(-1) + [0x22, 0, 0x14], 1),                 # less_signed
              false_if(const64(-1) + [0x22, 0, 0x15], 0),                 # less_unsigned
              false_if([0x22, 6, 0x22, 3, 0x03, 0x22, 5, 0x04], 15),      # sub, mul
              false_if([0x22, 0x0c, 0x22, 0x0a, 0x0f, 0x22, 1, 0x10,
                        0x22, 3, 0x11], 10),                              # and, or, xor
              false_if([0x22, 0, 0x12], -1),                              # bit_not
              false_if([0x22, 1, 0x22, 2, 0x22, 3, 0x33], 2),             # rot: 3 1 2
              false_if([0x22, 5, 0x22, 6, 0x32, 1], 5)],                  # pick 1
             [false_if([0x22, 5, 0x22, 6, 0x2b, 0x03], 1),                # swap, sub
              false_if([0x22, 7, 0x28, 0x02, 0x22, 9, 0x29], 14),         # dup, pop
              # const8 1; if_goto 10; const8 5; goto 12; 10: const8 8; 12: ...
              false_if([0x22, 1, 0x20, 0, 10, 0x22, 5, 0x21, 0, 12, 0x22, 8], 8),
              false_if(const64(go) + [0x17], 1),                          # ref8
              false_if(const64(go) + [0x18], 1),                          # ref16
              false_if(const64(go) + [0x19], 1),                          # ref32
              false_if([0x26, 0, 16], tick + 4),                          # reg rip
              false_if([0x24, 0x12, 0x34, 0x56, 0x78], 0x12345678)]]      # const32
    for a, conds in zip(at, false):
        if exchange(fd, 'Z0,%x,1;%s' % (a, ''.join(conds))) != 'OK':
            return 'Z0 at tick + %d with %d false conditions refused' % (a - tick, len(conds))
    got = exchange(fd, 'c')
    if got != 'W00':
        pc = stop_pc(fd, got)
        return 'false conditions: got %r (at %s), want W00 (the exit, no stop)' % (
            got, pc if pc is None else 'tick + %d' % (pc - tick))
    os.close(fd)
    print('# fuzz: cond: 6 evaluations that fail stopped where they should, each reply '
          'with rbp, rsp and rip as p reads them; '
          '%d false conditions did not' % sum(len(c) for c in false))
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
        replies += drain(fd, 0.3 if resumes(data) else 0).count(b'$')
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
        if may_resume(data):
            os.write(fd, b'\x03')
        sent += 1
        replies += drain(fd, 0.1 if resumes(data) else 0).count(b'$')
    os.close(fd)
    print('# fuzz: seed %d: %d writes, %d replies' % (seed, sent, replies))
    return 0


if __name__ == '__main__':
    sys.exit(main())
