#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: percpu-load --rw write refuses a disk holding a filesystem signature or a partition table (exit 2, data intact), and a mounted one even with --destroy-data
# where: guest
# requires: python3 dd blkid mkfs.ext4 md5sum
# timeout: 1800
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/tools/tools-lib.bash
. "$TOP/tests/tools/tools-lib.bash"

stand_in_disks
dev=/dev/$RAM
sum() { dd if="$dev" bs=1M count=4 status=none | md5sum; }

# a filesystem signature
mkfs.ext4 -q -F "$dev" || fail "mkfs.ext4 $dev"
before=$(sum)
run_rc 2 "$PL" "$dev" --rw write --procs-per-cpu 1 --count 16
expect_in "write over ext4" "refusing to write to $dev"
expect_in "the signature is named" "TYPE=ext4"
expect_eq "blkid -p TYPE after the refusal" ext4 "$(blkid -p -o value -s TYPE "$dev")"
expect_eq "first 4 MiB checksum after the refusal" "$before" "$(sum)"

# a partition table
wipefs -q -a "$dev"
write_mbr "$dev"
run_rc 2 "$PL" "$dev" --rw write --procs-per-cpu 1 --count 16
expect_in "write over a partition table" "PTTYPE=dos"
expect_eq "blkid -p PTTYPE after the refusal" dos "$(blkid -p -o value -s PTTYPE "$dev")"

# no signature (blkid -p exits 2): writing is allowed
wipefs -q -a "$dev"
blockdev --rereadpt "$dev"
run_rc 0 "$PL" "$dev" --rw write --procs-per-cpu 1 --count 16
expect_in "write on a blank disk" "write bs=4k direct"

# --destroy-data writes over a signature
mkfs.ext4 -q -F "$dev"
run_rc 0 "$PL" "$dev" --rw write --procs-per-cpu 1 --count 16 --destroy-data
expect_in "--destroy-data" "writing over"

# mounted: refused even with --destroy-data
if modprobe ext4 2> /dev/null || grep -qw ext4 /proc/filesystems; then
	mkfs.ext4 -q -F "$dev"
	mkdir -p /tmp/pl-mnt
	mount "$dev" /tmp/pl-mnt || fail "mount $dev"
	rc=0
	out=$("$PL" "$dev" --rw write --procs-per-cpu 1 --count 16 --destroy-data 2>&1) || rc=$?
	umount /tmp/pl-mnt
	expect_eq "exit status writing to a mounted disk with --destroy-data" 2 "$rc"
	expect_in "mounted" "is mounted on /tmp/pl-mnt"
else
	echo "note: no ext4 in this kernel: the mounted case is not tested"
fi
# reads are never refused
run_rc 0 "$PL" "$dev" --procs-per-cpu 1 --count 16
echo "ok: reads of a disk with a signature are allowed"
unload_all
