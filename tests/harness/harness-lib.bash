# SPDX-License-Identifier: GPL-2.0
# tests/harness/harness-lib.bash: shared by the harness's own tests (sourced after tests/lib.sh).

# build_warn_module: build tests/harness/warn-module (a module whose load WARNs) for the guest
# kernel in $RESULTS/warn-module; sets mod to that folder, fails the test if the build fails.
build_warn_module() {
	local kdir
	kdir=$("$TOP/tools/vm/kernel" --print-kdir) || fail "no kernel headers for the guest kernel"
	mod=$RESULTS/warn-module
	rm -rf "$mod"
	cp -r "$TOP/tests/harness/warn-module" "$mod"
	make -s -C "$kdir" M="$mod" modules > "$RESULTS/build.log" 2>&1 ||
		{ cat "$RESULTS/build.log"; fail "building the test module failed"; }
}
