#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: concurrent writers of the same blocks leave each logical block holding one write, never a mix
# where: guest
# requires: python3
# timeout: 180
. "$TOP/tests/lib.sh"

for ss in 512 4096; do
	ramlld_load mode=bio,mq capacity_mb=4 sector_size=$ss
	python3 - $ss <<'PY' || fail "mixed block found (sector_size=$ss)"
import mmap, os, sys
ss = int(sys.argv[1])
size = 64 * 1024            # 16 store pages, written whole by every writer
def writer(dev, byte, n):
    fd = os.open(dev, os.O_WRONLY | os.O_DIRECT)
    buf = mmap.mmap(-1, size)
    buf.write(bytes([byte]) * size)
    for _ in range(n):
        os.pwrite(fd, buf, 0)
    os.close(fd)
    os._exit(0)
pids = []
for i, dev in enumerate(["/dev/ramlld0", "/dev/ramlldmq0"] * 2):
    pid = os.fork()
    if pid == 0:
        writer(dev, 0x11 * (i + 1), 3000)
    pids.append(pid)
for p in pids:
    _, st = os.waitpid(p, 0)
    assert st == 0, "writer failed"
fd = os.open("/dev/ramlld0", os.O_RDONLY | os.O_DIRECT)
buf = mmap.mmap(-1, size)
os.preadv(fd, [buf], 0)
data = bytes(buf)
bad = [b for b in range(size // ss) if len(set(data[b * ss:(b + 1) * ss])) != 1]
print(f"sector_size={ss}: {size // ss} blocks, {len(bad)} mixed, values {sorted(set(data))}")
sys.exit(1 if bad else 0)
PY
	ramlld_unload
done
