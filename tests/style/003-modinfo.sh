#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: every module parameter of ramlld.ko (the settings table) has a modinfo description of at most 120 characters that ends with its default
# where: host
# requires: modinfo
# timeout: 60
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

[ -f "$RAMLLD_KO" ] || fail "$RAMLLD_KO is not built (run make)"
n=0
while IFS= read -r line; do
	name=${line%%:*}
	desc=${line#*:}
	desc=${desc% (*)}  # modinfo's "(type)"
	[[ $desc =~ \(default:\ [^\)]*\)$ ]] || fail "parameter $name: the description does not end with its default: $desc"
	[ ${#desc} -le 120 ] || fail "parameter $name: a description of ${#desc} characters (at most 120): $desc"
	n=$((n + 1))
done < <(modinfo -F parm "$RAMLLD_KO")
[ "$n" -ge 20 ] || fail "only $n parameters in modinfo $RAMLLD_KO"
echo "ok: $n parameters, each described in at most 120 characters ending with its default"
