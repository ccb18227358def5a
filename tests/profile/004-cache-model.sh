#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the profiling plugin's cache model (tools/iprofile/cachemodel.h, the code iprofile.c runs) on known access patterns, each count exact: a sweep that fits L1d misses once, one of twice L1d misses every time there under LRU and never in L2, one of twice L2 misses every time in both, LRU (not FIFO) choosing the victim in a set, a store by one CPU invalidating the line in the other's L1d and L2, an access across a line touching both lines, bad parameters refused; and the plugin refusing a bad cache= argument before a guest boots, naming the form allowed
# where: host
# requires: gcc
# timeout: 120
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

cat > "$RESULTS/cm_test.c" << 'EOF'
#include <stdio.h>
#include <string.h>
#include "cachemodel.h"

static int bad;
static struct cm_cpu cpu[2];
/* L1d 1 KiB 2-way (8 sets), L2 4 KiB 4-way (16 sets), 64 B lines */
static const struct cm_params P = { 1024, 2, 4096, 4, 64 };

static void expect(const char *what, unsigned long long got, unsigned long long want)
{
	printf("%s: %s: %llu (expected %llu)\n", got == want ? "ok" : "FAIL", what, got, want);
	bad += got != want;
}

static void reset(void)
{
	int k;

	for (k = 0; k < 2; k++) {
		cm_cpu_free(&cpu[k]);
		memset(&cpu[k], 0, sizeof(cpu[k]));
		if (cm_cpu_init(&cpu[k], &P))
			abort();
	}
}

/* CPU c touches 8-byte words every line of [0, bytes), loads; returns L1d misses, *m2 L2 */
static unsigned int sweep(int c, unsigned int bytes, unsigned int *m2)
{
	unsigned int a, m1 = 0, l2;

	*m2 = 0;
	for (a = 0; a < bytes; a += 64) {
		m1 += cm_touch(cpu, 2, c, 0x100000 + a, 8, 0, 6, &l2);
		*m2 += l2;
	}
	return m1;
}

static unsigned int one(int c, unsigned long long pa, unsigned int size, int store, unsigned int *m2)
{
	return cm_touch(cpu, 2, c, pa, size, store, 6, m2);
}

int main(void)
{
	struct cm_params p = P;
	unsigned int m1, m2, l2;

	reset();
	m1 = sweep(0, 1024, &m2);
	expect("1 KiB sweep (L1d's size), first pass: L1d misses", m1, 16);
	expect("1 KiB sweep, first pass: L2 misses", m2, 16);
	m1 = sweep(0, 1024, &m2);
	expect("1 KiB sweep, second pass: L1d misses", m1, 0);
	expect("1 KiB sweep, second pass: accesses counted", cpu[0].accesses, 32);

	reset();
	sweep(0, 2048, &m2);
	m1 = sweep(0, 2048, &m2);
	expect("2 KiB sweep (2x L1d), second pass: L1d misses (LRU thrashes)", m1, 32);
	expect("2 KiB sweep, second pass: L2 misses (fits L2)", m2, 0);

	reset();
	sweep(0, 8192, &m2);
	m1 = sweep(0, 8192, &m2);
	expect("8 KiB sweep (2x L2), second pass: L1d misses", m1, 128);
	expect("8 KiB sweep, second pass: L2 misses", m2, 128);
	expect("8 KiB sweep: the CPU's L2 miss total", cpu[0].l2_misses, 256);

	/* lines 0, 8, 16 share L1d set 0 (8 sets, 2 ways): A B A C A */
	reset();
	one(0, 0, 8, 0, &l2);
	one(0, 8 * 64, 8, 0, &l2);
	one(0, 0, 8, 0, &l2);
	expect("A B A C: C evicts B, the least recently used (L1d misses of C)", one(0, 16 * 64, 8, 0, &l2), 1);
	expect("then A hits (LRU keeps it; FIFO would evict it)", one(0, 0, 8, 0, &l2), 0);
	expect("then B misses L1d", one(0, 8 * 64, 8, 0, &l2), 1);
	expect("and hits L2", l2, 0);

	reset();
	one(0, 4096, 8, 0, &l2);
	expect("CPU 0 reads a line twice: the second hits", one(0, 4096, 8, 0, &l2), 0);
	expect("CPU 1 stores to it: a miss on CPU 1", one(1, 4096 + 8, 8, 1, &l2), 1);
	expect("CPU 0 reads it again: L1d miss (invalidated)", one(0, 4096, 8, 0, &l2), 1);
	expect("and L2 miss (invalidated there too)", l2, 1);
	expect("CPU 1's copy was not invalidated by CPU 0's read", one(1, 4096, 8, 0, &l2), 0);
	expect("CPU 0's store then CPU 1's read: L1d miss", (one(0, 4096, 8, 1, &l2), one(1, 4096, 8, 0, &l2)), 1);

	reset();
	expect("8 bytes at offset 60: two lines, two L1d misses", one(0, 60, 8, 0, &l2), 2);
	expect("its accesses: two lines", cpu[0].accesses, 2);
	expect("8 bytes at offset 56: one line", one(0, 128 + 56, 8, 0, &l2), 1);

	expect("valid parameters accepted", cm_check(&P) == NULL, 1);
	p.line = 48;
	expect("line 48 refused", cm_check(&p) != NULL, 1);
	p = P;
	p.l1d_size = 1536;
	expect("L1d of 12 sets refused", cm_check(&p) != NULL, 1);
	p = P;
	p.l2_assoc = 0;
	expect("L2 of 0 ways refused", cm_check(&p) != NULL, 1);
	cm_cpu_free(&cpu[0]);
	cm_cpu_free(&cpu[1]);
	return bad ? 1 : 0;
}
EOF
gcc -std=gnu11 -O1 -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=all \
	-I"$TOP/tools/iprofile" -o "$RESULTS/cm_test" "$RESULTS/cm_test.c" || fail "the cache model test does not build"
"$RESULTS/cm_test" || fail "the cache model's counts are wrong"

# A bad cache= stops QEMU before the guest boots (only where the plugin builds: its header is
# Debian's, fetched once by tools/iprofile/header).
if so=$("$TOP/tools/iprofile/build" --no-fetch system 2> "$RESULTS/build.err"); then
	rc=0
	"$TOP/tools/vm/run" --clock icount --cpus 1 --qemu system --plugin "$so,out=$RESULTS/x,cache=32768:8:1048576:16:48" \
		--timeout 60 -- true > /dev/null 2> "$RESULTS/badarg.err" <&- || rc=$?
	cat "$RESULTS/badarg.err"
	[ "$rc" != 0 ] || fail "the plugin took cache=...:48"
	grep -q "bad cache '32768:8:1048576:16:48' (allowed: line: a power of two >= 8)" "$RESULTS/badarg.err" ||
		fail "the refusal does not name the bad value and what is allowed"
	echo "ok: the plugin refuses a line of 48 bytes"
else
	cat "$RESULTS/build.err"
	echo "not checked: the plugin's refusal of a bad cache= (no qemu-plugin.h: tools/iprofile/header fetch system)"
fi
