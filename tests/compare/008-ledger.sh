#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/ledger.py's numbers (instructions per I/O, the row each toggles from, its delta, the stage split from perf, absent rows, cheapest per target) and compare/run --ledger's refusals
# where: host
# requires: python3
. "$TOP/tests/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/perf"
printf 'kernel=6.1.0-test\ncpus=1\nclock=icount\nqemu=10.0\nperf=1\n' > "$dir/meta.env"
{
	printf 'id\ttarget\tdisk\tmodule\tengine\tfeature\tiops\tstatus\tnote\n'
	printf 'ramlld-mq/libaio\tramlld-mq\tramlldmq0\tbase\tlibaio\tlibaio\t100000\tok\t\n'
	printf 'ramlld-mq/io_uring\tramlld-mq\tramlldmq0\tbase\tio_uring\tio_uring\t125000\tok\t\n'
	printf 'ramlld-mq/hipri-all\tramlld-mq\tramlldmq0\tbase\thipri-all\thipri-all\t200000\tok\t\n'
	printf 'ramlld-mq/io_uring-qd1\tramlld-mq\tramlldmq0\tbase\tio_uring-qd1\tio_uring-qd1\t50000\tok\t\n'
	printf 'ramlld-mq/hipri-all/queue_rqs=0\tramlld-mq\tramlldmq0\tqueue_rqs=0\thipri-all\tqueue_rqs=0\t160000\tok\t\n'
	printf 'ramlld-sd/hipri-all/poll_queues=1\tramlld-sd\tsd\tbase\thipri-all\tpoll_queues=1\t\tabsent\tkernel 5.10: no mq_poll\n'
} > "$dir/ledger.tsv"
# io_uring: 8,000 instructions per I/O, 20 % idle samples left out: user 25 %, io_uring 25 %,
# driver (ramlld_ and memcpy) 25 %, completion 12.5 %, submission 12.5 % of the busy ones
cat > "$dir/perf/ramlld-mq_io_uring.txt" << 'END'
# Overhead  Symbol
    20.00%  [.] td_io_queue
    20.00%  [k] io_submit_sqes
    20.00%  [k] native_safe_halt
    10.00%  [k] ramlld_mq_queue_rq
    10.00%  [k] memcpy_orig
    10.00%  [k] blk_mq_end_request_batch
    10.00%  [k] submit_bio_noacct
END
# hipri-all: 5,000 per I/O: user 50 %, driver 50 %
cat > "$dir/perf/ramlld-mq_hipri-all.txt" << 'END'
    50.00%  [.] td_io_queue
    50.00%  [k] ramlld_mq_poll
END
python3 "$TOP/compare/ledger.py" "$dir" > "$dir/out.md" || fail "ledger.py failed: $(cat "$dir/out.md")"
python3 - "$dir/ledger.json" << 'END' || fail "ledger.py's figures are wrong"
import json, sys
res = json.load(open(sys.argv[1]))
r = {x["id"]: x for x in res["rows"]}
bad = []
def want(what, got, exp):
    ok = got is not None and abs(got - exp) < 0.01
    print(("ok: " if ok else "WRONG: ") + f"{what} = {got} (expected {exp})")
    bad.append(not ok)
want("libaio instr/IO", r["ramlld-mq/libaio"]["instr_per_io"], 10000)
want("io_uring instr/IO", r["ramlld-mq/io_uring"]["instr_per_io"], 8000)
want("io_uring delta over libaio", r["ramlld-mq/io_uring"]["delta"], -2000)
want("hipri-all delta % over io_uring", r["ramlld-mq/hipri-all"]["delta_pct"], -37.5)
want("queue_rqs=0 delta over hipri-all", r["ramlld-mq/hipri-all/queue_rqs=0"]["delta"], 1250)
want("io_uring-qd1 (depth 1) delta over io_uring (depth 32)", r["ramlld-mq/io_uring-qd1"]["delta"], 12000)
bad.append(r["ramlld-mq/io_uring-qd1"]["base"] != "ramlld-mq/io_uring")
st = r["ramlld-mq/io_uring"]["stages"]
want("io_uring stage fio (user)", st["fio (user)"], 2000)
want("io_uring stage io_uring/aio+syscall", st["io_uring/aio+syscall"], 2000)
want("io_uring stage driver", st["driver"], 2000)
want("io_uring stage completion", st["completion"], 1000)
want("io_uring stage submission", st["submission"], 1000)
d = r["ramlld-mq/hipri-all"]["stage_delta"]
want("hipri-all driver delta", d["driver"], 500)
want("hipri-all io_uring delta", d["io_uring/aio+syscall"], -2000)
a = r["ramlld-sd/hipri-all/poll_queues=1"]
print(f"absent row: {a['status']}: {a['note']}, base {a['base']}")
bad.append(a["status"] != "absent" or a["instr_per_io"] is not None)
want("cheapest ramlld-mq", res["cheapest"]["ramlld-mq"]["instr_per_io"], 5000)
bad.append(res["cheapest"]["ramlld-mq"]["id"] != "ramlld-mq/hipri-all")
sys.exit(any(bad))
END
grep -qF "**absent**: kernel 5.10: no mq_poll" "$dir/ledger.md" || fail "ledger.md does not show the absent row with its reason"
echo "ok: ledger.md shows the absent row with its reason"

# check_refused WANT CMD...: CMD must exit 2 and print WANT
check_refused() {
	local want=$1
	shift
	run_rc 2 "$@"
	grep -qF -- "$want" <<< "$out" || fail "$*: message lacks '$want': $out"
	echo "ok: refused: $out"
}
check_refused "does not go with --bench" "$TOP/compare/run" --ledger --bench mq --out "$dir/x"
check_refused "'--repeats' does not apply" "$TOP/compare/run" --ledger --repeats 3 --out "$dir/x"
check_refused "has no ledger.tsv" python3 "$TOP/compare/ledger.py" "$dir/perf"
check_refused "bad value '0'" "$TOP/compare/ledger-guest" --out "$dir/x" --runtime 0
check_refused "--ledger-rw: bad value 'write'" "$TOP/compare/run" --ledger --ledger-rw write --out "$dir/x"
check_refused "--ledger-rw RW goes with --ledger" "$TOP/compare/run" --ledger-rw randwrite --out "$dir/x"
check_refused "--rw: bad value 'rw'" "$TOP/compare/ledger-guest" --out "$dir/x" --rw rw
check_refused "--cpus: bad value 'two'" "$TOP/compare/run" --ledger --cpus two --out "$dir/x"
[ ! -e "$dir/x" ] || fail "a refused run left $dir/x behind"
echo "ok: nothing left behind by the refusals"
printf 'rw=randwrite\n' >> "$dir/meta.env"
python3 "$TOP/compare/ledger.py" "$dir" > /dev/null || fail "ledger.py failed on a randwrite ledger"
grep -qF "(4k random writes," "$dir/ledger.md" || fail "ledger.md of a randwrite ledger does not say writes"
echo "ok: a randwrite ledger says writes"
sed -i 's/^cpus=1$/cpus=2/' "$dir/meta.env"
python3 "$TOP/compare/ledger.py" "$dir" > /dev/null || fail "ledger.py failed on a 2-vCPU ledger"
grep -qF "(4k random writes, 2 jobs, one pinned to each vCPU, IOPS summed," "$dir/ledger.md" ||
	fail "a 2-vCPU ledger does not say its jobs: $(grep -F 'Workload:' "$dir/ledger.md")"
grep -qF "the whole path on all 2 vCPUs" "$dir/ledger.md" || fail "a 2-vCPU ledger does not say what it counts"
echo "ok: a 2-vCPU ledger says its jobs and what it counts"
