#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: docs/results.md is a run of what HEAD runs: the fingerprint published in docs/results.json (and results.md's Environment) equals compare/fingerprint of HEAD's module as built, compare/targets and the .fio workloads, else it fails naming the parts that differ and the command that publishes a new run; the check fails on a scratch results.json of other code
# where: host
# requires: python3 make
# timeout: 300
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

# The module HEAD builds (make check builds it first; make is a no-op then).
if [ "$RAMLLD_KO" = "$TOP/drivers/ramlld.ko" ]; then
	make -s -C "$TOP" module > "$RESULTS/build.log" 2>&1 || { tail -20 "$RESULTS/build.log"; fail "make module failed"; }
fi
[ -f "$RAMLLD_KO" ] || fail "no module at $RAMLLD_KO to fingerprint"
head=$("$TOP/compare/fingerprint" --ko "$RAMLLD_KO" | sed 's/^code=//')
echo "HEAD runs: $head"

# stale JSON: the parts of its code that differ from HEAD's, "" when none
stale() {
	python3 - "$1" "$head" << 'PY'
import json, sys
js = json.load(open(sys.argv[1], encoding="utf-8"))
pub = dict(x.split(":", 1) for x in (js.get("code") or "").split() if ":" in x)
now = dict(x.split(":", 1) for x in sys.argv[2].split())
print(" ".join(f"{k} (published {pub.get(k, 'not recorded')}, HEAD {v})" for k, v in now.items()
               if pub.get(k) != v))
PY
}

# the check can fail: a results.json of other code names each part
targets=${head##*targets:}
printf '{"code": "module:000000000000 targets:%s workloads:000000000000"}\n' \
	"${targets%% *}" > "$RESULTS/scratch.json"
got=$(stale "$RESULTS/scratch.json")
case $got in
"module (published 000000000000, HEAD "*") workloads (published 000000000000, HEAD "*")") echo "ok: a scratch results.json of other code: $got" ;;
*) fail "the check on a scratch results.json of other code said: '$got'" ;;
esac

json=$TOP/docs/results.json
[ -f "$json" ] || fail "no docs/results.json: publish a run of HEAD: make compare && make publish"
diff=$(stale "$json")
[ -z "$diff" ] || fail "docs/results.md was measured on other code than HEAD's: $diff; publish a run of HEAD: make compare && make publish"
code=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["code"])' "$json")
grep -qF "| code | $code " "$TOP/docs/results.md" || fail "docs/results.md's Environment does not state the code of docs/results.json ($code)"
echo "ok: docs/results.md and results.json were measured on HEAD's code: $code"
