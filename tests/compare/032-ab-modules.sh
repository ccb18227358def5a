#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/ab --kernel (modules rebuilt against a kernel's headers, no kernel build) on a fake kernel, source and measurement: the patched module put in a copy of the kernel, a folder's own header rebuilding its modules, the cache, the bisect over a git history of the module's folder, and the refusals
# where: host
# requires: python3 git patch gcc strings depmod strip
. "$TOP/tests/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export RAMLLD_CACHE=$dir/cache
ver=6.1.0-99-fake
# The kernel: a folder as tools/vm/kernel takes one (boot/vmlinuz-*, lib/modules/<version>/), its
# Debian changelog, and a build tree whose make builds M=DIR NAME.ko from DIR/main.c with gcc (a
# real object: strip and depmod take it). The module's cost is in its strings: "cost TARGET
# WORKLOAD N", which the fake measurement reads from the modules of the kernel it is given.
k=$dir/kernel
mkdir -p "$k/boot" "$k/lib/modules/$ver/build" "$k/lib/modules/$ver/kernel/drivers/block/fakeb" \
	"$k/usr/share/doc/linux-image-$ver"
: > "$k/boot/vmlinuz-$ver"
echo 'linux (6.1.192-3) bookworm; urgency=medium' | gzip > "$k/usr/share/doc/linux-image-$ver/changelog.Debian.gz"
cat > "$k/lib/modules/$ver/build/Makefile" << 'END'
%.ko:
	gcc -I$(M) -c -x c $(M)/main.c -o $(M)/$@
END
# the module source: a kernel tree of that version with one module folder (main.c, its header)
src=$dir/src
mkdir -p "$src/drivers/block/fakeb" "$src/include/linux"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\n' > "$src/Makefile"
cat > "$src/drivers/block/fakeb/Makefile" << 'END'
obj-$(CONFIG_FAKEB) += fakeb.o
fakeb-objs := main.o
END
echo '#define NULLB "10575"' > "$src/drivers/block/fakeb/fakeb.h"
cat > "$src/drivers/block/fakeb/main.c" << 'END'
#include "fakeb.h"
const char cost_nullb[] = "cost nullb-mq-poll hipri-all " NULLB;
const char cost_brd[] = "cost brd io_uring 6000";
const char modinfo[] __attribute__((section(".modinfo"))) = "name=fakeb";
END
echo '/* shared */' > "$src/include/linux/fakeb.h"
make -s -C "$k/lib/modules/$ver/build" M="$src/drivers/block/fakeb" fakeb.ko || fail "the fake kernel's build tree does not build"
mv "$src/drivers/block/fakeb/fakeb.ko" "$k/lib/modules/$ver/kernel/drivers/block/fakeb/"
cat > "$dir/fake-measure" << 'END'
#!/bin/bash
set -euo pipefail
printf 'target\tworkload\tinstr\tstatus\n' > "$3/cells.tsv"
find "$1/lib/modules" -name '*.ko' -exec strings {} + | sed -n 's/^cost //p' | while read -r t w n; do
	if [[ $t/$w =~ $5 ]]; then printf '%s\t%s\t%s\tok\n' "$t" "$w" "$n" >> "$3/cells.tsv"; fi
done
echo "$1" >> "$RAMLLD_CACHE/measures"
END
chmod +x "$dir/fake-measure"
export RAMLLD_AB_MEASURE=$dir/fake-measure

# a patch of main.c: the nullb cell 10,575 -> 8,038, brd untouched
cp -a "$src" "$dir/src.new"
sed -i 's/cost nullb-mq-poll hipri-all " NULLB/cost nullb-mq-poll hipri-all 8038"/' "$dir/src.new/drivers/block/fakeb/main.c"
(cd "$dir" && diff -ruN src src.new > main.patch) && fail "the test's patch is empty"
out=$dir/out
"$TOP/compare/ab" --ab-patch "$dir/main.patch" --kernel "$k" --source "$src" --runs 1 --no-perf --out "$out" > "$dir/log" 2>&1 ||
	fail "compare/ab --kernel failed: $(tail -n 5 "$dir/log")"
grep -qF '| nullb-mq-poll | hipri-all | 10,575 | 8,038 | -2,537 | -23.99 % |' "$out/ab.md" || fail "the nullb row: $(cat "$out/ab.md")"
grep -qF '| brd | io_uring | 6,000 | 6,000 | +0 | +0.00 % |' "$out/ab.md" || fail "the brd row: $(cat "$out/ab.md")"
grep -q "^source=Debian kernel $ver (6.1.192-3) + main.patch (patch -p1, sha256 [0-9a-f]*; modules rebuilt: drivers/block/fakeb/fakeb)$" \
	"$out/changed/kernel.env" || fail "changed/kernel.env: $(cat "$out/changed/kernel.env")"
changed=$(sed -n 's/^kernel=//p' "$out/changed/kernel.env")
expect_eq "base kernel" "$k" "$(sed -n 's/^kernel=//p' "$out/base/kernel.env")"
[ -f "$changed/lib/modules/$ver/modules.dep" ] || fail "no depmod in the changed kernel $changed"
grep -q "8038" <(strings "$changed/lib/modules/$ver/kernel/drivers/block/fakeb/fakeb.ko") || fail "the changed kernel holds the old module"
grep -q "10575" <(strings "$k/lib/modules/$ver/kernel/drivers/block/fakeb/fakeb.ko") || fail "the base kernel's module was changed"
expect_eq "files of the kernel copy" "$(find "$k" -type f | wc -l)" \
	"$(find "$changed" -type f ! -name 'modules.*' ! -name build-time ! -name .complete | wc -l)"
# the same patch again: cached, nothing rebuilt
"$TOP/compare/ab" --ab-patch "$dir/main.patch" --kernel "$k" --source "$src" --runs 1 --no-perf --out "$dir/out2" > "$dir/log" 2>&1 ||
	fail "the second compare/ab --kernel failed: $(tail -n 5 "$dir/log")"
grep -q "changed: kernel cached" "$dir/log" || fail "the second run rebuilt: $(cat "$dir/log")"
grep -q '^build=cached in 0 s' "$dir/out2/changed/kernel.env" || fail "changed/kernel.env of the cached run: $(cat "$dir/out2/changed/kernel.env")"
# a patch of the folder's own header rebuilds the folder's modules
cp -a "$src" "$dir/src.h"
echo '#define NULLB "9000"' > "$dir/src.h/drivers/block/fakeb/fakeb.h"
(cd "$dir" && diff -ruN src src.h > header.patch) && fail "the header patch is empty"
"$TOP/compare/ab" --ab-patch "$dir/header.patch" --kernel "$k" --source "$src" --runs 1 --no-perf --out "$dir/out3" > "$dir/log" 2>&1 ||
	fail "compare/ab --kernel on a header failed: $(tail -n 5 "$dir/log")"
grep -qF '| nullb-mq-poll | hipri-all | 10,575 | 9,000 | -1,575 |' "$dir/out3/ab.md" || fail "the header patch: $(cat "$dir/out3/ab.md")"

# the bisect over a git history of the module's folder: c1 = the source's files, c3 the change
repo=$dir/repo
mkdir -p "$repo/drivers/block"
cp -a "$src/drivers/block/fakeb" "$repo/drivers/block/"
git -C "$repo" init -q
git -C "$repo" config user.email test@example.org
git -C "$repo" config user.name test
commit() { # MESSAGE
	git -C "$repo" add -A
	git -C "$repo" commit -q -m "$1"
	git -C "$repo" rev-parse HEAD
}
c1=$(commit "fakeb: the source's")
echo '/* a comment */' >> "$repo/drivers/block/fakeb/main.c"
commit "fakeb: a comment" > /dev/null
echo '#define NULLB "8038"' > "$repo/drivers/block/fakeb/fakeb.h"
c3=$(commit "fakeb: cheaper")
echo '/* another */' >> "$repo/drivers/block/fakeb/main.c"
commit "fakeb: another comment" > /dev/null
echo '/* a third */' >> "$repo/drivers/block/fakeb/main.c"
c5=$(commit "fakeb: a third comment")
: > "$RAMLLD_CACHE/measures"
"$TOP/compare/ab" --bisect "$c1" "$c5" --git "$repo" --kernel "$k" --source "$src" --path nullb-mq-poll/hipri-all \
	--threshold 100 --runs 1 --no-perf --out "$dir/bis" > "$dir/log" 2>&1 || fail "compare/ab --bisect --kernel failed: $(tail -n 8 "$dir/log")"
expect_eq "first bad commit" "$c3" "$(cat "$dir/bis/first-bad")"
grep -qF "first changed commit: ${c3:0:7} fakeb: cheaper" "$dir/log" || fail "no first changed commit line: $(cat "$dir/log")"
grep -qF '| nullb-mq-poll | hipri-all | 10,575 | 8,038 | -2,537 |' "$dir/bis/ab.md" || fail "the A/B of c3: $(cat "$dir/bis/ab.md")"
grep -q "^source=Debian kernel $ver (6.1.192-3) + $repo ${c1:0:12}\.\.${c3:0:12} (fakeb: cheaper)" "$dir/bis/changed/kernel.env" ||
	fail "changed is not c3: $(cat "$dir/bis/changed/kernel.env")"
grep -qF -- "--kernel $k --source $src --path nullb-mq-poll/hipri-all" "$dir/bis/ab.md" || fail "the report's command lacks --kernel: $(head -n 3 "$dir/bis/ab.md")"
# GOOD itself is the kernel as packaged, measured without a rebuild
expect_eq "GOOD's kernel" "$k" "$(head -n 1 "$RAMLLD_CACHE/measures")"
awk -v c3="$c3" '$1 == c3 && $3 != "bad" { exit 1 }' "$dir/bis/bisect.tsv" || fail "c3 not judged bad: $(cat "$dir/bis/bisect.tsv")"

# refusals: exit 2, nothing built
expect_fail() { # TEXT ARGS...: compare/ab ARGS exits 2 and says TEXT
	local text=$1 rc=0
	shift
	"$TOP/compare/ab" "$@" > "$dir/err" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "compare/ab $*: exit $rc, not 2: $(cat "$dir/err")"
	grep -qF -- "$text" "$dir/err" || fail "compare/ab $*: no '$text' in: $(cat "$dir/err")"
}
cp -a "$src" "$dir/src.inc"
echo '/* changed */' >> "$dir/src.inc/include/linux/fakeb.h"
(cd "$dir" && diff -ruN src src.inc > inc.patch) && fail "the include patch is empty"
n=$(find "$RAMLLD_CACHE/kernels" -maxdepth 1 -name 'ab-mod-*' | wc -l)
expect_fail "--kernel: $dir/inc.patch changes include/linux/fakeb.h: only .c files and a module folder's own headers" \
	--ab-patch "$dir/inc.patch" --kernel "$k" --source "$src"
sed -i 's/^SUBLEVEL = 192$/SUBLEVEL = 191/' "$dir/src.inc/Makefile"
expect_fail "--kernel $k is Debian's 6.1.192-3, --source $dir/src.inc is 6.1.191: they must be the same version" \
	--ab-patch "$dir/main.patch" --kernel "$k" --source "$dir/src.inc"
# a history whose first revision is not the source's files
git -C "$repo" checkout -q -b other "$c1"
echo '/* not the source */' >> "$repo/drivers/block/fakeb/main.c"
c1x=$(commit "fakeb: not the source's")
echo '/* more */' >> "$repo/drivers/block/fakeb/main.c"
c2x=$(commit "fakeb: more")
expect_fail "--kernel: drivers/block/fakeb/main.c at $c1x is not $src/drivers/block/fakeb/main.c" \
	--bisect "$c1x" "$c2x" --git "$repo" --kernel "$k" --source "$src" --path nullb-mq-poll/hipri-all --threshold 100
expect_eq "kernels built by refused runs" "$n" "$(find "$RAMLLD_CACHE/kernels" -maxdepth 1 -name 'ab-mod-*' | wc -l)"
echo "ok: compare/ab --kernel: the rebuilt module in a copy of the kernel, a folder's header, the cache, the bisect (${c3:0:12}), refusals"
