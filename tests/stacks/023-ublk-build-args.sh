#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/ublk/build's --help (exit 0, names the cache and the suites), and a bad option, a suite whose kernel is older than 6.15 (trixie) and an unknown suite fail with exit 2 and one line naming the value and what is allowed, before any chroot or cache is touched
# where: host
# requires: bash
# timeout: 60
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

build=$TOP/tools/ublk/build
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
export RAMLLD_CACHE=$cache
run_rc 0 "$build" --help
expect_in "--help" "usage: tools/ublk/build"
expect_in "--help" "$cache/ublk/<kernel ABI>/kublk"
refused() { # WANT ARG...: exit 2, one line holding WANT, nothing made in the cache
	local want=$1
	shift
	run_rc 2 "$build" "$@"
	expect_in "tools/ublk/build $*" "$want"
	[ "$(wc -l <<< "$out")" = 1 ] || fail "tools/ublk/build $*: more than one line: $out"
	[ -z "$(ls -A "$cache")" ] || fail "tools/ublk/build $* made $(ls -A "$cache") in the cache"
}
refused "unknown option '--no-such-option' (allowed: --rebuild, --help)" --no-such-option
refused "SUITE 'trixie': its kernel is older than 6.15" trixie
refused "bad SUITE 'nosuch' (allowed: sid)" nosuch
