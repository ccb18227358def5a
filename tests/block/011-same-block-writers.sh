#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: concurrent writers of the same blocks, with discards and write-zeroes racing them, leave each logical block holding one write or zeros, never a mix
# where: guest
# requires: python3
# timeout: 180
. "$TOP/tests/lib.sh"

for ss in 512 4096; do
	ramlld_load mode=bio,mq capacity_mb=4 sector_size=$ss
	python3 - $ss <<'PY' || fail "a block mixed or left zero by the last writes (sector_size=$ss)"
import fcntl, mmap, os, signal, struct, sys
ss = int(sys.argv[1])
BLKDISCARD, BLKZEROOUT = 0x1277, 0x127f
size = 64 * 1024            # 16 store pages, written whole by every writer
def writer(dev, byte, ready, go):
    # 3000 writes racing the zeroers, then 500 more after they have stopped
    fd = os.open(dev, os.O_WRONLY | os.O_DIRECT)
    buf = mmap.mmap(-1, size)
    buf.write(bytes([byte]) * size)
    for _ in range(3000):
        os.pwrite(fd, buf, 0)
    os.write(ready, b"w")
    os.read(go, 1)
    for _ in range(500):
        os.pwrite(fd, buf, 0)
    os._exit(0)
def zeroer(dev):
    # discard and write-zeroes of whole and partial store pages, until stopped
    fd = os.open(dev, os.O_WRONLY)
    n = 0
    while True:
        start = (n * 7 % (size // ss)) * ss
        length = min(size - start, (n % 13 + 1) * ss)
        fcntl.ioctl(fd, BLKZEROOUT if n & 1 else BLKDISCARD,
                    struct.pack("QQ", start, length))
        n += 1
def check(what):
    fd = os.open("/dev/ramlld0", os.O_RDONLY | os.O_DIRECT)
    buf = mmap.mmap(-1, size)
    os.preadv(fd, [buf], 0)
    os.close(fd)
    data = bytes(buf)
    blocks = [set(data[b * ss:(b + 1) * ss]) for b in range(size // ss)]
    bad = [b for b, v in enumerate(blocks) if len(v) != 1]
    zero = sum(v == {0} for v in blocks)
    print(f"sector_size={ss}, {what}: {len(blocks)} blocks, {len(bad)} mixed, {zero} zeros, values {sorted(set(data))}")
    return bad, zero
ready_r, ready_w = os.pipe()
go_r, go_w = os.pipe()
zeroers = []
for dev in ["/dev/ramlld0", "/dev/ramlldmq0"]:
    pid = os.fork()
    if pid == 0:
        zeroer(dev)
    zeroers.append(pid)
pids = []
for i, dev in enumerate(["/dev/ramlld0", "/dev/ramlldmq0"] * 2):
    pid = os.fork()
    if pid == 0:
        os.close(go_w)      # the go pipe ends (EOF) when the parent closes it
        writer(dev, 0x11 * (i + 1), ready_w, go_r)
    pids.append(pid)
for _ in pids:
    assert os.read(ready_r, 1) == b"w"
for p in zeroers:
    # a zeroer that died of an ioctl error has exited before this signal
    os.kill(p, signal.SIGTERM)
    _, st = os.waitpid(p, 0)
    assert os.WIFSIGNALED(st) and os.WTERMSIG(st) == signal.SIGTERM, "discard or write-zeroes failed"
bad, _ = check("writers and zeroers")
os.close(go_w)              # the writers' second round, with nothing zeroing
for p in pids:
    _, st = os.waitpid(p, 0)
    assert st == 0, "writer failed"
bad2, zero = check("writers alone after")
sys.exit(1 if bad or bad2 or zero else 0)
PY
	ramlld_unload
done
