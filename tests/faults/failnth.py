# SPDX-License-Identifier: GPL-2.0
# tests/faults/failnth.py: allocation-failure sweeps for the fault tests (not a test itself): fail
# the Nth slab or page allocation of one insmod, rmmod or I/O of this task (fault injection's
# /proc/thread-self/fail-nth), or allocations at random (failslab/fail_page_alloc with
# task-filter and make-it-fail), and check that each ends cleanly with nothing left behind.
"""usage: failnth.py load KO PARAMS KIND SECONDS
       failnth.py unload KO PARAMS KIND SECONDS
KO: ramlld.ko.
       failnth.py io DEV KIND SECONDS
       failnth.py random DEV PERCENT COUNT
       failnth.py cycles KO N
KIND: slab (failslab) or page (fail_page_alloc). SECONDS: the time budget of the sweep; the
fault sites are tried spread over the whole operation first, then in between. cycles: N loads
and unloads with I/O in each (no fault injected; one process, as a program started in a TCG
guest costs a good part of a second)."""

import ctypes
import errno
import fcntl
import glob
import mmap
import os
import random
import struct
import sys
import time

SYS_DELETE_MODULE = 176
SYS_FINIT_MODULE = 313
SYS_IO_SETUP, SYS_IO_DESTROY, SYS_IO_GETEVENTS, SYS_IO_SUBMIT = 206, 207, 208, 209
IOCB_CMD_PWRITE = 1
BLKDISCARD = 0x1277
DEBUGFS = "/sys/kernel/debug"
BIG = 1000000

libc = ctypes.CDLL(None, use_errno=True)


class Fail(Exception):
    pass


def wr(path, val):
    with open(path, "w") as f:
        f.write(str(val))


def setup(kind, probability=0):
    """Make fail-nth (or a probability) reach only the allocations of KIND, of any GFP."""
    slab, page = DEBUGFS + "/failslab", DEBUGFS + "/fail_page_alloc"
    for d in (slab, page):
        if not os.path.isdir(d):
            raise Fail(f"{d} is missing")
        wr(d + "/verbose", 0)
        wr(d + "/probability", 0)
        wr(d + "/interval", 1)
        wr(d + "/times", -1)
        wr(d + "/space", 0)
        wr(d + "/task-filter", "Y")
        wr(d + "/ignore-gfp-wait", "N")
    wr(page + "/ignore-gfp-highmem", "N")
    # the kind not chosen is out of reach: no slab cache is marked for failslab's cache
    # filter, and no page allocation is of so high an order
    wr(slab + "/cache-filter", "N" if kind == "slab" else "Y")
    wr(page + "/min-order", 0 if kind == "page" else 30)
    if probability:
        wr((slab if kind == "slab" else page) + "/probability", probability)


def reset():
    """Back to the kernel's defaults: no fault."""
    slab, page = DEBUGFS + "/failslab", DEBUGFS + "/fail_page_alloc"
    if os.path.isdir(slab):
        wr(slab + "/probability", 0)
        wr(slab + "/cache-filter", "N")
    if os.path.isdir(page):
        wr(page + "/probability", 0)
        wr(page + "/min-order", 1)


class FailNth:
    """Arm /proc/thread-self/fail-nth around one call; say whether the fault was injected."""

    def __init__(self):
        self.fd = os.open("/proc/thread-self/fail-nth", os.O_RDWR)

    def call(self, n, fn):
        os.pwrite(self.fd, b"%d" % n, 0)
        ret = fn()
        left = int(os.pread(self.fd, 32, 0))
        os.pwrite(self.fd, b"0", 0)
        return ret, left

    def count(self, fn):
        """Run fn with no fault; return (its result, the fault sites it passed)."""
        ret, left = self.call(BIG, fn)
        return ret, BIG - left


def spread(m):
    """1..m, the whole range coarsely first, then ever finer (so a cut-off still covers it)."""
    order, seen, step = [], set(), 1
    while step * 2 <= m:
        step *= 2
    while step >= 1:
        for n in range(step, m + 1, step):
            if n not in seen:
                seen.add(n)
                order.append(n)
        step //= 2
    return order


def finit_fd(fd, params):
    r = libc.syscall(SYS_FINIT_MODULE, fd, params, 0)
    return 0 if r == 0 else ctypes.get_errno()


def finit(ko, params):
    fd = os.open(ko, os.O_RDONLY)
    try:
        return finit_fd(fd, params.encode())
    finally:
        os.close(fd)


def module_of(ko):
    """The module name of a .ko path."""
    return os.path.basename(ko).split(".ko")[0]


def delete(name="ramlld"):
    r = libc.syscall(SYS_DELETE_MODULE, name.encode(), os.O_NONBLOCK)
    return 0 if r == 0 else ctypes.get_errno()


def wait_deadline():
    """When a wait gives up (time.time()): the runner's deadline for the test (TEST_DEADLINE, from
    tests/run) less a tenth of its timeout (10 s at least), 5 s from now at least. Never a fixed
    figure: a TCG guest on a loaded host is many times slower."""
    timeout = int(os.environ.get("TEST_TIMEOUT", "120"))
    end = int(os.environ.get("TEST_DEADLINE", time.time() + timeout)) - max(timeout // 10, 10)
    return max(end, time.time() + 5)


def unload(name="ramlld"):
    """rmmod name, waiting while a disk of it is still closing."""
    end = wait_deadline()
    while True:
        e = delete(name)
        if e in (0, errno.ENOENT):
            return
        if time.time() > end:
            break
        time.sleep(0.1)
    raise Fail(f"rmmod {name} did not succeed before the test's deadline: {errno.errorcode.get(e, e)}")


def leftovers(mod="ramlld"):
    """What of module mod is registered while it is not loaded: its disks, sd disks, hosts,
    devices and majors."""
    left = []
    if os.path.exists("/sys/module/" + mod):
        left.append("/sys/module/" + mod)
    left += glob.glob("/sys/block/ramlld*")
    for v in glob.glob("/sys/block/sd*/device/vendor"):
        if open(v).read().strip() == "RAMLLD":
            left.append(v)
    for p in glob.glob("/sys/class/scsi_host/host*/proc_name"):
        if open(p).read().strip() == "ramlld":
            left.append(os.path.dirname(p))
    left += glob.glob("/sys/devices/ramlld*")
    with open("/proc/devices") as f:
        left += ["/proc/devices: " + l.strip() for l in f if "ramlld" in l]
    return left


def frontends():
    """The disks ramlld has while loaded (its sd disks as "sd", their names vary)."""
    disks = sorted(os.path.basename(d) for d in glob.glob("/sys/block/ramlld*"))
    for v in glob.glob("/sys/block/sd*/device/vendor"):
        if open(v).read().strip() == "RAMLLD":
            disks.append("sd")
    return disks


def klog(action):
    """klogctl(): 3 reads the kernel log, 5 clears it (no program to start a fault)."""
    buf = ctypes.create_string_buffer(1 << 20)
    n = libc.klogctl(action, buf, len(buf))
    return buf.raw[:max(n, 0)].decode(errors="replace")


def kernels_unnamed_device(log):
    """Whether the injected fault (its stack, failslab/fail_page_alloc verbose=2) was
    dev_set_name()'s: device_add_disk() ignores its -ENOMEM, so device_add() refuses the
    nameless device with -EINVAL, the kernel's error, not the module's."""
    trace = log[log.find("FAULT_INJECTION"):]
    return "dev_set_name+" in trace and "device_add" in trace, trace[:3000]


def explain_einval(fn, n, kofd, bparams, mod, kind):
    """Fail the Nth allocation of insmod again, the fault's stack printed this time (verbose 2,
    not rate-limited: a stack per insmod would halve the sweep), and say whether the EINVAL was
    the kernel's (kernels_unnamed_device). The sites shift by one or two from one load to the
    next, so the neighbours are tried until EINVAL comes back."""
    d = DEBUGFS + ("/failslab" if kind == "slab" else "/fail_page_alloc")
    wr(d + "/verbose", 2)
    wr(d + "/verbose_ratelimit_interval_ms", 0)
    try:
        for k in (n, n - 1, n + 1, n - 2, n + 2, n - 3, n + 3):
            klog(5)
            e, _ = fn.call(k, lambda: finit_fd(kofd, bparams))
            if e == 0:
                unload(mod)
            elif e == errno.EINVAL:
                return kernels_unnamed_device(klog(3))
        return False, f"EINVAL did not come back at fail-nth {n - 3}..{n + 3}"
    finally:
        wr(d + "/verbose", 0)


def name(e):
    return errno.errorcode.get(e, str(e))


def sweep_load(ko, params, kind, budget, unload_too):
    """Fail the Nth allocation of a load (or of an unload) of ko, for N spread over all of it."""
    if kind not in ("slab", "page"):
        raise Fail(f"bad KIND '{kind}' (allowed: slab page)")
    setup(kind)
    fn = FailNth()
    mod = module_of(ko)
    unload(mod)
    kofd = os.open(ko, os.O_RDONLY)
    bparams = params.encode()
    e, m = fn.count(lambda: finit_fd(kofd, bparams))
    if e:
        raise Fail(f"insmod {params} with no fault failed: {name(e)}")
    full = frontends()
    if unload_too:
        e, m = fn.count(lambda: delete(mod))
        if e:
            raise Fail(f"rmmod with no fault failed: {name(e)}")
    else:
        unload(mod)
    what = "rmmod" if unload_too else "insmod"
    print(f"{kind}: {m} fault sites in one {what} of {mod} {params} (devices: {' '.join(full)})")
    if m == 0 and unload_too and kind == "page":
        # rmmod frees; its page allocations are slab caches growing by chance (none some runs)
        print(f"{kind}: rmmod made no page allocation of its own this time: no site to fail")
        return
    if m == 0:
        raise Fail(f"no {kind} allocation was seen in {what}: fault injection does not reach it")
    stats = {}
    tried = 0
    end = time.monotonic() + budget
    for n in spread(m):
        # the budget bounds the sweep, never fails it: a slow host tries fewer sites, never below 5
        if time.monotonic() > end and tried >= 5:
            break
        tried += 1
        if unload_too:
            e = finit(ko, params)
            if e:
                raise Fail(f"insmod {params} before the rmmod failed: {name(e)}")
            e, left = fn.call(n, lambda: delete(mod))
        else:
            e, left = fn.call(n, lambda: finit_fd(kofd, bparams))
        injected = left == 0
        if not injected:
            # the sites vary a little from one run to the next (RCU, timers, lazy state)
            stats["not reached"] = stats.get("not reached", 0) + 1
        if e == 0 and not unload_too:
            stats["loaded anyway"] = stats.get("loaded anyway", 0) + 1
            unload(mod)
        elif e == 0:
            stats["unloaded"] = stats.get("unloaded", 0) + 1
        elif unload_too:
            # the module's exit cannot fail: a refused rmmod leaves it loaded and whole
            got = frontends()
            if got != full:
                raise Fail(f"fault {n}: rmmod failed ({name(e)}) and left only {got} of {full}")
            stats["rmmod refused (" + name(e) + "), module intact"] = stats.get(
                "rmmod refused (" + name(e) + "), module intact", 0) + 1
            unload(mod)
        elif e == errno.ENOMEM:
            stats["ENOMEM"] = stats.get("ENOMEM", 0) + 1
        else:
            kernels, trace = False, ""
            if e == errno.EINVAL:
                kernels, trace = explain_einval(fn, n, kofd, bparams, mod, kind)
            if not kernels:
                raise Fail(f"fault {n} of {m}: insmod failed with {name(e)}, expected ENOMEM; "
                           f"the fault:\n{trace}")
            k = "EINVAL (the kernel's: dev_set_name()'s ENOMEM ignored, device_add())"
            stats[k] = stats.get(k, 0) + 1
        left_over = leftovers(mod)
        if left_over:
            raise Fail(f"fault {n} of {m} ({what} -> {name(e) if e else 'ok'}): left behind: {left_over}")
    print(f"{kind}: tried {tried} of {m} fault sites of {what} ({', '.join(f'{k} {v}' for k, v in sorted(stats.items()))});"
          " nothing left registered after any of them")
    reset()
    e = finit(ko, params)
    if e:
        raise Fail(f"insmod {params} after the sweep failed: {name(e)}")
    got = frontends()
    if got != full:
        raise Fail(f"after the sweep, insmod gave {got}, expected {full}")
    unload(mod)
    print(f"ok: {mod} {params} loads and unloads after the sweep, with the same devices")


class Iocb(ctypes.Structure):
    """struct iocb (x86-64, little endian)."""
    _fields_ = [("data", ctypes.c_uint64), ("key", ctypes.c_uint32), ("rw_flags", ctypes.c_int32),
                ("opcode", ctypes.c_uint16), ("reqprio", ctypes.c_int16), ("fildes", ctypes.c_uint32),
                ("buf", ctypes.c_uint64), ("nbytes", ctypes.c_uint64), ("offset", ctypes.c_int64),
                ("reserved2", ctypes.c_uint64), ("flags", ctypes.c_uint32), ("resfd", ctypes.c_uint32)]


class IoEvent(ctypes.Structure):
    _fields_ = [("data", ctypes.c_uint64), ("obj", ctypes.c_uint64), ("res", ctypes.c_int64),
                ("res2", ctypes.c_int64)]


def syscall_or_raise(*args):
    r = libc.syscall(*args)
    if r < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return r


class Dev:
    """One device opened O_DIRECT, with a 64 KiB data buffer and a read-back buffer.

    Writes go through Linux AIO, not pwrite(): pwrite() on a block device plugs, sleeps with
    the request still in the plug, and the flush from schedule() hands it to kblockd, so a
    blk-mq driver (mq, sd) would allocate in a kworker, out of reach of this task's fail-nth
    and make-it-fail. io_submit() of one iocb flushes the plug before it returns: the driver's
    queue_rq/queuecommand run in this task, as the bio front end's submit_bio does."""
    CHUNK = 65536

    def __init__(self, path):
        self.path = path
        self.fd = os.open(path, os.O_RDWR | os.O_DIRECT)
        self.size = os.lseek(self.fd, 0, os.SEEK_END)
        self.buf = mmap.mmap(-1, self.CHUNK)
        self.back = mmap.mmap(-1, self.CHUNK)
        # touched now: a first read into untouched memory allocates its pages, and fail-nth
        # would count (and fail) the page faults instead of the driver's allocations
        self.buf[:] = bytes(self.CHUNK)
        self.back[:] = bytes(self.CHUNK)
        self.buf_addr = ctypes.addressof(ctypes.c_char.from_buffer(self.buf))
        self.aio = ctypes.c_ulong(0)
        syscall_or_raise(SYS_IO_SETUP, 1, ctypes.byref(self.aio))

    def close(self):
        libc.syscall(SYS_IO_DESTROY, self.aio)
        os.close(self.fd)

    def aio_write(self, off):
        cb = Iocb(opcode=IOCB_CMD_PWRITE, fildes=self.fd, buf=self.buf_addr, nbytes=self.CHUNK,
                  offset=off)
        cbp = ctypes.pointer(cb)
        syscall_or_raise(SYS_IO_SUBMIT, self.aio, 1, ctypes.byref(cbp))
        ev = IoEvent()
        while syscall_or_raise(SYS_IO_GETEVENTS, self.aio, 1, 1, ctypes.byref(ev), None) != 1:
            pass
        if ev.res < 0:
            raise OSError(-ev.res, os.strerror(-ev.res))
        self.check_len(ev.res)

    def pattern(self, seed):
        rnd = random.Random(seed)
        self.buf[:] = rnd.randbytes(self.CHUNK)

    def err(self, fn):
        try:
            fn()
            return 0
        except OSError as x:
            return x.errno

    def write(self, off):
        return self.err(lambda: self.aio_write(off))

    def read(self, off):
        return self.err(lambda: self.check_len(os.preadv(self.fd, [self.back], off)))

    def discard(self, off, length=None):
        rng = struct.pack("QQ", off, length or self.CHUNK)
        return self.err(lambda: fcntl.ioctl(self.fd, BLKDISCARD, rng))

    def check_len(self, n):
        if n != self.CHUNK:
            raise OSError(errno.EIO, f"short transfer of {n} bytes")

    def verify(self, off, what):
        e = self.read(off)
        if e:
            raise Fail(f"{self.path}: read at {off} after {what} failed: {name(e)}")
        if self.back[:] != self.buf[:]:
            raise Fail(f"{self.path}: data at {off} after {what} is not what was written")

    def zeros(self, off, what):
        e = self.read(off)
        if e:
            raise Fail(f"{self.path}: read at {off} after {what} failed: {name(e)}")
        if self.back[:] != bytes(self.CHUNK):
            raise Fail(f"{self.path}: {off} does not read as zeros after {what}")


IO_ERRORS = (errno.EIO, errno.ENOMEM, errno.ENODATA, errno.ENOSPC, errno.EAGAIN)


def sweep_io(path, kind, budget):
    """Fail the Nth allocation of one write, read and discard; then the same I/O must work."""
    if kind not in ("slab", "page"):
        raise Fail(f"bad KIND '{kind}' (allowed: slab page)")
    setup(kind)
    fn = FailNth()
    d = Dev(path)
    slots = d.size // d.CHUNK
    for op in ("write", "read", "discard"):
        d.pattern(op)
        off = 0
        d.discard(off)
        # a write to discarded pages allocates them (lazy store), as every write of the sweep does
        if op == "write":
            e, m = fn.count(lambda: d.write(off))
        elif op == "read":
            d.write(off)
            e, m = fn.count(lambda: d.read(off))
        else:
            d.write(off)
            e, m = fn.count(lambda: d.discard(off))
        if e:
            raise Fail(f"{path}: {op} with no fault failed: {name(e)}")
        print(f"{kind}: {m} fault sites in one 64 KiB direct {op} of {path}")
        if kind == "page" and op == "write" and m < d.CHUNK // mmap.PAGESIZE:
            raise Fail(f"{path}: a 64 KiB write to discarded pages passed {m} page allocations of this "
                       f"task, fewer than its {d.CHUNK // mmap.PAGESIZE} store pages: not reached")
        stats, tried, end = {}, 0, time.monotonic() + budget / 3
        for n in spread(m):
            if time.monotonic() > end:
                break
            tried += 1
            off = (tried % slots) * d.CHUNK
            d.pattern(f"{op}{n}")
            if d.discard(off):
                raise Fail(f"{path}: discard at {off} (no fault) failed")
            if op != "write" and d.write(off):
                raise Fail(f"{path}: write at {off} (no fault) failed")
            call = {"write": lambda: d.write(off), "read": lambda: d.read(off),
                    "discard": lambda: d.discard(off)}[op]
            e, left = fn.call(n, call)
            key = "ok" if e == 0 else name(e)
            if left:
                key += " (not reached)"
            stats[key] = stats.get(key, 0) + 1
            if e and e not in IO_ERRORS:
                raise Fail(f"{path}: {op} with fault {n} of {m} failed with {name(e)}, expected one of "
                           f"{', '.join(name(x) for x in IO_ERRORS)}")
            if e == 0 and op == "read" and d.back[:] != d.buf[:]:
                raise Fail(f"{path}: read with fault {n} succeeded but returned other data")
            # the failed (or not) command leaves the device usable: the same I/O again, no fault
            if op == "write":
                if d.write(off):
                    raise Fail(f"{path}: write at {off} after fault {n} failed")
                d.verify(off, f"a write with fault {n}")
            elif op == "read":
                d.verify(off, f"a read with fault {n}")
            else:
                if e and d.discard(off):
                    raise Fail(f"{path}: discard at {off} after fault {n} failed")
                d.zeros(off, f"a discard with fault {n}")
        print(f"{kind}: {op}: tried {tried} of {m} fault sites ({', '.join(f'{k} {v}' for k, v in sorted(stats.items()))});"
              " the device works after each")
    reset()


def random_io(path, percent, count):
    """Random allocation failures (probability PERCENT, this task only: task-filter, and
    make-it-fail set around each I/O call) across COUNT writes, reads and discards per KIND;
    every failure is an I/O error, and what was written (or discarded) without an error reads
    back, during and after."""
    d = Dev(path)
    slots = min(d.size // d.CHUNK, 256)
    base = memoryview(random.Random(percent).randbytes(2 * d.CHUNK))
    zero = memoryview(bytes(d.CHUNK))
    back = memoryview(d.back)
    want = {}   # offset -> what it holds: a view of base, zero, or None (undefined)
    stats = {}
    mif = os.open("/proc/self/make-it-fail", os.O_WRONLY)

    def faulty(fn):
        os.pwrite(mif, b"1", 0)
        try:
            return fn()
        finally:
            os.pwrite(mif, b"0", 0)

    for kind in ("slab", "page"):
        setup(kind, percent)
        try:
            for i in range(count):
                off = random.randrange(slots) * d.CHUNK
                op = random.choice(("write", "write", "read", "discard"))
                if op == "write":
                    k = random.randrange(d.CHUNK) & ~511
                    d.buf[:] = base[k:k + d.CHUNK]
                    e = faulty(lambda: d.write(off))
                    # a failed write leaves the range undefined
                    want[off] = None if e else base[k:k + d.CHUNK]
                elif op == "discard":
                    e = faulty(lambda: d.discard(off))
                    want[off] = None if e else zero
                else:
                    e = faulty(lambda: d.read(off))
                    if e == 0 and want.get(off) is not None and back != want[off]:
                        raise Fail(f"{path}: {kind} op {i}: read at {off} returned other data")
                if e and e not in IO_ERRORS:
                    raise Fail(f"{path}: {kind} {op} {i} failed with {name(e)}")
                k = f"{kind} {op} " + ("ok" if e == 0 else name(e))
                stats[k] = stats.get(k, 0) + 1
        finally:
            reset()
    print(f"random {percent}% failures on {path}: {', '.join(f'{k} {v}' for k, v in sorted(stats.items()))}")
    failed = sum(v for k, v in stats.items() if not k.endswith(" ok"))
    if failed == 0:
        raise Fail(f"{path}: no I/O failed in {2 * count} operations at {percent}%: the faults did not reach it")
    # the store's own page allocations (a write to a hole) must be among those reached
    if not any(k.startswith("page write ") and not k.endswith(" ok") for k in stats):
        raise Fail(f"{path}: no write failed under fail_page_alloc at {percent}%: the store's page "
                   "allocations were not reached")
    # with no fault, everything known reads back
    for off, data in want.items():
        if data is None:
            continue
        e = d.read(off)
        if e or back != data:
            raise Fail(f"{path}: after the random faults, {off} reads {'error ' + name(e) if e else 'other data'}")
    print(f"ok: {path}: {sum(1 for v in want.values() if v is not None)} ranges read back as last written"
          " once the faults stop")


def wait_sd(n):
    """The RAMLLD sd disks, once n of them have their /dev node (sd probes asynchronously)."""
    end = wait_deadline()
    while True:
        disks = []
        for v in sorted(glob.glob("/sys/block/sd*/device/vendor")):
            if open(v).read().strip() == "RAMLLD":
                disks.append(v.split("/")[3])
        if len(disks) >= n and all(os.path.exists("/dev/" + d) for d in disks):
            # target-major order: sd's names follow the scan order
            return sorted(disks, key=lambda d: os.path.realpath(f"/sys/block/{d}/device"))
        if time.time() > end:
            raise Fail(f"waited until the test's deadline for {n} RAMLLD sd disks with /dev nodes: "
                       f"{len(disks)} appeared ({' '.join(disks) or 'none'})")
        time.sleep(0.05)


def cycles(ko, n):
    """n loads of mode=all (2 stores), each with a write through bio, its read back through mq
    and sd, a discard through sd read back as zeros through bio, and an unload; nothing may be
    left registered after an unload."""
    unload()
    t0 = time.monotonic()
    for i in range(1, n + 1):
        params = f"mode=all nr_devices=2 capacity_mb=16 prealloc={i % 2} irqmode={i % 3}"
        e = finit(ko, params)
        if e:
            raise Fail(f"cycle {i}: insmod {params} failed: {name(e)}")
        sd = wait_sd(2)
        s = i % 2
        off = (i % 200) * Dev.CHUNK
        bio, mq, disk = Dev(f"/dev/ramlld{s}"), Dev(f"/dev/ramlldmq{s}"), Dev(f"/dev/{sd[s]}")
        bio.pattern(i)
        if bio.write(off):
            raise Fail(f"cycle {i}: write to ramlld{s} failed")
        for other in (mq, disk):
            other.buf[:] = bio.buf[:]
            other.verify(off, f"cycle {i}: a write through ramlld{s}")
        if disk.discard(off):
            raise Fail(f"cycle {i}: discard through {sd[s]} failed")
        bio.zeros(off, f"cycle {i}: a discard through {sd[s]}")
        for d in (bio, mq, disk):
            d.close()
        e = delete()
        if e:
            raise Fail(f"cycle {i}: rmmod failed: {name(e)}")
        left = leftovers()
        if left:
            raise Fail(f"cycle {i}: left registered after rmmod: {left}")
    t = time.monotonic() - t0
    print(f"ok: {n} cycles of insmod mode=all, I/O through the three front ends, rmmod: {t:.0f} s, "
          f"{t / n:.1f} s each; nothing left registered after any of them")


def main(argv):
    try:
        if len(argv) == 6 and argv[1] in ("load", "unload"):
            sweep_load(argv[2], argv[3], argv[4], float(argv[5]), argv[1] == "unload")
        elif len(argv) == 5 and argv[1] == "io":
            sweep_io(argv[2], argv[3], float(argv[4]))
        elif len(argv) == 4 and argv[1] == "cycles":
            cycles(argv[2], int(argv[3]))
        elif len(argv) == 5 and argv[1] == "random":
            random_io(argv[2], int(argv[3]), int(argv[4]))
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except Fail as x:
        print(f"FAIL: {x}", file=sys.stderr)
        return 1
    finally:
        try:
            reset()
        except OSError:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
