#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: max_sectors_kb still splits large bios on the bio disk (one bio per max_sectors_kb reaches the driver), one-page bios are not split, data reads back
# where: guest
# requires: dd cmp fio
. "$TOP/tests/lib.sh"

# The bio disk skips bio_split_to_limits() for a bio of one bio_vec inside one page (commit
# 897fc23); every larger bio must still be cut to the queue's limits before the driver serves
# it. With queue/iostats=1 the driver accounts each bio it serves (bio_start_io_acct), so
# fields 1/3 and 5/7 of the stat file count the bios that reached it and their sectors.
stat=/sys/block/ramlld0/stat
q=/sys/block/ramlld0/queue
io=256      # KiB per direct I/O: 64 pages, under the default max_segments (128)
total=1024  # KiB written and read per case

# ios_delta BEFORE: "read I/Os, read sectors, write I/Os, write sectors" since BEFORE.
counters() {
	awk '{ print $1, $3, $5, $7 }' $stat
}
ios_delta() {
	echo "$1 $(counters)" | awk '{ print $5 - $1, $6 - $2, $7 - $3, $8 - $4 }'
}

ramlld_load mode=bio capacity_mb=8
echo 1 > $q/iostats
expect_eq "max_hw_sectors_kb (max_hw_sectors_kb= default)" 32768 "$(cat $q/max_hw_sectors_kb)"
default_kb=$(cat $q/max_sectors_kb)
expect_eq "max_sectors_kb (default)" 1024 "$default_kb"

# fio --mem=shmhuge takes one 2 MiB huge page for its 256 KiB buffer. The debug kernel
# (tools/vm/debug.config) has no huge pages: there only the dd half runs.
hugepages=/proc/sys/vm/nr_hugepages
old_hugepages=''
if [ -e $hugepages ]; then
	old_hugepages=$(cat $hugepages)
	echo 2 > $hugepages
	[ "$(cat $hugepages)" -ge 1 ] || fail "no huge page could be reserved ($hugepages: $(cat $hugepages))"
else
	echo "note: kernel $(uname -r) has no huge pages (no $hugepages): the huge-page (multi-page bio_vec) cases are not run"
fi

src=$RESULTS/src.bin
back=$RESULTS/back.bin
sectors=$((total * 2))
ios=$((total / io))
for kb in 1024 64 8 4; do
	echo $kb > $q/max_sectors_kb
	expect_eq "max_sectors_kb after writing $kb" $kb "$(cat $q/max_sectors_kb)"
	per_io=$(((io + kb - 1) / kb))
	bios=$((ios * per_io))
	# fio's buffers in huge pages: physically contiguous, so the pages of one I/O merge into
	# multi-page bio_vecs (bv_len > PAGE_SIZE); a one-bio_vec bio larger than a page must be
	# split too. fio writes, then reads back and verifies.
	if [ -n "$old_hugepages" ]; then
		before=$(counters)
		fio --name=huge --filename=/dev/ramlld0 --direct=1 --ioengine=psync --rw=write \
			--bs=${io}k --size=${total}k --mem=shmhuge --verify=crc32c --do_verify=1 \
			--verify_fatal=1 --output-format=terse --minimal > /dev/null ||
			fail "fio --mem=shmhuge write + verify failed at max_sectors_kb=$kb"
		expect_eq "bios served and sectors, huge-page buffers at max_sectors_kb=$kb (reads, writes)" \
			"$bios $sectors $bios $sectors" "$(ios_delta "$before")"
		echo "ok: huge-page buffers verified at max_sectors_kb=$kb"
	fi

	# dd's buffer: separate pages, one bio_vec each
	head -c $((total * 1024)) /dev/urandom > "$src"
	before=$(counters)
	dd if="$src" of=/dev/ramlld0 bs=${io}k oflag=direct status=none || fail "dd write ${io}k failed"
	dd if=/dev/ramlld0 of="$back" bs=${io}k count=$ios iflag=direct status=none ||
		fail "dd read ${io}k failed"
	expect_eq "bios served and sectors, ${io} KiB direct I/O at max_sectors_kb=$kb (reads, writes)" \
		"$bios $sectors $bios $sectors" "$(ios_delta "$before")"
	cmp "$src" "$back" || fail "data read back differs at max_sectors_kb=$kb"
	echo "ok: ${total} KiB read back equal at max_sectors_kb=$kb"
done

# One page per bio at the smallest limit: each 4 KiB I/O is one bio, never split or lost.
before=$(counters)
dd if=/dev/ramlld0 of="$back" bs=4k count=64 iflag=direct status=none || fail "dd read 4k failed"
expect_eq "bios served and sectors, 4 KiB direct reads at max_sectors_kb=4" "64 512 0 0" \
	"$(ios_delta "$before")"
cmp -n $((64 * 4096)) "$src" "$back" || fail "4 KiB reads differ from the last data written"
echo "ok: 4 KiB reads equal"
echo "$default_kb" > $q/max_sectors_kb
[ -z "$old_hugepages" ] || echo "$old_hugepages" > $hugepages
rm -f "$src" "$back"
ramlld_unload
