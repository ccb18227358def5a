#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/iprofile/guest-cell's --profile (compare/profiles/P, default one-core-peak): --help says it; a bad name fails with exit 2 naming the allowed profiles, in guest-cell's --check and in tools/iprofile/run before any boot (tools/vm faked: no call, no DIR made); a good one reaches the guest's command line; the exact profile's step (compare/host/run-profile.sh, tools/iprofile faked) profiles bio, mq and sd again as the ladder's rows run (--profile default --workload qd32; a bad --workload exit 2) into OUT/iprofile/default/T, the plan says so and counts their cells
# where: host
# requires: python3
# timeout: 60
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

gc=$TOP/tools/iprofile/guest-cell
run_rc 0 "$gc" --help
expect_in "guest-cell --help" "--profile P     the disk's queue settings: compare/profiles/P (default: one-core-peak,"
allowed=$(cd "$TOP/compare/profiles" && echo *)
for bad in nope ../profiles/default ''; do
	run_rc 2 "$gc" --check --out "$RESULTS/x" --target ramlld-mq --profile "$bad"
	expect_eq "guest-cell --profile '$bad'" "tools/iprofile/guest-cell: --profile: bad value '$bad' (allowed: $allowed)" "$out"
done
run_rc 2 "$gc" --check --out "$RESULTS/x" --target ramlld-mq --workload qd1
expect_eq "guest-cell --workload qd1" "tools/iprofile/guest-cell: --workload: bad value 'qd1' (allowed: percore qd32)" "$out"
run_rc 0 "$gc" --help
expect_in "guest-cell --help" "--workload W    the job's [global]: percore (default"
for p in default one-core-peak mq-deadline; do
	run_rc 0 "$gc" --check --out "$RESULTS/x" --target ramlld-mq --profile "$p"
done
[ ! -e "$RESULTS/x" ] || fail "guest-cell --check made its --out folder"

# tools/iprofile/run with tools/vm faked: the check before the boot, the option on the guest's line
fake=$RESULTS/top
rm -rf "$fake"
mkdir -p "$fake/tools/iprofile" "$fake/tools/vm" "$fake/compare" "$RESULTS/cache/iprofile"
cp "$TOP/tools/iprofile/run" "$TOP/tools/iprofile/guest-cell" "$fake/tools/iprofile/"
cp -r "$TOP/compare/profiles" "$fake/compare/"
printf 'fake image\n' > "$fake/image"
cat > "$fake/tools/vm/kernel" << EOF
#!/bin/bash
case \$1 in --print-version) echo 6.1.0-57-amd64 ;; --print-image) echo "$fake/image" ;; esac
EOF
printf '#!/bin/bash\necho "vm-run $*" >> %q\n' "$RESULTS/calls" > "$fake/tools/vm/run"
chmod +x "$fake/tools/vm/"*
echo 0xffffffff81000000 > "$RESULTS/cache/iprofile/marker-6.1.0-57-amd64-$(sha256sum < "$fake/image" | cut -c1-12)"
export RAMLLD_CACHE=$RESULTS/cache
rm -f "$RESULTS/calls"
run_rc 2 "$fake/tools/iprofile/run" --out "$RESULTS/cell" --no-plugin -- --target ramlld-mq --profile mq-deadlin
expect_eq "tools/iprofile/run, a bad --profile" "tools/iprofile/guest-cell: --profile: bad value 'mq-deadlin' (allowed: $allowed)" "$out"
[ ! -e "$RESULTS/calls" ] || fail "a guest booted for a bad --profile: $(cat "$RESULTS/calls")"
[ ! -e "$RESULTS/cell" ] || fail "tools/iprofile/run made its --out folder for a bad --profile"
run_rc 0 "$fake/tools/iprofile/run" --out "$RESULTS/cell" --no-plugin -- --target ramlld-mq --profile default --workload qd32
line=$(cat "$RESULTS/calls")
case $line in
*" -- $fake/tools/iprofile/guest-cell --out $RESULTS/cell --target ramlld-mq --profile default --workload qd32") echo "ok: the guest runs guest-cell --profile default --workload qd32" ;;
*) fail "the guest's command line lacks --profile default: $line" ;;
esac

# the exact profile's step: the default profile's cells after the paths', into iprofile/default/T
export RAMLLD_HOST_LOAD=0
run_rc 0 "$TOP/compare/run" --exact-profile --plan
expect_in "--plan" "exact-profile default-paths ramlld-bio,ramlld-mq,ramlld-sd"
# 6 cells of R = 1 (80 + 60 s each), a boot (60) and 6 settings of 3 x 0.2 s (35 + 50 x 0.6 each)
expect_eq "--plan: the step's estimate (s)" 1290 "$(sed -n 's/^estimate-profile //p' <<< "$out")"
sf=$RESULTS/stepfake
mkdir -p "$sf/tools/iprofile"
# shellcheck disable=SC2016 # expanded by the fake
printf '#!/bin/bash\necho "run $*" >> %q\nmkdir -p "$2"\n' "$RESULTS/steps" > "$sf/tools/iprofile/run"
printf '#!/bin/bash\necho "table $*" >> %q\n' "$RESULTS/steps" > "$sf/tools/iprofile/table"
printf '#!/bin/bash\necho "percpu $*" >> %q\n' "$RESULTS/steps" > "$sf/tools/iprofile/percpu"
chmod +x "$sf/tools/iprofile/"*
o=$RESULTS/step
rm -f "$RESULTS/steps"
(
	top=$sf out=$o ko=/k/ramlld.ko prog=compare/run
	mkdir -p "$out"
	# shellcheck source=compare/host/run-profile.sh
	. "$TOP/compare/host/run-profile.sh"
	run_exact_profile 2> /dev/null
	[ "$profile_rc" = 0 ] || fail "the step's status: $profile_rc"
)
expect_eq "the default profile's cells (after the paths')" "run --out $o/iprofile/default/ramlld-bio -- --target ramlld-bio --runtime 1 --profile default --workload qd32 --ko /k/ramlld.ko
table $o/iprofile/default/ramlld-bio --top 40 --json $o/iprofile/default/ramlld-bio/table.json
run --out $o/iprofile/default/ramlld-mq -- --target ramlld-mq --runtime 1 --profile default --workload qd32 --ko /k/ramlld.ko
table $o/iprofile/default/ramlld-mq --top 40 --json $o/iprofile/default/ramlld-mq/table.json
run --out $o/iprofile/default/ramlld-sd -- --target ramlld-sd --runtime 1 --profile default --workload qd32 --ko /k/ramlld.ko
table $o/iprofile/default/ramlld-sd --top 40 --json $o/iprofile/default/ramlld-sd/table.json" \
	"$(grep "/iprofile/default/" "$RESULTS/steps")"
expect_eq "the paths' cells first, the per-CPU boot last" "run --out $o/iprofile/ramlld-bio --cache default -- --target ramlld-bio --runtime 1 --ko /k/ramlld.ko" \
	"$(head -1 "$RESULTS/steps")"
