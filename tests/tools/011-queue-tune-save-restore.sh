#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: queue-tune --save, change every attribute, --restore gives back exactly the saved values; restore refuses another device's file
# where: guest
# requires: python3
# timeout: 1800
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/tools/tools-lib.bash
. "$TOP/tests/tools/tools-lib.bash"

stand_in_disks
ramlld_disks
devs="$RAM $NULLB $SD $RAMLLD_DISKS"
saved=/tmp/qt-saved.json

# shellcheck disable=SC2086 # devs is a list
{
	# start from non-default values so that a restore to the defaults would be caught
	run_rc 0 "$QT" $NULLB $SD --scheduler mq-deadline --nr-requests 48 --read-ahead-kb 256
	run_rc 0 "$QT" $devs --save $saved
	expect_in "--save" "saved"
	"$QT" $devs --json > /tmp/qt-before.json
	# change everything that can change
	run_rc 0 "$QT" $devs --profile seed-001 --nomerges 2 --iostats 0 --max-sectors-kb 32 --read-ahead-kb 4096
	echo "$out"
	"$QT" $devs --json > /tmp/qt-changed.json
	run_rc 0 "$QT" --restore $saved
	echo "$out"
	"$QT" $devs --json > /tmp/qt-after.json
}
python3 - $saved /tmp/qt-changed.json /tmp/qt-after.json <<'PY' || fail "--restore did not give back the saved values"
import json, sys
saved, changed, after = (json.load(open(f))["devices"] for f in sys.argv[1:4])
for s, c, a in zip(saved, changed, after):
    assert s["name"] == c["name"] == a["name"]
    assert s["attrs"] != c["attrs"], f"{s['name']}: nothing changed between save and restore"
    assert s["attrs"] == a["attrs"], f"{s['name']}: after --restore {a['attrs']}, saved {s['attrs']}"
    print(f"ok: {s['name']} after --restore = saved {s['attrs']} (changed in between: "
          f"{ {k: v for k, v in c['attrs'].items() if s['attrs'].get(k) != v} })")
PY
cmp /tmp/qt-before.json /tmp/qt-after.json || fail "--show --json differs before the change and after --restore"
echo "ok: --show --json identical before the change and after --restore"

# restoring one device out of the file, and refusing a device the file does not hold
run_rc 0 "$QT" "$NULLB" --nomerges 1
run_rc 0 "$QT" "$NULLB" --restore $saved
expect_eq "$NULLB nomerges restored alone" 0 "$(cat /sys/block/"$NULLB"/queue/nomerges)"
"$QT" "$NULLB" --save /tmp/qt-nullb.json > /dev/null 2>&1
run_rc 2 "$QT" "$SD" --restore /tmp/qt-nullb.json
expect_in "restore onto another device" "refusing to restore another device's values"
run_rc 2 "$QT" "$SD" --restore /tmp/qt-nullb.json --nomerges 1
expect_in "restore with settings" "cannot be combined"
echo '{"not": "ours"}' > /tmp/qt-bad.json
run_rc 2 "$QT" --restore /tmp/qt-bad.json
expect_in "a foreign JSON file" "not a queue-tune --save file"

# profile default: the values queue-tune recorded the first time it saw each disk (above,
# before anything was changed: scheduler back to the kernel's choice, nr_requests to its depth)
# shellcheck disable=SC2086
run_rc 0 "$QT" $devs --profile default
echo "$out"
for dev in $NULLB $SD; do
	rec=$(cat "$QUEUE_TUNE_STATE_DIR/${dev}"_*.json)
	expect_eq "$dev nomerges after --profile default" 0 "$(cat /sys/block/"$dev"/queue/nomerges)"
	sched=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["attrs"]["scheduler"])' "$rec")
	grep -q "\[$sched\]" /sys/block/"$dev"/queue/scheduler || fail "$dev: scheduler is not the recorded $sched"
	echo "ok: $dev scheduler back to the recorded $sched"
done
unload_all
