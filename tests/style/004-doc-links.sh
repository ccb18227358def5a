#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/doc-links: every image and relative link in README.md and docs/*.md resolves to a tracked file, and no doc names a path outside the repository; a broken link fails by name
# where: host
# requires: git python3
# timeout: 60
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

run_rc 0 "$TOP/tools/doc-links"
echo "$out"
n=$(sed -n 's/^doc-links: \([0-9]*\) relative links checked, 0 problem(s)$/\1/p' <<< "$out")
[ -n "$n" ] || fail "tools/doc-links printed no count: $out"
[ "$n" -ge 3 ] || fail "only $n relative links found in README.md and docs/: the checker missed them"

# The check can fail: a scratch repository with one good link and each kind of bad one.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/docs/results"
printf 'png' > "$tmp/docs/results/good.png"
printf 'png' > "$tmp/docs/results/untracked.png"
cat > "$tmp/docs/a.md" << 'EOF'
# A
![good](results/good.png) [usage](b.md#options) [web](https://example.org/x)
![missing](results/missing.png)
![untracked](results/untracked.png)
[outside](../../elsewhere.md)
The machine's facts are in ../shared/PLATFORM.md.
```
[in a code block](not-checked.md)
```
EOF
printf '# B\n' > "$tmp/docs/b.md"
printf '# R\n[a](docs/a.md)\n[global]: 4k is prose, not a link\n[ref]: docs/b.md\n' > "$tmp/README.md"
git -C "$tmp" init -q
git -C "$tmp" add README.md docs/a.md docs/b.md docs/results/good.png
run_rc 1 "$TOP/tools/doc-links" --root "$tmp"
expect_in "a missing image" "docs/a.md: link results/missing.png -> docs/results/missing.png: no such file"
expect_in "an image not in git" "docs/a.md: link results/untracked.png -> docs/results/untracked.png: not tracked in git"
expect_in "a link out of the tree" "docs/a.md: link ../../elsewhere.md points outside the repository"
expect_in "a path outside named in the text" "docs/a.md:6: names ../shared/PLATFORM.md, outside the repository"
expect_in "the count" "doc-links: 7 relative links checked, 4 problem(s)"
run_rc 2 "$TOP/tools/doc-links" --root "$tmp/docs/results/nonexistent"
expect_in "a bad --root" "not a git repository"
