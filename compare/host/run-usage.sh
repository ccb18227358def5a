# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/host/run-usage.sh: compare/run --help, sourced by compare/run.

usage() {
	cat <<EOF
usage: $prog [--quick | --full] [options]
       $prog --bench bio|mq|scsi [--quick] [options]
       $prog --host DEV[,DEV...] [--destroy-data] [options]
       $prog --bare-metal [--yes] [--quick | --full] [options]   (runs compare/bare-metal)
       $prog --target-host H --initiator-hosts H1[,H2...] [--yes] [options]   (compare/two-host)
       $prog --kernels "SUITE..." [options]
       $prog --ledger [--ledger-rows REGEX] [--ledger-rw RW] [--ledger-stacks LIST] [--ledger-profile] [--runtime S] [--no-perf] [--kernel K | --kernels LIST]
       $prog --two-node STACKS [--two-node-args ARGS] [--out DIR]
       $prog --exact-profile [--quick | --default | a selection] [--out DIR]
       $prog --report DIR [--publish DOCS]
       $prog --ab --ab-patch FILE | --bisect GOOD BAD ...   (runs compare/ab)

Boots guests (tools/vm/run), loads ramlld (mode=all) and the in-kernel references, runs
targets x queue profiles x workloads, and writes results/<date>-<level>/: raw fio JSON,
btt/perf summaries, results.csv, results.json, report.md and PNG plots. On the exact clock the
cells are sharded over guests run side by side (-j); on the host's clock one guest runs them.

levels (--plan prints a level's cells, run count, estimated time and guest timeouts; the
measured times are in docs/benches.md; compare/levels/LEVEL-exact holds an exact level's
selection and says why):
  --quick            the exact quick level on the exact clock (the default under TCG) when no
                     --only, --targets, --profiles or --bench narrows it: the 6 core targets
                     (ramlld-bio, -mq, -sd, brd, nullb-mq, sdebug-norwlock) x 4k randread and
                     randwrite QD32 under seed-001, and the cost ladder's 4k randread QD32 on
                     ramlld's 3 paths, lio-iblock, iscsi, srp and nvme-tcp (docs/stacks.md),
                     io_uring hipri on ramlld's polled mq and sd disks (the summary's row);
                     1 vCPU (unless --cpus), one 64 MiB device a target, 1 run of 1 s a cell
                     (the spot check runs a sample again: -j below), the breakdown (blktrace, perf) on
                     ramlld's 3 paths; then the knob table (dd and QD32, 1 run of 1 s a cell) in
                     a knob guest of its own, 2 vCPUs on the same clock, into the same folder
                     (--no-knobs: none; docs/knobs.md).
                     On the host's clock (--clock host, KVM, --host) or with --wide, the whole
                     quick level: 1 s runs, 2 repeats, 2 LUNs, the core targets and the kernel
                     stacks over ramlld, short section lists, the seed workloads on ramlld only,
                     the breakdown of ramlld's paths and the stacks, the knob table (dd and
                     QD32, 1 run of 1 s a cell), every report section
  (default)          the exact default level on the exact clock, when nothing narrows it: every
                     seed section on the systems its post compared (seed 000: LIO and
                     ramlld-sd, 25 % writes over 1, 4, 10, 32 LUNs, 75 % at 10 and 32; 001:
                     the dd run on ramlld's paths and scsi_debug fake_rw=0/1; 002: the 13-size
                     sweep under the read-ahead x max_sectors_kb grid on ramlld-sd; 003: LIO,
                     ramlld-sd, SRP; 004: ramlld-sd with throw-away off and on, scsi_debug),
                     every reference on 4k randread and randwrite QD32 and randread QD1,
                     ramlld's paths' QD32 under seed-001 too, the cost ladder's 3 columns on its
                     rungs, io_uring hipri on ramlld's polled mq and sd disks, 1 vCPU, one 64 MiB device where a cell reads one (the seeds keep
                     their own), 1 run of 500 ms a cell (the ladder 1 s; every 20th again: -j), the breakdown of ramlld's 3 paths, then
                     the knob table in the 2-vCPU knob guest at the quick level's step, its
                     QD32 at 500 ms a run.
                     On the host's clock or with --wide, the whole default level: 5 s runs
                     (+1 s ramp), 3 repeats, 4 LUNs of 128 MiB, every target, every section;
                     each seed on the systems its post compared, the references on lat-qd1 and
                     qd32, every target's breakdown, the knob table (dd and QD32, 2 runs of 2 s
                     a cell)
  --full             20 s runs (+2 s ramp), 5 repeats, every workload on every target (on the
                     exact clock longer than a run may take: refused, see --plan)
  --wide             on the exact clock: the whole quick or default level, not the exact one
  --plan             print what the run would make (the guest-run arguments, one line a cell,
                     repeats, devices, breakdown targets, knob table; knob-guest lines for a
                     knob guest; on the exact clock its shards, spot-check cells and "wall N
                     (M min of wall time: G guests, J at a time on C CPUs ...)"), its estimate
                     from measured per-cell costs (compare/estimate.py: "estimate S" in seconds
                     of one host CPU) and each guest's timeout (4 x its estimate, more on a
                     host loaded at the start), and stop: nothing built, fetched or booted (no
                     KVM probe: without --clock it plans TCG's exact clock; a kernel not yet
                     fetched leaves the targets' needs undecided, and says so). A plan
                     estimated over 48 h is refused.
fan-out (the exact clock, but for --bench, --interleave and --perf-cell, which run one guest):
  -j, --jobs N       guests at once (default: this host's CPUs, $(nproc)): the cells are cut
                     into N to 2 x N shards of whole targets (compare/estimate.py packs them
                     by their measured costs, longest first, and takes the count whose guests
                     end first), each a guest (--cpus) writing
                     OUT/shards/K, run by GNU parallel with the spot check and the knob guest,
                     then merged into OUT as one guest writes it (the report reads it as such).
                     Progress every 30 s on the host's clock: runs done, guests done, ETA
  --spot-every N     the spot check: every Nth cell of the plan (the first included; default
                     10, at the exact default level 20; 0: none) run again in a guest of its
                     own, as that cell's second run (r2), which the report's Determinism
                     section holds against the first (0.5 %) and flags when they differ. Only
                     when cells run once (--repeats 1, the exact levels' own)
  --sshloginfile FILE  GNU parallel's: the guests on these hosts (one "[N/]host" a line, ":"
                     this one), each with this tree and the results folder at the same paths
                     (a shared file system) and the same QEMU and guest kernel, so that the
                     counts are the same; not tested here
selection:
  --only LIST        workloads or workload/section (compare/guest-run --list), comma list
  --targets LIST     comma list of targets (see --list)
  --profiles LIST    comma list of compare/profiles/* (default: each workload's own list)
  --also-cells TARGETS:PROFILES:ONLY  also these cells, each part a comma list as above
                     (compare/guest-run --help); given again, another group of cells
  --level-shape NxMIB  the level's devices for the workloads without a "; shape:" of their
                     own (the seeds keep theirs; --nluns/--capacity-mb set every workload's)
  --breakdown-targets LIST  the targets that get the breakdown (each among the selected)
  --repeats N --runtime S|NNNms --ramp S --nluns N --capacity-mb N --depth N --no-breakdown
  --perf, --no-perf  the perf profile in the breakdown (default on; reported over the I/O
                     phase of its fio run only; bounded by a timeout)
  --perf-cell W/S [--perf-passes N]  section S of a one-run workload (seed-002/bs-1m) again
                     after each cell's last run, N times (default 8) under perf record: each
                     function's instructions per MiB and per request (seed 002's section)
  --all-sections     quick runtime, every section on every target
  --knobs, --no-knobs  the knob table (docs/knobs.md): on for a whole level, off
                     when --only, --targets or --profiles narrow the run; at the exact quick
                     level in the knob guest (2 vCPUs), never in the matrix's guest
  --interleave       run the repeats in rounds, every target once a round (A B A B ...): host
                     drift then hits every target alike; the benches always do
benches (4k randread/randwrite, iodepth 32, one job per CPU; docs/benches.md; on the exact
clock each target runs twice and a goal is met when the ratio is at or above it, both runs
within 0.5 %; on host time 5 repeats interleaved across targets, and a goal is met when the
95 % lower bound of the mean per-round ratio is at or above it):
  --bench bio        ramlld-bio vs brd
  --bench mq         ramlld-mq vs null_blk mq memory_backed=1 and =0, throw_away_reads/writes=1,
                     and the bio/mq ratio on the same store
  --bench scsi       seed-001 tuning on all: ramlld-sd vs scsi_debug delay=0 no_rwlock=1,
                     throw_away_reads/writes=1 vs fake_rw=1, and the bio/scsi ratio
                     --targets, --only, --profiles narrow a bench: e.g. --bench mq --targets
                     ramlld-mq-tar,nullb-mq-nodata --only qd32/randread-4k-qd32 --repeats 30
clock (docs/clock.md):
  --clock icount|host  icount (the default under TCG): the guest's clock counts instructions
                     (1 ns each), so IOPS are exact instruction counts: one run decides, and a
                     cell's two runs (--repeats 2, or the spot check's) must agree within 0.5 %
                     (the report flags a cell that does not), and a bench decides from one exact run per target (twice, for that
                     check) instead of rounds. host: the host's time (the default under KVM
                     and with --host), with spreads and the benches' interleaved rounds
  --icount-shift N   with --clock icount: 2^N ns per instruction (tools/vm/run; default 0): the
                     SMP time-slice experiment of docs/clock.md
the per-core ledger (docs/ledger.md):
  --ledger           instead of the matrix: one guest on the exact clock (1 vCPU; with --cpus N,
                     N vCPUs and N fio jobs a row, one a CPU: compare/ledger-guest --help) runs
                     compare/ledger-guest: ramlld bio, mq and sd, null_blk (memory_backed 1/0,
                     poll_queues 1/0), brd and scsi_debug poll_queues=1, each engine feature
                     (libaio, io_uring, fixedbufs, registerfiles, sqthread_poll, hipri) and each
                     module feature (poll_queues, queue_rqs, complete_batch, throw-away) toggled
                     alone, 1 s counted per row (--runtime S) and a perf profile per row split into
                     stages (--no-perf: none); OUT/ledger.md (compare/ledger.py). With --kernels:
                     one guest per kernel, then OUT/ledger-kernels.md, the rows side by side
  --ledger-rows REGEX  only the ledger rows whose id matches (e.g. 'ramlld-mq/')
  --ledger-rw RW     every ledger row reads (randread, the default) or writes (randwrite)
  --ledger-stacks LIST  also the storage stacks' rows (comma list of
                     $("$here/ledger-guest" --list-stacks 2> /dev/null | tr ' ' ','), or all): each
                     tools/stack STACK over ramlld's mq disk, rows STACK/io_uring and
                     STACK/io_uring-qd1; on the 1-vCPU exact clock each counts initiator, target
                     and transport together (compare/ledger-guest --help)
  --ledger-profile   after the ledger's guest, where the ladder has ramlld's mq or sd disk
                     (io_uring, io_uring-qd1), sg (ramlld-sg/sg-qd1, sg-qd16) or an NVMe
                     stack's generic device (nvme-tcp-ng, nvme-loop-ng: io_uring_cmd, -qd1)
                     measured beside its twin's row (bio's, mq's, sd's, the stack's block
                     device's), each row of each pair profiled by tools/iprofile's plugin
                     (QEMU 7.2, 1 vCPU, exact clock, a 1 s window; a boot a row, about a minute
                     of host CPU each) into OUT/iprofile/ID; the ladder in ledger.md then shows
                     each pair's difference per I/O per layer and the functions that moved most,
                     and each profiled row's stages are the plugin's counts, not perf's samples
two nodes (docs/stacks.md, "Two nodes"):
  --two-node STACKS  the cost ladder's two-node column: for each stack (a comma list of those
                     compare/two-node --list-stacks prints), the stack's target and initiator in
                     two 1-vCPU guests on the exact clock (icount sleep=on), compare/two-node
                     --runs 2 (each side's instructions per I/O and its spread over the runs)
                     and its perf pass (each side's split by layer and function), into
                     OUT/two-node/STACK; the report's "Cost ladder" gets the column. Alone (no
                     level, selection or bench): only these, into results/<date>-two-node; with
                     a level (--quick, --default, --full) or a selection: after its guests, into
                     the same folder. Two TCG guests at a time, the stacks one after the other
                     seed-002 among them: seed 002's grid (read-ahead x max_sectors_kb, 1 MiB and
                     16 KiB buffered reads) over the two-node iSCSI, 2 vCPUs a side
                     (compare/two-node --job seed-002 --cpus 2), into OUT/two-node/seed-002;
                     seed 002's section reads it
  --two-node-args ARGS  more compare/two-node options for each stack (e.g. "--runs 3
                     --runtime 20"; compare/two-node --help)
the exact profile (docs/profile.md; an option of its own, in no level: its profiled guests
take more host CPU than a level's step may, docs/profile.md's "Cost"; --plan counts it):
  --exact-profile    after the level's guests (alone: only this, into
                     results/<date>-exact-profile), with the profiling
                     plugin (tools/iprofile) and its cache model (--cache default: L1d 32 KiB
                     8-way, L2 1 MiB 16-way, 64 B lines, per CPU): each ramlld path's (bio, mq,
                     sd) 4k randread QD32 cell, a 1 s window, QEMU 7.2, 1 vCPU, into
                     OUT/iprofile/PATH (the report's "Cache misses per path"; one-core-peak's
                     queue settings, percore.fio's batches), then each again as the ladder's
                     rows run (default profile: mq-deadline on mq and sd; qd32.fio's job) into
                     OUT/iprofile/default/PATH (the ladder's increments); beside them
                     (-j 1: after them) the per-CPU
                     profile of rq_affinity 0, 1, 2 on ramlld's mq and sd disks, completions on
                     CPU 0 and fio on CPU 1, windows of 0.2 and 0.4 s, QEMU 10, 2 vCPUs, into
                     OUT/percpu (the knob section's per-CPU and cache tables, seed 001's verdict
                     by the per-CPU model). --plan prints its "exact-profile" lines and counts it
                     ("estimate-profile S"). A failed part is in the report's notes and fails the
                     run (exit 1 when a setting disagrees with the driver's counters)
the A/B of two kernels built from sources (docs/ab.md):
  --ab, --ab-patch FILE, --bisect GOOD BAD  compare/ab with these arguments (--ab itself
                     dropped): a change's instructions per I/O on each path, and its bisect
where:
  --bare-metal       on this machine's running kernel, as root: loads ramlld and the references
                     itself, the level on the host's clock in interleaved rounds, hardware
                     counters per I/O, unloads and restores after (compare/bare-metal --help;
                     without --yes or RAMLLD_YES=1 it prints what it would load and exits 2)
  --target-host H --initiator-hosts H1[,H2...]  two or more real hosts over ssh: ramlld's bio
                     disk exported by LIO iSCSI on H, a login and fio --server on each H1...,
                     fio --client from here, each host's instructions and cycles per I/O from
                     its own perf stat -a, every host torn down after (--target-host --help;
                     without --yes or RAMLLD_YES=1 it prints what it would do and exits 2)
  --host DEV,...     run on this machine, on these devices only (nothing is loaded); a device
                     holding a partition table or a file system signature is refused unless
                     --destroy-data; a mounted or held device is always refused
  --cpus N --mem SIZE --kernel K   guest shape (default 2 CPUs, 3G, bookworm); the module is
                     built for K (make module KERNEL=K: build/kernels/<version>/ramlld.ko)
  --kernels LIST     the same matrix on each kernel (space or comma list: bullseye bookworm
                     trixie sid), one guest per kernel, results in OUT/<kernel>/, then one table
                     of the block-vs-SCSI ratios per kernel (compare/kernels.py): OUT/kernels.md.
                     Without --only/--targets/--profiles: ramlld bio, mq and scsi; 4k randread
                     QD32, 4k randread QD1, 4k seq read QD4 (seed-004); profile default; 3
                     repeats of 2 s unless --repeats/--runtime say otherwise
  --out DIR          results folder (default results/<date>-<level>)
  --no-build         use drivers/ramlld.ko as it is
  --report DIR       only (re)write the report of an earlier run (report.md, report.html)
  --publish DOCS     with --report: also write DOCS/results.md and its plots DOCS/results/
                     (the project's docs/results.md: --report DIR --publish docs/)
  --list             targets, profiles, workloads
  -h, --help         this text

From make: make compare QUICK=1, make compare ARGS="--only seed-004 --targets ramlld-mq,brd",
make compare KERNELS="bullseye bookworm trixie sid".
Before anything runs: the options are checked as a whole (a pair that cannot mean anything
together is refused), targets whose "# needs:" the guest's kernel does not meet are skipped
with the reason (docs/usage.md, "Adding a target"), a failed make module or a module built for
another kernel stops the run, and so does a ramlld.ko that does not load in the guest.

Exit status: 0 (also when every selected target is skipped on this kernel); 2 when it refuses
to start (a bad argument, a plan over 48 h); 1 when the build fails or the module is not the
guest kernel's (nothing booted); 3 when ramlld does not load in the guest (nothing measured);
tools/vm/run's status (124 timeout, 125 a kernel report or a guest that died) when the guest
ended before guest-run did, or the knob guest's (1 when compare/knobs.py failed in it) when the
matrix's guest did not, or the exact profile's (1 when a setting disagrees with the driver's
counters, a profiled guest's own otherwise) when a part of it failed: the report of what they
wrote is made first, and its Notes say where it was cut.
EOF
}
