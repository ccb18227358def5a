#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: make compare runs tools/deps first; in a copy of the tree with a syntax error in drivers/ and an older drivers/ramlld.ko beside it, compare/run stops at the build, saying so, before any guest boots (never going on with the older module); with --no-build a module that is not built for the guest's kernel stops it too
# where: host
# requires: make gcc python3
# timeout: 900
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

# make compare: tools/deps before compare/run
recipe=$(make -s -n -C "$TOP" compare QUICK=1)
expect_eq "make compare's first step" "$TOP/tools/deps" "$(head -n 1 <<< "$recipe")"
if [[ $(sed -n 2p <<< "$recipe") != "$TOP/compare/run "* ]] || ! grep -q -- "--quick" <<< "$recipe"; then
	fail "make compare's second step: $recipe"
fi

# shellcheck disable=SC2016 # make's $(KDIR), not the shell's
kdir=$(make -s -C "$TOP" -f - print-kdir <<< 'include Makefile
print-kdir: ; @echo $(KDIR)' 2> /dev/null) || true
if [ -z "$kdir" ] || [ ! -d "$kdir" ]; then
	skip "no kernel build tree to build the module against (tools/deps, tools/vm/kernel fetch)"
fi

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
tree=$dir/tree
mkdir "$tree"
git -C "$TOP" ls-files -z | (cd "$TOP" && xargs -0 cp --parents -t "$tree")
echo 'this is not C;' >> "$tree/drivers/main.c"
echo "an older module" > "$tree/drivers/ramlld.ko"
# shellcheck disable=SC2054 # a comma list is one argument
args=(--quick --targets ramlld-bio,brd --only qd32/randread-4k-qd32 --no-knobs --no-breakdown --out "$dir/out")
t0=$(date +%s)
rc=0
"$tree/compare/run" "${args[@]}" > "$dir/run.log" 2>&1 || rc=$?
t1=$(date +%s)
cat "$dir/run.log"
expect_eq "compare/run's status with a broken build" 1 "$rc"
grep -q "^compare/run: make module failed (status [0-9]*, $dir/out/build.log): stopping; a run never goes on with an older drivers/ramlld.ko$" \
	"$dir/run.log" || fail "compare/run does not say that the build failed and that it stops"
grep -q "main.c.*error" "$dir/out/build.log" || fail "the build log lacks the compiler's error: $(tail -n 5 "$dir/out/build.log")"
grep -q "tools/vm/run: kernel" "$dir/run.log" && fail "a guest booted after the failed build"
[ ! -e "$dir/out/run.log" ] || fail "the matrix ran after the failed build"
echo "ok: a broken build stopped the run in $((t1 - t0)) s of wall time (host time, for the record), no guest booted"

# --no-build with a module that is not the guest kernel's: stopped before booting
rc=0
"$tree/compare/run" "${args[@]/#$dir\/out/$dir/out2}" --no-build > "$dir/run2.log" 2>&1 || rc=$?
cat "$dir/run2.log"
expect_eq "compare/run's status with a module of no kernel" 1 "$rc"
grep -q "^compare/run: drivers/ramlld.ko is built for an unknown kernel, the guest runs $("$TOP/tools/vm/kernel" --print-version): make module$" \
	"$dir/run2.log" || fail "compare/run --no-build does not name the module's kernel and the guest's"
grep -q "tools/vm/run: kernel" "$dir/run2.log" && fail "a guest booted with a module of no kernel"
echo "ok: a module built for another kernel stops the run before the guest boots"
