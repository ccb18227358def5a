# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/host/ab-bisect.sh: compare/ab --bisect: git bisect run over --git REPO with the
# instructions per I/O of one cell as its criterion, then the A/B of the first bad commit against
# its parent; sourced by compare/ab. Variables: compare/ab's.

# step_value TREE: PATH's instructions per I/O on the kernel of TREE as it is checked out
# (one run, no perf), printed
step_value() {
	local tree=$1 sha side
	sha=$(git -C "$tree" rev-parse HEAD)
	side=steps/${sha:0:12}
	git_kernel "$side" "$tree" "$sha" "$repo at ${sha:0:12}"
	measure "$side" "$tree" 1 0 "^${path//./\\.}\$"
	awk -F'\t' -v t="${path%%/*}" -v w="${path#*/}" '$1 == t && $2 == w && $4 == "ok" { print $3 }' \
		"$out/$side/run1/cells.tsv"
}

# bisect_step: one git bisect run step, in the bisect's own work tree (the current directory):
# exit 0 good, 1 bad (PATH moved from GOOD's figure by more than the threshold), 125 no figure
bisect_step() {
	local v d verdict
	if [ -n "$modkernel" ]; then
		mod_setup --built
		mod_ref=$(git -C "$repo" rev-parse "$rev_base^{commit}")
	fi
	v=$(step_value "$(pwd)") || exit 125
	[ -n "$v" ] || { echo "$prog: no figure for $path at $(git rev-parse --short HEAD): skipped" >&2; exit 125; }
	d=$(awk -v a="$v" -v b="$step_good" 'BEGIN { d = a - b; print (d < 0 ? -d : d) }')
	verdict=$(awk -v d="$d" -v t="$threshold" 'BEGIN { print (d > t ? "bad" : "good") }')
	echo "$prog: $(git rev-parse --short HEAD) $path: $v instructions per I/O (good: $step_good, |Δ| $d, threshold $threshold): $verdict" >&2
	echo "$(git rev-parse HEAD) $v $verdict" >> "$out/bisect.tsv"
	[ "$verdict" = good ] || exit 1
	exit 0
}

# bisect_run: GOOD measured, git bisect run of compare/ab --bisect-step between GOOD and BAD
# ($out/bisect.tsv, bisect.log, bisect-log.txt, first-bad), then the first bad commit's A/B
# against its parent (both kernels cached by the bisect or built now)
bisect_run() {
	local w good_sha bad_sha modargs=() gv rc=0 first side sha
	ab_env --bisect "$good" "$bad" --git "$repo" ${modkernel:+--kernel "$modkernel"} --path "$path" --threshold "$threshold" --rows "$rows"
	w=$(git_tree "$repo")
	good_sha=$(git -C "$repo" rev-parse "$good^{commit}") bad_sha=$(git -C "$repo" rev-parse "$bad^{commit}")
	# module mode: each commit is K + the modules of the tree's diff from GOOD (the source's files)
	if [ -n "$modkernel" ]; then
		mod_setup
		mod_ref=$good_sha
		modargs=(--kernel "$modkernel" --base "$good_sha")
		[ "$modsrc" = "$default_src" ] || modargs+=(--source "$modsrc")
	fi
	git_checkout "$w" "$good_sha"
	gv=$(step_value "$w")
	[ -n "$gv" ] || fail "no figure for $path at GOOD ($good): is it a ledger row (--rows)?"
	log "GOOD ${good_sha:0:12} $path: $gv instructions per I/O"
	: > "$out/bisect.tsv"
	echo "$good_sha $gv good" >> "$out/bisect.tsv"
	git -C "$w" bisect reset > /dev/null 2>&1 || true
	git -C "$w" bisect start "$bad_sha" "$good_sha" > /dev/null || fail "git bisect start failed in $w"
	(cd "$w" && git bisect run "$here/ab" --bisect-step "$gv" --git "$repo" "${modargs[@]}" \
		--cpus "$cpus" --path "$path" --threshold "$threshold" --out "$out") > "$out/bisect.log" 2>&1 || rc=$?
	first=$(git -C "$w" rev-parse -q --verify refs/bisect/bad || true)
	git -C "$w" bisect log > "$out/bisect-log.txt" 2>&1 || true
	git -C "$w" bisect reset > /dev/null 2>&1 || true
	[ "$rc" -eq 0 ] || { tail -n 20 "$out/bisect.log" >&2; fail "git bisect run failed ($rc): $out/bisect.log"; }
	[ -n "$first" ] || fail "git bisect named no first bad commit: $out/bisect.log"
	grep -q "is the first bad commit" "$out/bisect.log" || { tail -n 20 "$out/bisect.log" >&2; fail "git bisect did not end on one commit: $out/bisect.log"; }
	if [ "$first" = "$good_sha" ] || ! git -C "$repo" rev-parse -q --verify "$first^" > /dev/null; then
		fail "the first bad commit has no parent to compare against"
	fi
	echo "first changed commit: $(git -C "$repo" log -1 --format='%h %s' "$first") ($(wc -l < "$out/bisect.tsv") commits measured: $out/bisect.tsv)"
	echo "$first" > "$out/first-bad"
	for side in base changed; do
		sha=$(git -C "$repo" rev-parse "$first^")
		[ "$side" = base ] || sha=$first
		git_checkout "$w" "$sha"
		git_kernel "$side" "$w" "$sha" "$repo at ${sha:0:12}: $(git -C "$repo" log -1 --format=%s "$sha")"
		run_side "$side" "$w"
	done
}
