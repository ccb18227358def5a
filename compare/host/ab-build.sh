# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/host/ab-build.sh: compare/ab's kernels: the source trees (work trees, the patch, git
# checkouts, the cache key), the lean kernel and ramlld.ko built against it, and the module
# mode (a Debian kernel with the changed modules rebuilt against its headers); sourced by
# compare/ab. Variables: compare/ab's.

# --- source trees: a work tree per source, put in the state each kernel is built from ------------
# name_of DIR: a folder name for DIR's work tree and build tree (the default source's names
# Debian's package version: an update gets a copy of its own)
name_of() {
	local d=$1
	if [ "$d" = "$default_src" ]; then
		echo "linux-source-6.1_$(dpkg-query -W -f='${Version}' linux-source-6.1 2> /dev/null || echo unknown)"
	else
		echo "$(basename "$d")-$(echo "$d" | sha256sum | cut -c1-8)"
	fi
}

# The default source: installed and unpacked if missing (tools/vm/debug-kernel's way).
default_source() {
	if [ ! -f "$default_src/Makefile" ]; then
		local pkgs=(linux-source-6.1)
		dpkg-query -W -f='${Status}' linux-source-6.1 2> /dev/null | grep -q "ok installed" || {
			[ "$(id -u)" -eq 0 ] || fail "linux-source-6.1 is not installed (apt-get install linux-source-6.1 as root)"
			log "installing ${pkgs[*]}"
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}" >&2 || fail "apt-get install ${pkgs[*]} failed"
		}
		log "unpacking $default_src.tar.xz"
		tar -C "$(dirname "$default_src")" -xf "$default_src.tar.xz" || fail "cannot unpack $default_src.tar.xz"
	fi
}

# patch_tree SRC: the work copy of SRC (made once), at base (no patch applied); prints it.
# The patch the copy carries is recorded in it, so that a run cut short is undone by the next.
patch_tree() {
	local src=$1 w
	w=$cache/ab/src/$(name_of "$src")
	if [ ! -f "$w/.ramlld-ab-copied" ]; then
		log "copying $src to $w (once)"
		rm -rf "$w"
		mkdir -p "$(dirname "$w")"
		cp -a "$src" "$w" || fail "cannot copy $src to $w"
		touch "$w/.ramlld-ab-copied"
	fi
	if [ -f "$w/.ramlld-ab.patch" ]; then
		(cd "$w" && patch -s -R -p1 < .ramlld-ab.patch) >&2 || fail "cannot take the patch in $w/.ramlld-ab.patch back out of $w"
		rm -f "$w/.ramlld-ab.patch"
	fi
	echo "$w"
}

# apply_patch TREE FILE: TREE (at base) + FILE; dry run first, so a patch that does not apply
# leaves the tree as it was
apply_patch() {
	local w=$1 p=$2
	(cd "$w" && patch -s --dry-run -p1 < "$p") > /dev/null 2>&1 ||
		fail "$p does not apply to $w with patch -p1: $(cd "$w" && patch --dry-run -p1 < "$p" 2>&1 | grep -m1 -iE 'fail|can.t|only garbage')"
	cp "$p" "$w/.ramlld-ab.patch"
	(cd "$w" && patch -s -p1 < .ramlld-ab.patch) >&2 || fail "patch -p1 < $p failed in $w"
}

# git_tree REPO: a worktree of REPO (made once, detached); prints it
git_tree() {
	local r=$1 w
	w=$cache/ab/git/$(name_of "$r")
	if [ ! -e "$w/.git" ]; then
		mkdir -p "$(dirname "$w")"
		git -C "$r" worktree prune
		git -C "$r" worktree add -q --detach "$w" HEAD >&2 || fail "git worktree add $w failed"
	fi
	echo "$w"
}

git_checkout() { # TREE REV: checkout only rewrites the files that differ (an incremental build)
	git -C "$1" checkout -q --detach -f "$2" >&2 || fail "git checkout $2 in $1 failed"
}

# tree_key TREE: what tells a tree's content apart (for a tree given as it is)
tree_key() {
	local t=$1
	if git -C "$t" rev-parse --git-dir > /dev/null 2>&1 && [ "$(git -C "$t" rev-parse --show-toplevel)" = "$t" ]; then
		echo "git $(git -C "$t" rev-parse HEAD) $(git -C "$t" diff HEAD | sha256sum | cut -c1-16)"
	else
		echo "files $(cd "$t" && find . -path ./.git -prune -o -type f -printf '%P %s %T@\n' | sort | sha256sum | cut -c1-16)"
	fi
}

# --- one kernel: build (cached) and ramlld.ko against it --------------------------------------
# build_kernel SIDE TREE OBJ KEY SOURCE-TEXT: fills $out/SIDE/kernel.env, sets kernel_dir, ko_dir
kernel_dir='' ko_dir=''
build_kernel() {
	local side=$1 tree=$2 obj=$3 key=$4 what=$5 t0=$EPOCHSECONDS how env
	mkdir -p "$out/$side"
	if [ -n "${RAMLLD_AB_BUILD:-}" ]; then
		kernel_dir=$($RAMLLD_AB_BUILD "$tree" "$key") || fail "$side: the kernel build failed ($RAMLLD_AB_BUILD)"
		ko_dir=$kernel_dir
		how="built ($RAMLLD_AB_BUILD)"
	else
		env=(RAMLLD_LINUX_SOURCE="$tree" RAMLLD_KERNEL_FRAGMENT="$fragment" RAMLLD_KERNEL_OBJ="$obj"
			RAMLLD_KERNEL_KEY="$key")
		if env "${env[@]}" "$top/tools/vm/debug-kernel" --is-built; then
			how=cached
			log "$side: kernel cached ($what)"
		else
			how=built
			log "$side: building the kernel ($what) in $obj"
		fi
		# the build in the background, its progress every minute: the steps make has logged
		local blog bpid n=0
		blog=$cache/kernels/lean-$(env "${env[@]}" "$top/tools/vm/debug-kernel" --print-key)/build.log
		env "${env[@]}" "$top/tools/vm/debug-kernel" build > "$out/$side/kernel-dir" &
		bpid=$!
		while kill -0 "$bpid" 2> /dev/null; do
			sleep 5
			n=$((n + 1))
			if [ $((n % 12)) -eq 0 ] && [ -f "$blog" ]; then
				log "$side: $(grep -cE '^  [A-Z]+ ' "$blog") build steps done, $((EPOCHSECONDS - t0)) s ($blog)"
			fi
		done
		wait "$bpid" || fail "$side: the kernel build failed"
		kernel_dir=$(cat "$out/$side/kernel-dir")
		ko_dir=$(dirname "$kernel_dir")/ramlld
		if [ ! -f "$ko_dir/ramlld.ko" ]; then
			# the build tree holds this kernel right now (the other one may have been built
			# in it since this one was cached: then make brings it back, incrementally)
			if [ "$how" = cached ]; then
				log "$side: bringing $obj back to this kernel for ramlld.ko"
				nice -n 19 make -C "$tree" O="$obj" -j"$(nproc)" bzImage modules > "$out/$side/rebuild.log" 2>&1 ||
					fail "$side: make in $obj failed ($out/$side/rebuild.log)"
			fi
			local ko
			ko=$(env "${env[@]}" "$top/tools/vm/debug-kernel" --module) || fail "$side: ramlld.ko does not build against this kernel"
			mkdir -p "$ko_dir"
			cp "$ko" "$ko_dir/"
		fi
	fi
	{
		echo "source=$what"
		echo "key=$key"
		echo "kernel=$kernel_dir"
		echo "version=$(find "$kernel_dir/lib/modules" -mindepth 1 -maxdepth 1 -printf '%f\n' 2> /dev/null | head -n 1)"
		echo "build=$how in $((EPOCHSECONDS - t0)) s$(f=$(dirname "$kernel_dir")/build-time; [ -f "$f" ] && echo " (first build: $(cut -d' ' -f3- "$f"))")"
	} > "$out/$side/kernel.env"
	log "$side: kernel $how in $((EPOCHSECONDS - t0)) s: $kernel_dir"
}

# git_kernel SIDE TREE SHA WHAT: the kernel of --git REPO at SHA, checked out in TREE: K with the
# modules of the tree's changes rebuilt (module mode, mod_at), else built (WHAT: the source text)
git_kernel() {
	if [ -n "$modkernel" ]; then
		mod_at "$1" "$3"
	else
		build_kernel "$1" "$2" "$cache/ab/obj/$(name_of "$repo")" "ab git $3" "$4"
	fi
}

# --- module mode: a Debian kernel, and that kernel with the patched modules rebuilt -------------
# module_of DIR FILE: the module that DIR/Makefile builds FILE (a .c of DIR) into
module_of() {
	local dir=$1 base m
	base=$(basename "$2" .c)
	m=$(awk -v o="$base.o" '
		{ line = $0; while (line ~ /\\$/ && (getline nxt) > 0) line = substr(line, 1, length(line) - 1) " " nxt
		  if (line ~ /^[a-z0-9_]+-(y|objs|\$\(CONFIG_[A-Z0-9_]+\))[ \t]*[:+]?=/) {
			n = split(line, w, /[ \t]+/)
			sub(/-.*/, "", w[1]); if (w[1] == "obj") next
			for (i = 2; i <= n; i++) if (w[i] == o) { print w[1]; exit } } }' "$dir/Makefile")
	echo "${m:-$base}"
}

# modules_of DIR: the modules DIR/Makefile builds (obj-m and obj-$(CONFIG_...) of a folder)
modules_of() {
	awk '{ line = $0; while (line ~ /\\$/ && (getline nxt) > 0) line = substr(line, 1, length(line) - 1) " " nxt
		if (line ~ /^obj-(m|\$\(CONFIG_[A-Z0-9_]+\))[ \t]*[:+]?=/) {
			n = split(line, w, /[ \t]+/)
			for (i = 2; i <= n; i++) if (w[i] ~ /^[a-z0-9_-]+\.o$/) { sub(/\.o$/, "", w[i]); print w[i] } } }' "$1/Makefile"
}

# mod_setup: module mode's kernel K (mod_root, mod_ver, mod_pkg) and ramlld.ko built for it (ko_dir;
# none with a measurement hook, which loads nothing)
# (--built: a bisect step, whose ramlld.ko the bisect built)
mod_root='' mod_ver='' mod_pkg='' mod_ref=''
mod_setup() {
	local t0=$EPOCHSECONDS
	mod_root=$("$top/tools/vm/kernel" --print-modules "$modkernel") || fail "no kernel $modkernel"
	mod_ver=$("$top/tools/vm/kernel" --print-version "$modkernel")
	mod_pkg=$(debian_version "$modkernel")
	ko_dir=''
	[ -z "${RAMLLD_AB_MEASURE:-}" ] || return 0
	if [ "${1:-}" = --built ]; then
		ko_dir=$top/build/kernels/$mod_ver
		[ -f "$ko_dir/ramlld.ko" ] || ko_dir=$top/drivers
		return 0
	fi
	make -C "$top" module KERNEL="$modkernel" > "$out/build-ramlld.log" 2>&1 || fail "make module KERNEL=$modkernel failed: $out/build-ramlld.log"
	ko_dir=$top/build/kernels/$mod_ver
	[ -f "$ko_dir/ramlld.ko" ] || ko_dir=$top/drivers
	log "ramlld.ko for $mod_ver in $((EPOCHSECONDS - t0)) s"
}

# mod_stock SIDE [WHAT]: kernel K as Debian built it (kernel_dir, SIDE/kernel.env; WHAT: the
# source state it stands for)
mod_stock() {
	mkdir -p "$out/$1"
	kernel_dir=$mod_root
	printf 'source=Debian kernel %s (%s)%s\nkey=%s\nkernel=%s\nversion=%s\nbuild=Debian package\n' \
		"$mod_ver" "$mod_pkg" "${2:+ = $2}" "$mod_ver" "$mod_root" "$mod_ver" > "$out/$1/kernel.env"
}

# module_kernel SIDE PATCH WHAT: K with the modules PATCH changes rebuilt from the module source +
# PATCH against K's headers (cached by K's version, the patch and the compiler); sets kernel_dir
# and writes SIDE/kernel.env (WHAT: the change, as the report names it)
module_kernel() {
	local side=$1 p=$2 what=$3 kdir key d f m ms t0=$EPOCHSECONDS tmp how mods=()
	kdir=$("$top/tools/vm/kernel" --print-kdir "$modkernel") || fail "no headers for kernel $modkernel"
	key=$({ echo "$mod_ver"; sha256sum < "$p"; "${CC:-gcc}" --version | head -n 1; } | sha256sum | cut -c1-16)
	local out_k=$cache/kernels/ab-mod-$key
	mkdir -p "$out/$side"
	if [ -f "$out_k/.complete" ]; then
		log "$side: kernel cached ($out_k)"
		how="cached in 0 s (first build: $(cat "$out_k/build-time"))"
	else
		tmp=$out_k.tmp
		rm -rf "$tmp" "$out_k"
		mkdir -p "$tmp/src"
		while read -r f; do
			d=$(dirname "$f")
			[ -d "$tmp/src/$d" ] || { mkdir -p "$tmp/src/$(dirname "$d")"; cp -a "$modsrc/$d" "$tmp/src/$d"; }
			# a folder's own header: every module of the folder that K ships
			if [[ $f == *.h ]]; then
				ms=$(modules_of "$modsrc/$d")
			else
				ms=$(module_of "$modsrc/$d" "$f")
				[ -f "$mod_root/lib/modules/$mod_ver/kernel/$d/$ms.ko" ] ||
					fail "$f goes into $ms, which is not a module of $mod_ver (built into its image?): leave out --kernel to build kernels"
			fi
			for m in $ms; do
				[ -f "$mod_root/lib/modules/$mod_ver/kernel/$d/$m.ko" ] || continue
				[[ " ${mods[*]} " == *" $d/$m "* ]] || mods+=("$d/$m")
			done
		done < <(patched_files "$p")
		[ "${#mods[@]}" -gt 0 ] || fail "$p changes no module of $mod_ver"
		(cd "$tmp/src" && patch -s -p1 < "$p") >&2 || fail "$p does not apply to $modsrc with patch -p1"
		for m in "${mods[@]}"; do
			log "$side: building $m.ko from the patched source against $kdir (niced)"
			nice -n 10 make -C "$kdir" M="$tmp/src/$(dirname "$m")" "$(basename "$m").ko" > "$tmp/build.log" 2>&1 ||
				{ tail -n 20 "$tmp/build.log" >&2; fail "building $m.ko failed: $tmp/build.log"; }
		done
		# the kernel's folder again, hard-linked, with the rebuilt modules put in (as new files)
		cp -al "$mod_root" "$tmp/root"
		for m in "${mods[@]}"; do
			f=$tmp/root/lib/modules/$mod_ver/kernel/$m.ko
			rm -f "$f"
			strip --strip-debug -o "$f" "$tmp/src/$m.ko"
		done
		depmod -b "$tmp/root" "$mod_ver" 2> /dev/null
		echo "$((EPOCHSECONDS - t0)) s: ${mods[*]}" > "$tmp/build-time"
		mv "$tmp/root" "$out_k"
		mv "$tmp/build-time" "$out_k/build-time"
		rm -rf "$tmp"
		touch "$out_k/.complete"
		how="built in $((EPOCHSECONDS - t0)) s"
		log "$side: $(cat "$out_k/build-time") ($out_k)"
	fi
	kernel_dir=$out_k
	printf 'source=Debian kernel %s (%s) + %s (patch -p1, sha256 %s; modules rebuilt: %s)\nkey=%s\nkernel=%s\nversion=%s\nbuild=%s\n' \
		"$mod_ver" "$mod_pkg" "$what" "$(sha256sum < "$p" | cut -c1-16)" "$(cut -d: -f2- "$out_k/build-time" | sed 's/^ //')" \
		"$(basename "$out_k")" "$out_k" "$mod_ver" "$how" > "$out/$side/kernel.env"
}

# mod_at SIDE SHA: module mode over a git tree: K with the modules that the tree's changes from
# the reference revision (mod_ref, the source's own files) to SHA touch rebuilt; K itself when
# there is none
mod_at() {
	local side=$1 sha=$2 p
	mkdir -p "$out/patches"
	p=$out/patches/${sha:0:12}.patch
	git -C "$repo" diff --no-color --no-ext-diff --no-renames --src-prefix=a/ --dst-prefix=b/ "$mod_ref" "$sha" > "$p"
	if [ ! -s "$p" ]; then
		mod_stock "$side" "$repo at ${sha:0:12}: $(git -C "$repo" log -1 --format=%s "$sha")"
	else
		module_kernel "$side" "$p" "$repo ${mod_ref:0:12}..${sha:0:12} ($(git -C "$repo" log -1 --format=%s "$sha" | tr '|' '/'))"
	fi
}

# --- compare/ab's checks of its arguments (before anything is built) ---------------------------
# patched_files PATCH: the files a -p1 patch changes (each a .c file or a header of a module's own
# folder: module mode rebuilds modules, never what the kernel's image or other modules include)
patched_files() {
	local f n=0
	while read -r f; do
		f=${f#*/}
		[[ $f == *.c || ($f == *.h && $f != include/* && $f != */include/*) ]] ||
			die "--kernel: $1 changes $f: only .c files and a module folder's own headers can be rebuilt against a Debian kernel (leave out --kernel to build kernels)"
		echo "$f"
		n=$((n + 1))
	done < <(awk '/^\+\+\+ / { print $2 }' "$1")
	[ "$n" -gt 0 ] || die "--ab-patch: $1 changes no file"
}

# source_version DIR: VERSION.PATCHLEVEL.SUBLEVEL of a kernel source tree's Makefile
source_version() {
	awk -F' *= *' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 } $1 == "SUBLEVEL" { s = $2 }
		END { if (v != "") print v "." p "." s }' "$1/Makefile"
}

# debian_version K: the Debian package version of kernel K (its changelog), or ?
debian_version() {
	local v
	v=$(zcat "$("$top/tools/vm/kernel" --print-modules "$1")"/usr/share/doc/linux-image-*/changelog.Debian.gz 2> /dev/null |
		sed -n '1s/^linux[a-z0-9-]* (\([^)]*\)).*/\1/p' || true)
	echo "${v:-?}"
}

# check_modkernel: kernel K is known and is the module source's version (Debian's source: the
# same package version; another tree: the same upstream version in its Makefile)
check_modkernel() {
	local kpkg want
	if [ "$modsrc" != "$default_src" ]; then
		[ -f "$modsrc/Makefile" ] || die "--source: '$modsrc' is not a kernel source tree (no Makefile)"
		want=$(source_version "$modsrc")
		[ -n "$want" ] || die "--source: '$modsrc' has no kernel version (VERSION, PATCHLEVEL, SUBLEVEL in its Makefile)"
	fi
	"$top/tools/vm/kernel" --print-version "$modkernel" > /dev/null 2>&1 ||
		die "--kernel: unknown kernel '$modkernel' (allowed: tools/vm/kernel --help)"
	kpkg=$(debian_version "$modkernel")
	if [ "$modsrc" = "$default_src" ]; then
		want=$(dpkg-query -W -f='${Version}' linux-source-6.1 2> /dev/null || echo '?')
		[ "$kpkg" = "$want" ] ||
			die "--kernel $modkernel is Debian's $kpkg, the source is linux-source-6.1 $want: they must be the same version"
	else
		[ "${kpkg%-*}" = "$want" ] ||
			die "--kernel $modkernel is Debian's $kpkg, --source $modsrc is $want: they must be the same version"
	fi
}

# check_history REF REV: module mode over a git tree: the files REF..REV change are, at REF, the
# module source's own (each step rebuilds from the source + the tree's diff from REF)
check_history() {
	local f
	while read -r f; do
		git -C "$repo" cat-file -e "$1:$f" 2> /dev/null || continue
		git -C "$repo" show "$1:$f" | cmp -s - "$modsrc/$f" ||
			die "--kernel: $f at $1 is not $modsrc/$f: the first revision must hold the source's own files"
	done < <(git -C "$repo" diff --name-only "$1" "$2")
}
