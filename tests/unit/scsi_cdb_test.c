// SPDX-License-Identifier: GPL-2.0
/*
 * scsi_cdb_test.c - host unit tests of drivers/scsi_cdb.c: the values of
 * every data-in page, the sense of every error, allocation length
 * truncation, LBA range boundaries and MODE SELECT round trips.
 *
 *   cc -Wall -Wextra -Werror -fsanitize=address,undefined -Idrivers \
 *      tests/unit/scsi_cdb_test.c drivers/scsi_cdb.c && ./a.out
 *
 * Buffers are malloc()ed at their exact size so that ASan catches a byte
 * written past din_cap or read past dout_len.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scsi_cdb.h"
#include "unit_check.h"

static struct ramlld_cdb_dev dev;
static struct ramlld_cdb_result res;
static u8 din[RAMLLD_CDB_BUF_LEN];

static void dev_setup(u64 nr_blocks, u32 bs)
{
	memset(&dev, 0, sizeof(dev));
	dev.nr_blocks = nr_blocks;
	dev.block_size = bs;
	dev.lbppbe = 3;
	dev.wce_default = true;
	dev.index = 0x1a;
	dev.target = 0;
	dev.lun = 2;
	dev.tgt_nr_luns = 4;
	dev.max_xfer_blocks = 2048;
	dev.opt_xfer_blocks = 0;
	dev.max_unmap_blocks = 131072;
	dev.max_unmap_desc = 4;
	dev.unmap_gran_blocks = 8;
	dev.max_ws_blocks = 131072;
	dev.max_cw_blocks = 8;
	dev.lba_run = NULL;
	ramlld_cdb_dev_reset(&dev, RAMLLD_UA_POWER_ON);
	dev.ua = RAMLLD_UA_NONE;	/* most tests start without it */
}

/* Run a CDB with no data-out into the full din buffer. */
static int run(const u8 *cdb, u32 len)
{
	return ramlld_cdb_execute(&dev, cdb, len, NULL, 0, din, sizeof(din), &res);
}

static int run_dout(const u8 *cdb, u32 len, const u8 *dout, u32 dout_len)
{
	u8 *copy = malloc(dout_len ? dout_len : 1);
	int ret;

	if (dout_len)
		memcpy(copy, dout, dout_len);
	ret = ramlld_cdb_execute(&dev, cdb, len, copy, dout_len, NULL, 0, &res);
	/* the action may point into dout: tests look at it before free */
	if (res.block == copy)
		res.block = NULL;
	free(copy);
	return ret;
}

/* Sense key, ASC, ASCQ of the last result, fixed or descriptor format. */
static unsigned int sense_kcq(void)
{
	if (res.status != RAMLLD_CDB_CHECK_CONDITION)
		return 0xffffffff;
	if (res.sense[0] == 0x72)
		return res.sense[1] << 16 | res.sense[2] << 8 | res.sense[3];
	return (res.sense[2] & 0xf) << 16 | res.sense[12] << 8 | res.sense[13];
}

#define KCQ(k, ascq)	((unsigned int)(k) << 16 | (ascq))
#define ILLEGAL(ascq)	KCQ(RAMLLD_SK_ILLEGAL_REQUEST, ascq)

/* Field pointer of fixed sense: (cd << 24 | bpv << 23 | bit << 16 | byte), -1 if none */
static long sks(void)
{
	const u8 *s = res.sense[0] == 0x72 ? &res.sense[12] : &res.sense[15];

	if (res.sense[0] == 0x72 && (res.sense[7] < 8 || res.sense[8] != 0x02))
		return -1;
	if (!(s[0] & 0x80))
		return -1;
	return (long)(!!(s[0] & 0x40)) << 24 | (long)(!!(s[0] & 0x08)) << 23 |
	       (long)(s[0] & 7) << 16 | s[1] << 8 | s[2];
}

#define SKS_CDB(byte, bit)	((1L << 24) | (1L << 23) | ((long)(bit) << 16) | (byte))
#define SKS_CDB_BYTE(byte)	((1L << 24) | (byte))
#define SKS_PARAM(byte, bit)	((1L << 23) | ((long)(bit) << 16) | (byte))
#define SKS_PARAM_BYTE(byte)	(byte)

static u16 be16(const u8 *p)
{
	return p[0] << 8 | p[1];
}

static u32 be32(const u8 *p)
{
	return (u32)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static u64 be64(const u8 *p)
{
	return (u64)be32(p) << 32 | be32(p + 4);
}

static void test_inquiry(void)
{
	u8 cdb[6] = { 0x12, 0, 0, 0, 96, 0 };

	dev_setup(2048, 512);
	CHECK_EQ(run(cdb, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 66);
	CHECK_EQ(din[0], 0x00);
	CHECK_EQ(din[2], 0x06);		/* SPC-4 */
	CHECK_EQ(din[3], 0x12);
	CHECK_EQ(din[4], 61);
	CHECK_EQ(din[7], 0x02);		/* CMDQUE */
	CHECK(!memcmp(&din[8], "RAMLLD  ", 8));
	CHECK_EQ(be16(&din[60]), 0x0460);

	/* allocation length truncates */
	cdb[4] = 5;
	CHECK_EQ(run(cdb, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 5);
	cdb[4] = 0;
	CHECK_EQ(run(cdb, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 0);

	/* page code without EVPD */
	cdb[2] = 0x80;
	cdb[4] = 96;
	CHECK_EQ(run(cdb, 6), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
	CHECK_EQ(sks(), SKS_CDB_BYTE(2));

	/* CMDDT (obsolete) is not accepted */
	cdb[1] = 0x02;
	cdb[2] = 0;
	CHECK_EQ(run(cdb, 6), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB(1, 1));

	/* NACA in the control byte */
	cdb[1] = 0;
	cdb[5] = 0x04;
	CHECK_EQ(run(cdb, 6), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB(5, 2));
}

static void test_vpd(void)
{
	u8 cdb[6] = { 0x12, 0x01, 0x00, 0x01, 0x00, 0 };
	static const u8 pages[] = { 0x00, 0x80, 0x83, 0xb0, 0xb1, 0xb2 };

	dev_setup(2048, 512);
	CHECK_EQ(run(cdb, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 4 + sizeof(pages));
	CHECK_EQ(din[1], 0x00);
	CHECK_EQ(be16(&din[2]), sizeof(pages));
	CHECK(!memcmp(&din[4], pages, sizeof(pages)));

	cdb[2] = 0x80;
	CHECK_EQ(run(cdb, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(din[1], 0x80);
	CHECK_EQ(be16(&din[2]), 12);
	CHECK(!memcmp(&din[4], "RAMLLD-L001A", 12));

	cdb[2] = 0x83;
	CHECK_EQ(run(cdb, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(be16(&din[2]), 36);
	CHECK_EQ(res.din_len, 40);
	CHECK_EQ(din[4], 0x01);		/* binary */
	CHECK_EQ(din[5], 0x03);		/* LU, NAA */
	CHECK_EQ(din[7], 8);
	CHECK_EQ(be64(&din[8]), 0x352414d4c4c4401aull);
	CHECK_EQ(din[8] >> 4, 3);	/* NAA 3, locally assigned */
	CHECK_EQ(din[16], 0x02);	/* ASCII */
	CHECK_EQ(din[17], 0x01);	/* LU, T10 vendor ID */
	CHECK_EQ(din[19], 20);
	CHECK(!memcmp(&din[20], "RAMLLD  RAMLLD-L001A", 20));
	/* another index, another NAA; the same index, the same NAA */
	dev.index = 0x1b;
	CHECK_EQ(run(cdb, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(be64(&din[8]), 0x352414d4c4c4401bull);

	cdb[2] = 0xb0;
	CHECK_EQ(run(cdb, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 64);
	CHECK_EQ(be16(&din[2]), 0x3c);
	CHECK_EQ(din[4], 0x01);			/* WSNZ */
	CHECK_EQ(din[5], 8);			/* max compare and write */
	CHECK_EQ(be16(&din[6]), 8);		/* 1 << lbppbe */
	CHECK_EQ(be32(&din[8]), 2048);		/* max transfer */
	CHECK_EQ(be32(&din[12]), 0);		/* optimal transfer */
	CHECK_EQ(be32(&din[20]), 131072);	/* max unmap LBA count */
	CHECK_EQ(be32(&din[24]), 4);		/* max unmap descriptors */
	CHECK_EQ(be32(&din[28]), 8);		/* unmap granularity */
	CHECK_EQ(be32(&din[32]), 0x80000000);	/* UGAVALID */
	CHECK_EQ(be64(&din[36]), 131072);	/* max write same */

	cdb[2] = 0xb1;
	CHECK_EQ(run(cdb, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 64);
	CHECK_EQ(be16(&din[4]), 1);		/* non-rotating */
	dev.rotational = true;			/* rotational=1 */
	CHECK_EQ(run(cdb, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(be16(&din[4]), 7200);		/* 7200 rpm: sd keeps add_random */
	dev.rotational = false;

	cdb[2] = 0xb2;
	CHECK_EQ(run(cdb, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 8);
	CHECK_EQ(be16(&din[2]), 4);
	CHECK_EQ(din[5], 0xe4);			/* LBPU LBPWS LBPWS10 LBPRZ */
	CHECK_EQ(din[6] & 7, 2);		/* thin */

	/* truncated page, and an unsupported one */
	cdb[2] = 0xb0;
	cdb[3] = 0;
	cdb[4] = 10;
	CHECK_EQ(run(cdb, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 10);
	cdb[2] = 0x89;
	CHECK_EQ(run(cdb, 6), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
	CHECK_EQ(sks(), SKS_CDB_BYTE(2));
}

static void test_read_capacity(void)
{
	u8 rc10[10] = { 0x25 };
	u8 rc16[16] = { 0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0 };

	dev_setup(2048, 512);
	CHECK_EQ(run(rc10, 10), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 8);
	CHECK_EQ(be32(&din[0]), 2047);
	CHECK_EQ(be32(&din[4]), 512);

	CHECK_EQ(run(rc16, 16), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 32);
	CHECK_EQ(be64(&din[0]), 2047);
	CHECK_EQ(be32(&din[8]), 512);
	CHECK_EQ(din[13], 3);			/* lbppbe */
	CHECK_EQ(din[14], 0xc0);		/* LBPME LBPRZ */
	rc16[13] = 12;
	CHECK_EQ(run(rc16, 16), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 12);

	dev_setup(0x100000000ull + 5, 4096);
	CHECK_EQ(run(rc10, 10), RAMLLD_CDB_GOOD);
	CHECK_EQ(be32(&din[0]), 0xffffffff);
	CHECK_EQ(be32(&din[4]), 4096);
	rc16[13] = 32;
	CHECK_EQ(run(rc16, 16), RAMLLD_CDB_GOOD);
	CHECK_EQ(be64(&din[0]), 0x100000004ull);

	/* the obsolete PMI/LBA fields of RC10 must be zero */
	rc10[8] = 1;
	CHECK_EQ(run(rc10, 10), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB(8, 0));
	/* SERVICE ACTION IN(16) with a service action not supported */
	rc16[1] = 0x13;
	CHECK_EQ(run(rc16, 16), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
	CHECK_EQ(sks(), SKS_CDB(1, 4));
}

static void mk_rw(u8 *cdb, u32 len, u8 op, u64 lba, u32 nr)
{
	memset(cdb, 0, len);
	cdb[0] = op;
	switch (len) {
	case 6:
		cdb[1] = (lba >> 16) & 0x1f;
		cdb[2] = lba >> 8;
		cdb[3] = lba;
		cdb[4] = nr;
		break;
	case 10:
		cdb[2] = lba >> 24; cdb[3] = lba >> 16; cdb[4] = lba >> 8; cdb[5] = lba;
		cdb[7] = nr >> 8; cdb[8] = nr;
		break;
	case 12:
		cdb[2] = lba >> 24; cdb[3] = lba >> 16; cdb[4] = lba >> 8; cdb[5] = lba;
		cdb[6] = nr >> 24; cdb[7] = nr >> 16; cdb[8] = nr >> 8; cdb[9] = nr;
		break;
	case 16:
		for (int i = 0; i < 8; i++)
			cdb[2 + i] = lba >> (56 - 8 * i);
		cdb[10] = nr >> 24; cdb[11] = nr >> 16; cdb[12] = nr >> 8; cdb[13] = nr;
		break;
	}
}

static void test_rw(void)
{
	static const struct { u8 op; u32 len; bool write; } ops[] = {
		{ 0x08, 6, false }, { 0x0a, 6, true }, { 0x28, 10, false },
		{ 0x2a, 10, true }, { 0xa8, 12, false }, { 0xaa, 12, true },
		{ 0x88, 16, false }, { 0x8a, 16, true },
	};
	u8 cdb[16];

	dev_setup(2048, 512);
	for (unsigned int i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		u8 op = ops[i].op;
		u32 len = ops[i].len;
		u8 want = ops[i].write ? RAMLLD_CDB_WRITE : RAMLLD_CDB_READ;

		/* the last block */
		mk_rw(cdb, len, op, 2047, 1);
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_GOOD);
		CHECK_EQ(res.action, want);
		CHECK_EQ(res.lba, 2047);
		CHECK_EQ(res.nr_blocks, 1);
		CHECK_EQ(res.din_len, 0);
		/* one past the end */
		mk_rw(cdb, len, op, 2047, 2);
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));
		CHECK_EQ(sks(), -1);
		mk_rw(cdb, len, op, 2048, 1);
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));
		if (len == 6) {
			/* transfer length 0 means 256 blocks */
			mk_rw(cdb, len, op, 0, 0);
			CHECK_EQ(run(cdb, len), RAMLLD_CDB_GOOD);
			CHECK_EQ(res.nr_blocks, 256);
			continue;
		}
		/* zero blocks: nothing to do, even at the end */
		mk_rw(cdb, len, op, 2048, 0);
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_GOOD);
		CHECK_EQ(res.action, RAMLLD_CDB_NONE);
		mk_rw(cdb, len, op, 2049, 0);
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_CHECK_CONDITION);
		/* FUA: accepted, a plain transfer (the store is the medium) */
		mk_rw(cdb, len, op, 0, 8);
		cdb[1] = 0x08;
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_GOOD);
		CHECK_EQ(res.nr_blocks, 8);
		/* RDPROTECT/WRPROTECT: no protection information */
		cdb[1] = 0x20;
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
		CHECK_EQ(sks(), SKS_CDB(1, 5));
		/* NACA in the CONTROL byte: outside the usage data, found there */
		mk_rw(cdb, len, op, 0, 8);
		cdb[len - 1] = 0x04;
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
		CHECK_EQ(sks(), SKS_CDB(len - 1, 2));
	}

	/* lba + length overflowing 64 bits */
	mk_rw(cdb, 16, 0x88, 0xffffffffffffffffull, 2);
	CHECK_EQ(run(cdb, 16), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));
	mk_rw(cdb, 16, 0x8a, 0xfffffffffffffff0ull, 0x20);
	CHECK_EQ(run(cdb, 16), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));

	/* more than the maximum transfer length, inside the capacity */
	dev_setup(1 << 20, 512);
	mk_rw(cdb, 16, 0x88, 0, 2049);
	CHECK_EQ(run(cdb, 16), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
	CHECK_EQ(sks(), SKS_CDB_BYTE(10));
	mk_rw(cdb, 10, 0x2a, 0, 2049);
	CHECK_EQ(run(cdb, 10), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB_BYTE(7));
	mk_rw(cdb, 16, 0x88, 0, 2048);
	CHECK_EQ(run(cdb, 16), RAMLLD_CDB_GOOD);

	/* a CDB shorter than its opcode's */
	mk_rw(cdb, 16, 0x88, 0, 1);
	CHECK_EQ(run(cdb, 10), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));

	/*
	 * ramlld_cdb_is_rw(): the eight READ/WRITE opcodes and no other, and
	 * none of them wants data-out or a data-in buffer (scsi.c skips
	 * asking for them on its word)
	 */
	for (unsigned int op = 0; op < 256; op++) {
		bool rw = false;

		for (unsigned int i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
			rw |= ops[i].op == op;
		memset(cdb, 0, sizeof(cdb));
		cdb[0] = op;
		CHECK_EQ(ramlld_cdb_is_rw(cdb), rw);
		if (rw) {
			CHECK_EQ(ramlld_cdb_dout_len(&dev, cdb, 16), 0);
			CHECK_EQ(ramlld_cdb_din_len(cdb, 16), 0);
		}
	}
}

static void test_unsupported(void)
{
	static const u8 ops[] = { 0x01, 0x04, 0x2e, 0x3b, 0x3c, 0x4c, 0x5e,
				  0x7f, 0x83, 0x8e, 0x9f, 0xa4, 0xab, 0xc0, 0xff };
	u8 cdb[32];

	dev_setup(2048, 512);
	for (unsigned int i = 0; i < sizeof(ops); i++) {
		memset(cdb, 0, sizeof(cdb));
		cdb[0] = ops[i];
		CHECK_EQ(run(cdb, 32), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_OPCODE));
		CHECK_EQ(res.sense[0], 0x70);
		CHECK_EQ(res.sense_len, 18);
		CHECK_EQ(res.sense[7], 10);
	}
	CHECK_EQ(ramlld_cdb_execute(&dev, cdb, 0, NULL, 0, din, sizeof(din), &res),
		 RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_OPCODE));
}

static void mode_sense6(u8 dbd, u8 pc_page, u8 subpage, u8 alloc)
{
	u8 cdb[6] = { 0x1a, dbd, pc_page, subpage, alloc, 0 };

	run(cdb, 6);
}

static void test_mode_sense(void)
{
	u8 ms10[10] = { 0x5a, 0x10, 0x3f, 0, 0, 0, 0, 0x01, 0x00, 0 };

	dev_setup(2048, 512);
	/* caching page, current, with a block descriptor */
	mode_sense6(0, 0x08, 0, 255);
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 4 + 8 + 20);
	CHECK_EQ(din[0], 4 + 8 + 20 - 1);
	CHECK_EQ(din[2], 0x10);			/* DPOFUA */
	CHECK_EQ(din[3], 8);
	CHECK_EQ(be32(&din[4]), 2048);
	CHECK_EQ(be32(&din[8]) & 0xffffff, 512);
	CHECK_EQ(din[12], 0x08);
	CHECK_EQ(din[13], 0x12);
	CHECK_EQ(din[14], 0x04);		/* WCE */

	/* DBD, control page */
	mode_sense6(0x08, 0x0a, 0, 255);
	CHECK_EQ(res.din_len, 4 + 12);
	CHECK_EQ(din[3], 0);
	CHECK_EQ(din[4], 0x0a);
	CHECK_EQ(din[5], 0x0a);
	CHECK_EQ(din[6], 0x02);			/* GLTSD, D_SENSE 0 */

	/* changeable values */
	mode_sense6(0x08, 0x40 | 0x3f, 0, 255);
	CHECK_EQ(res.din_len, 4 + 20 + 12);
	CHECK_EQ(din[2], 0);
	CHECK_EQ(din[4 + 2], 0x04);		/* WCE */
	CHECK_EQ(din[4 + 20 + 2], 0x04);	/* D_SENSE */
	CHECK_EQ(din[4 + 20 + 3], 0);

	/* default values follow write_cache=0 */
	dev.wce_default = false;
	mode_sense6(0x08, 0x80 | 0x08, 0, 255);
	CHECK_EQ(din[4 + 2], 0);
	mode_sense6(0x08, 0x08, 0, 255);
	CHECK_EQ(din[4 + 2], 0x04);		/* current is still on */

	/* all pages, all subpages */
	mode_sense6(0, 0x3f, 0xff, 255);
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 4 + 8 + 20 + 12);
	/* truncated */
	mode_sense6(0, 0x3f, 0, 7);
	CHECK_EQ(res.din_len, 7);
	CHECK_EQ(din[0], 4 + 8 + 20 + 12 - 1);

	/* saved values: not supported */
	mode_sense6(0, 0xc0 | 0x08, 0, 255);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_SAVING_NOT_SUPP));
	CHECK_EQ(sks(), SKS_CDB(2, 7));
	/* unsupported page and subpage */
	mode_sense6(0, 0x1c, 0, 255);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
	CHECK_EQ(sks(), SKS_CDB(2, 5));
	mode_sense6(0, 0x08, 0x01, 255);
	CHECK_EQ(sks(), SKS_CDB_BYTE(3));

	/* MODE SENSE(10), long LBA descriptor */
	CHECK_EQ(run(ms10, 10), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 8 + 16 + 20 + 12);
	CHECK_EQ(be16(&din[0]), 8 + 16 + 20 + 12 - 2);
	CHECK_EQ(din[3], 0x10);
	CHECK_EQ(din[4], 0x01);			/* LONGLBA */
	CHECK_EQ(be16(&din[6]), 16);
	CHECK_EQ(be64(&din[8]), 2048);
	CHECK_EQ(be32(&din[20]), 512);
	CHECK_EQ(din[24], 0x08);
	CHECK_EQ(din[44], 0x0a);
	ms10[1] = 0x00;
	CHECK_EQ(run(ms10, 10), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 8 + 8 + 20 + 12);
	CHECK_EQ(be16(&din[6]), 8);

	/* a capacity past 32 bits in the short descriptor */
	dev_setup(0x123456789ull, 512);
	mode_sense6(0, 0x08, 0, 255);
	CHECK_EQ(be32(&din[4]), 0xffffffff);
}

static void mode_select6(const u8 *data, u32 plen, u32 dout_len)
{
	u8 cdb[6] = { 0x15, 0x10, 0, 0, (u8)plen, 0 };

	run_dout(cdb, 6, data, dout_len);
}

static void test_mode_select(void)
{
	u8 caching[4 + 20], control[8 + 12], both[4 + 8 + 20 + 12];
	u8 ms10[10] = { 0x55, 0x10, 0, 0, 0, 0, 0, 0, sizeof(control), 0 };

	dev_setup(2048, 512);
	/* read the caching page as sd does, clear WCE, write it back */
	mode_sense6(0x08, 0x08, 0, 255);
	memcpy(caching, din, sizeof(caching));
	caching[0] = 0;
	caching[4 + 2] &= ~0x04;
	mode_select6(caching, sizeof(caching), sizeof(caching));
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	CHECK_EQ(dev.wce, 0);
	mode_sense6(0x08, 0x08, 0, 255);
	CHECK_EQ(din[4 + 2], 0x00);
	caching[4 + 2] |= 0x04;
	mode_select6(caching, sizeof(caching), sizeof(caching));
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	mode_sense6(0x08, 0x08, 0, 255);
	CHECK_EQ(din[4 + 2], 0x04);

	/* a bit that cannot change: RCD */
	caching[4 + 2] |= 0x01;
	mode_select6(caching, sizeof(caching), sizeof(caching));
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_PARAM));
	CHECK_EQ(sks(), SKS_PARAM(6, 0));
	caching[4 + 2] &= ~0x01;
	/* a wrong page length */
	caching[4 + 1] = 0x10;
	mode_select6(caching, sizeof(caching), sizeof(caching));
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_PARAM));
	CHECK_EQ(sks(), SKS_PARAM_BYTE(5));
	caching[4 + 1] = 0x12;
	/* the page cut short by the parameter list length */
	mode_select6(caching, sizeof(caching) - 1, sizeof(caching) - 1);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_PARAM_LIST_LENGTH));
	/* shorter than the header */
	mode_select6(caching, 3, 3);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_PARAM_LIST_LENGTH));
	/* less data-out than the parameter list length */
	mode_select6(caching, sizeof(caching), sizeof(caching) - 4);
	CHECK_EQ(sense_kcq(), KCQ(RAMLLD_SK_ABORTED_COMMAND, RAMLLD_ASC_DATA_PHASE_ERROR));
	/* an unsupported page */
	caching[4] = 0x1c;
	mode_select6(caching, sizeof(caching), sizeof(caching));
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_PARAM));
	CHECK_EQ(sks(), SKS_PARAM(4, 5));
	caching[4] = 0x08;
	/* SP=1 and PF=0 */
	{
		u8 cdb[6] = { 0x15, 0x11, 0, 0, sizeof(caching), 0 };

		run_dout(cdb, 6, caching, sizeof(caching));
		CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
		CHECK_EQ(sks(), SKS_CDB(1, 0));
		cdb[1] = 0;
		run_dout(cdb, 6, caching, sizeof(caching));
		CHECK_EQ(sks(), SKS_CDB(1, 4));
		cdb[4] = 0;	/* an empty list is fine */
		run_dout(cdb, 6, caching, 0);
		CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	}

	/* with a block descriptor: the current geometry only */
	mode_sense6(0, 0x3f, 0, 255);
	memcpy(both, din, sizeof(both));
	both[0] = 0;
	mode_select6(both, sizeof(both), sizeof(both));
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	both[4 + 6] = 0x10;	/* block length 4096 + 512 */
	mode_select6(both, sizeof(both), sizeof(both));
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_PARAM));
	CHECK_EQ(sks(), SKS_PARAM_BYTE(9));
	both[4 + 6] = 0x02;
	both[3] = 4;		/* a block descriptor length of 4 */
	mode_select6(both, sizeof(both), sizeof(both));
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_PARAM));
	CHECK_EQ(sks(), SKS_PARAM_BYTE(3));

	/* MODE SELECT(10): D_SENSE on, then sense comes in descriptor format */
	memset(control, 0, sizeof(control));
	memcpy(&control[8], (u8[]){ 0x0a, 0x0a, 0x06, 0x10 }, 4);
	run_dout(ms10, 10, control, sizeof(control));
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	CHECK_EQ(dev.d_sense, 1);
	mode_sense6(0x08, 0x0a, 0, 255);
	CHECK_EQ(din[4 + 2], 0x06);
	{
		u8 cdb[6] = { 0x12, 0x01, 0x42, 0, 255, 0 };

		run(cdb, 6);
		CHECK_EQ(res.sense[0], 0x72);
		CHECK_EQ(res.sense_len, 16);
		CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
		CHECK_EQ(res.sense[7], 8);
		CHECK_EQ(res.sense[8], 0x02);
		CHECK_EQ(res.sense[9], 0x06);
		CHECK_EQ(sks(), SKS_CDB_BYTE(2));
		cdb[0] = 0xee;	/* descriptor sense without a field pointer */
		run(cdb, 6);
		CHECK_EQ(res.sense_len, 8);
		CHECK_EQ(res.sense[7], 0);
		CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_OPCODE));
	}
	/* a non-changeable bit of the control page (TST) */
	control[8 + 2] = 0x24;
	run_dout(ms10, 10, control, sizeof(control));
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_PARAM));
	CHECK_EQ(sks(), SKS_PARAM(10, 5));
	/* nothing changed on failure; back to fixed */
	CHECK_EQ(dev.d_sense, 1);
	control[8 + 2] = 0x02;
	run_dout(ms10, 10, control, sizeof(control));
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	CHECK_EQ(dev.d_sense, 0);
	/* a power-on reset restores the defaults */
	dev.wce = 0;
	ramlld_cdb_dev_reset(&dev, RAMLLD_UA_POWER_ON);
	CHECK_EQ(dev.wce, 1);
}

static void test_report_luns(void)
{
	u8 cdb[12] = { 0xa0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 };

	dev_setup(2048, 512);
	CHECK_EQ(run(cdb, 12), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 8 + 4 * 8);
	CHECK_EQ(be32(&din[0]), 32);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(din[8 + 8 * i], 0);
		CHECK_EQ(din[8 + 8 * i + 1], i);
	}
	dev.tgt_nr_luns = 300;
	CHECK_EQ(run(cdb, 12), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 256);			/* allocation length */
	cdb[8] = 0x10;
	CHECK_EQ(run(cdb, 12), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 8 + 300 * 8);
	CHECK_EQ(din[8 + 8 * 299], 0x41);		/* flat space, 299 */
	CHECK_EQ(din[8 + 8 * 299 + 1], 299 & 0xff);
	cdb[2] = 0x01;					/* well-known only */
	CHECK_EQ(run(cdb, 12), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 8);
	CHECK_EQ(be32(&din[0]), 0);
	cdb[2] = 0x05;
	CHECK_EQ(run(cdb, 12), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB_BYTE(2));
}

static void test_unit_attention(void)
{
	u8 tur[6] = { 0 }, inq[6] = { 0x12, 0, 0, 0, 36, 0 };
	u8 rs[6] = { 0x03, 0, 0, 0, 252, 0 };

	dev_setup(2048, 512);
	ramlld_cdb_dev_reset(&dev, RAMLLD_UA_POWER_ON);
	/* INQUIRY does not report it */
	CHECK_EQ(run(inq, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(run(tur, 6), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), KCQ(RAMLLD_SK_UNIT_ATTENTION, RAMLLD_ASC_POWER_ON));
	CHECK_EQ(run(tur, 6), RAMLLD_CDB_GOOD);
	/* the higher precedence wins; REQUEST SENSE returns and clears it */
	ramlld_cdb_dev_reset(&dev, RAMLLD_UA_DEVICE_RESET);
	ramlld_cdb_dev_reset(&dev, RAMLLD_UA_BUS_RESET);
	ramlld_cdb_dev_reset(&dev, RAMLLD_UA_DEVICE_RESET);
	CHECK_EQ(run(rs, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 18);
	CHECK_EQ(din[0], 0x70);
	CHECK_EQ(din[2], RAMLLD_SK_UNIT_ATTENTION);
	CHECK_EQ(din[12], 0x29);
	CHECK_EQ(din[13], 0x02);
	CHECK_EQ(run(rs, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(din[2], RAMLLD_SK_NO_SENSE);
	CHECK_EQ(din[12], 0);
	/* descriptor format on request */
	rs[1] = 1;
	CHECK_EQ(run(rs, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 8);
	CHECK_EQ(din[0], 0x72);
	rs[1] = 0;
	rs[4] = 4;
	CHECK_EQ(run(rs, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 4);
}

static void test_start_stop(void)
{
	u8 ssu[6] = { 0x1b, 0, 0, 0, 0x00, 0 }, tur[6] = { 0 };
	u8 rd[10], rs[6] = { 0x03, 0, 0, 0, 18, 0 }, inq[6] = { 0x12, 0, 0, 0, 36, 0 };
	u8 pa[6] = { 0x1e, 0, 0, 0, 0x01, 0 };

	dev_setup(2048, 512);
	CHECK_EQ(run(ssu, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(run(tur, 6), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), KCQ(RAMLLD_SK_NOT_READY, RAMLLD_ASC_NOT_READY_INIT_REQ));
	mk_rw(rd, 10, 0x28, 0, 1);
	CHECK_EQ(run(rd, 10), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(run(inq, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(run(rs, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(din[2], RAMLLD_SK_NOT_READY);
	ssu[4] = 0x01;
	CHECK_EQ(run(ssu, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(run(tur, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(run(rd, 10), RAMLLD_CDB_GOOD);
	/* a power condition is not supported */
	ssu[4] = 0x31;
	CHECK_EQ(run(ssu, 6), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB(4, 5));
	CHECK_EQ(run(pa, 6), RAMLLD_CDB_GOOD);
	pa[4] = 0x04;
	CHECK_EQ(run(pa, 6), RAMLLD_CDB_CHECK_CONDITION);
}

static void put_desc(u8 *p, u64 lba, u32 nr)
{
	for (int i = 0; i < 8; i++)
		p[i] = lba >> (56 - 8 * i);
	p[8] = nr >> 24; p[9] = nr >> 16; p[10] = nr >> 8; p[11] = nr;
	p[12] = p[13] = p[14] = p[15] = 0;
}

static void test_unmap(void)
{
	u8 cdb[10] = { 0x42, 0, 0, 0, 0, 0, 0, 0, 8 + 32, 0 };
	u8 list[8 + 5 * 16];
	u64 lba;
	u32 nr;

	dev_setup(2048, 512);
	memset(list, 0, sizeof(list));
	list[1] = 6 + 32;
	list[3] = 32;
	put_desc(&list[8], 0, 8);
	put_desc(&list[24], 2040, 8);
	CHECK_EQ(ramlld_cdb_dout_len(&dev, cdb, 10), 40);
	CHECK_EQ(run_dout(cdb, 10, list, 40), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_UNMAP);
	CHECK_EQ(res.nr_desc, 2);
	ramlld_cdb_unmap_desc(list, 1, &lba, &nr);
	CHECK_EQ(lba, 2040);
	CHECK_EQ(nr, 8);
	/* past the end */
	put_desc(&list[24], 2041, 8);
	CHECK_EQ(run_dout(cdb, 10, list, 40), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));
	put_desc(&list[24], 0xffffffffffffff00ull, 0x200);
	CHECK_EQ(run_dout(cdb, 10, list, 40), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));
	/* more blocks than the maximum unmap LBA count */
	dev_setup(1 << 20, 512);
	put_desc(&list[24], 0, 131073);
	CHECK_EQ(run_dout(cdb, 10, list, 40), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_PARAM));
	CHECK_EQ(sks(), SKS_PARAM_BYTE(32));
	/* the count bounds the whole command: 131072 in two descriptors, then one more */
	put_desc(&list[8], 0, 65536);
	put_desc(&list[24], 65536, 65536);
	CHECK_EQ(run_dout(cdb, 10, list, 40), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.nr_desc, 2);
	put_desc(&list[24], 65536, 65537);
	CHECK_EQ(run_dout(cdb, 10, list, 40), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_PARAM));
	CHECK_EQ(sks(), SKS_PARAM_BYTE(32));
	put_desc(&list[8], 0, 8);
	/* more descriptors than allowed (4) */
	put_desc(&list[24], 0, 8);
	for (int i = 2; i < 5; i++)
		put_desc(&list[8 + 16 * i], 16 * i, 8);
	list[3] = 80;
	cdb[8] = sizeof(list);
	CHECK_EQ(run_dout(cdb, 10, list, sizeof(list)), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_PARAM));
	CHECK_EQ(sks(), SKS_PARAM_BYTE(2));
	/* an incomplete last descriptor is ignored */
	list[3] = 64 + 8;
	CHECK_EQ(run_dout(cdb, 10, list, sizeof(list)), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.nr_desc, 4);
	/* parameter list shorter than the header; empty; short data-out */
	cdb[8] = 4;
	CHECK_EQ(run_dout(cdb, 10, list, 4), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_PARAM_LIST_LENGTH));
	cdb[8] = 0;
	CHECK_EQ(run_dout(cdb, 10, list, 0), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_NONE);
	cdb[8] = 40;
	CHECK_EQ(run_dout(cdb, 10, list, 39), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), KCQ(RAMLLD_SK_ABORTED_COMMAND, RAMLLD_ASC_DATA_PHASE_ERROR));
	/* ANCHOR is not supported */
	cdb[1] = 0x01;
	CHECK_EQ(run_dout(cdb, 10, list, 40), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB(1, 0));
}

static void test_write_same(void)
{
	u8 ws16[16], ws10[10];
	u8 *block = calloc(1, 4096);

	dev_setup(2048, 512);
	mk_rw(ws16, 16, 0x93, 2040, 8);
	ws16[1] = 0x08;		/* UNMAP */
	CHECK_EQ(ramlld_cdb_dout_len(&dev, ws16, 16), 512);
	CHECK_EQ(run_dout(ws16, 16, block, 512), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_DISCARD);
	CHECK_EQ(res.lba, 2040);
	CHECK_EQ(res.nr_blocks, 8);
	block[100] = 0x5a;
	CHECK_EQ(run_dout(ws16, 16, block, 512), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_FILL);
	/* NDOB: no data-out, zeros */
	ws16[1] = 0x09;
	CHECK_EQ(ramlld_cdb_dout_len(&dev, ws16, 16), 0);
	CHECK_EQ(run_dout(ws16, 16, block, 0), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_DISCARD);
	CHECK(res.block != NULL);
	/* short data-out */
	ws16[1] = 0;
	CHECK_EQ(run_dout(ws16, 16, block, 511), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), KCQ(RAMLLD_SK_ABORTED_COMMAND, RAMLLD_ASC_DATA_PHASE_ERROR));
	/* 0 blocks (WSNZ), past the end, past the maximum */
	mk_rw(ws16, 16, 0x93, 0, 0);
	CHECK_EQ(run_dout(ws16, 16, block, 512), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB_BYTE(10));
	mk_rw(ws16, 16, 0x93, 2040, 9);
	CHECK_EQ(run_dout(ws16, 16, block, 512), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));
	dev_setup(1 << 20, 512);
	mk_rw(ws16, 16, 0x93, 0, 131073);
	CHECK_EQ(run_dout(ws16, 16, block, 512), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
	/* WRITE SAME(10), 4096-byte blocks */
	dev_setup(256, 4096);
	mk_rw(ws10, 10, 0x41, 255, 1);
	ws10[1] = 0x08;
	CHECK_EQ(ramlld_cdb_dout_len(&dev, ws10, 10), 4096);
	CHECK_EQ(run_dout(ws10, 10, block, 4096), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_FILL);
	ws10[1] = 0x10;		/* ANCHOR */
	CHECK_EQ(run_dout(ws10, 10, block, 4096), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB(1, 4));
	free(block);
}

static void test_sync_verify(void)
{
	u8 sc10[10], sc16[16], v10[10], v16[16];

	dev_setup(2048, 512);
	mk_rw(sc10, 10, 0x35, 0, 0);
	CHECK_EQ(run(sc10, 10), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_SYNC);
	CHECK_EQ(res.nr_blocks, 2048);
	sc10[1] = 0x02;		/* IMMED */
	CHECK_EQ(run(sc10, 10), RAMLLD_CDB_GOOD);
	mk_rw(sc16, 16, 0x91, 2047, 1);
	CHECK_EQ(run(sc16, 16), RAMLLD_CDB_GOOD);
	mk_rw(sc16, 16, 0x91, 2048, 0);
	CHECK_EQ(run(sc16, 16), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));

	mk_rw(v10, 10, 0x2f, 2000, 48);
	CHECK_EQ(run(v10, 10), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_VERIFY);
	mk_rw(v16, 16, 0x8f, 2000, 49);
	CHECK_EQ(run(v16, 16), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));
	/* VERIFY is not limited by the maximum transfer length */
	dev_setup(1 << 20, 512);
	mk_rw(v16, 16, 0x8f, 0, 1 << 20);
	CHECK_EQ(run(v16, 16), RAMLLD_CDB_GOOD);
}

static void test_report_opcodes(void)
{
	u8 cdb[12] = { 0xa3, 0x0c, 0x00, 0, 0, 0, 0, 0, 0x10, 0, 0, 0 };
	unsigned int n, i, found_rc16 = 0;

	dev_setup(2048, 512);
	CHECK_EQ(run(cdb, 12), RAMLLD_CDB_GOOD);
	n = be32(&din[0]) / 8;
	CHECK_EQ(res.din_len, 4 + n * 8);
	CHECK_EQ(n, 36);
	for (i = 0; i < n; i++) {
		const u8 *d = &din[4 + 8 * i];

		if (d[0] == 0x9e && be16(&d[2]) == 0x10) {
			found_rc16 = 1;
			CHECK_EQ(be16(&d[2]), 0x10);
			CHECK_EQ(d[5], 0x01);
			CHECK_EQ(be16(&d[6]), 16);
		}
		if (d[0] == 0x28)
			CHECK_EQ(be16(&d[6]), 10);
	}
	CHECK(found_rc16);
	/* with timeouts descriptors */
	cdb[2] = 0x80;
	CHECK_EQ(run(cdb, 12), RAMLLD_CDB_GOOD);
	CHECK_EQ(be32(&din[0]), 36 * 20);
	CHECK_EQ(din[4 + 5], 0x02);
	CHECK_EQ(be16(&din[4 + 8]), 0x0a);

	/* one command: READ(16), usage data as checked */
	cdb[2] = 0x01;
	cdb[3] = 0x88;
	CHECK_EQ(run(cdb, 12), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 4 + 16);
	CHECK_EQ(din[1], 0x03);
	CHECK_EQ(be16(&din[2]), 16);
	CHECK_EQ(din[4], 0x88);
	CHECK_EQ(din[5], 0x18);
	CHECK_EQ(din[6], 0xff);
	CHECK_EQ(din[18], 0x00);
	CHECK_EQ(din[19], 0x00);
	/* an unsupported opcode */
	cdb[3] = 0x04;
	CHECK_EQ(run(cdb, 12), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 4);
	CHECK_EQ(din[1], 0x01);
	/* option 1 on a command with service actions */
	cdb[3] = 0x9e;
	CHECK_EQ(run(cdb, 12), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
	/* option 2: READ CAPACITY(16) */
	cdb[2] = 0x82;
	cdb[5] = 0x10;
	CHECK_EQ(run(cdb, 12), RAMLLD_CDB_GOOD);
	CHECK_EQ(din[1], 0x83);
	CHECK_EQ(din[5], 0x10);
	CHECK_EQ(res.din_len, 4 + 16 + 12);
	cdb[5] = 0x11;
	CHECK_EQ(run(cdb, 12), RAMLLD_CDB_GOOD);
	CHECK_EQ(din[1], 0x01);
	/* option 2 on a command without */
	cdb[3] = 0x28;
	CHECK_EQ(run(cdb, 12), RAMLLD_CDB_CHECK_CONDITION);
	/* reserved option */
	cdb[2] = 0x04;
	CHECK_EQ(run(cdb, 12), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB(2, 2));
}

/* Every command, every small din_cap: nothing written past it. */
static void test_small_buffers(void)
{
	static const u8 cdbs[][16] = {
		{ 0x12, 0, 0, 0x10, 0 },
		{ 0x12, 1, 0x83, 0x10, 0 },
		{ 0x12, 1, 0xb0, 0x10, 0 },
		{ 0x1a, 0, 0x3f, 0, 0xff, 0 },
		{ 0x5a, 0x10, 0x3f, 0, 0, 0, 0, 0x10, 0, 0 },
		{ 0x25 },
		{ 0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 },
		{ 0xa0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0 },
		{ 0xa3, 0x0c, 0x80, 0, 0, 0, 0, 0, 0x10, 0, 0, 0 },
		{ 0x03, 0, 0, 0, 0xff, 0 },
	};

	dev_setup(2048, 512);
	for (unsigned int i = 0; i < sizeof(cdbs) / sizeof(cdbs[0]); i++) {
		for (u32 cap = 0; cap < 80; cap++) {
			u8 *buf = malloc(cap ? cap : 1);

			ramlld_cdb_execute(&dev, cdbs[i], 16, NULL, 0, buf, cap, &res);
			CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
			CHECK(res.din_len <= cap);
			free(buf);
		}
	}
}

/* MEDIUM ERROR with the failing LBA in INFORMATION, both sense formats. */
static void test_medium_error(void)
{
	dev_setup(1 << 20, 512);
	memset(&res, 0xa5, sizeof(res));
	ramlld_cdb_set_medium_error(&dev, &res, false, 0x12345);
	CHECK_EQ(res.status, RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(res.action, RAMLLD_CDB_NONE);
	CHECK_EQ(res.sense_len, 18);
	CHECK_EQ(sense_kcq(), KCQ(RAMLLD_SK_MEDIUM_ERROR, 0x1100));
	CHECK_EQ(res.sense[0], 0xf0);	/* VALID | current, fixed */
	CHECK_EQ(be32(&res.sense[3]), 0x12345);
	CHECK_EQ(res.sense[7], 10);
	CHECK_EQ(sks(), -1);

	ramlld_cdb_set_medium_error(&dev, &res, true, 0);
	CHECK_EQ(sense_kcq(), KCQ(RAMLLD_SK_MEDIUM_ERROR, 0x0c00));
	CHECK_EQ(res.sense[0], 0xf0);
	CHECK_EQ(be32(&res.sense[3]), 0);

	/* an LBA beyond 32 bits does not fit fixed INFORMATION: VALID clear */
	ramlld_cdb_set_medium_error(&dev, &res, true, 0x100000000ULL);
	CHECK_EQ(res.sense[0], 0x70);
	CHECK_EQ(be32(&res.sense[3]), 0);

	/* descriptor format (D_SENSE): an information descriptor, 64-bit */
	dev.d_sense = 1;
	ramlld_cdb_set_medium_error(&dev, &res, false, 0x123456789aULL);
	CHECK_EQ(res.sense_len, 20);
	CHECK_EQ(res.sense[0], 0x72);
	CHECK_EQ(sense_kcq(), KCQ(RAMLLD_SK_MEDIUM_ERROR, 0x1100));
	CHECK_EQ(res.sense[7], 12);
	CHECK_EQ(res.sense[8], 0x00);
	CHECK_EQ(res.sense[9], 0x0a);
	CHECK_EQ(res.sense[10], 0x80);
	CHECK_EQ(be64(&res.sense[12]), 0x123456789aULL);
	ramlld_cdb_set_medium_error(&dev, &res, true, 7);
	CHECK_EQ(sense_kcq(), KCQ(RAMLLD_SK_MEDIUM_ERROR, 0x0c00));
	CHECK_EQ(be64(&res.sense[12]), 7);
	dev.d_sense = 0;
}

/* VERIFY(10/12/16): every bit of byte 1, BYTCHK 00b/01b/10b/11b, the limits. */
static void test_verify_bytchk(void)
{
	static const struct { u8 op; u32 len; int group; } ops[] = {
		{ 0x2f, 10, 6 }, { 0xaf, 12, 10 }, { 0x8f, 16, 14 },
	};
	u8 cdb[16];
	u8 *block = calloc(1, 4096);

	for (unsigned int i = 0; i < 3; i++) {
		u8 op = ops[i].op;
		u32 len = ops[i].len;
		int len_byte = len == 10 ? 7 : len == 12 ? 6 : 10;

		dev_setup(1 << 20, 512);
		/* 00b: a range check */
		mk_rw(cdb, len, op, 100, 16);
		CHECK_EQ(ramlld_cdb_dout_len(&dev, cdb, len), 0);
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_GOOD);
		CHECK_EQ(res.action, RAMLLD_CDB_VERIFY);
		CHECK_EQ(res.lba, 100);
		CHECK_EQ(res.nr_blocks, 16);
		/* 01b: the blocks of the request's own data-out, not handed over */
		cdb[1] = 0x02;
		CHECK_EQ(ramlld_cdb_dout_len(&dev, cdb, len), 0);
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_GOOD);
		CHECK_EQ(res.action, RAMLLD_CDB_COMPARE);
		CHECK_EQ(res.lba, 100);
		CHECK_EQ(res.nr_blocks, 16);
		/* 11b: one block of data-out */
		cdb[1] = 0x06;
		CHECK_EQ(ramlld_cdb_dout_len(&dev, cdb, len), 512);
		CHECK_EQ(ramlld_cdb_execute(&dev, cdb, len, block, 512, NULL, 0, &res),
			 RAMLLD_CDB_GOOD);
		CHECK_EQ(res.action, RAMLLD_CDB_COMPARE_SAME);
		CHECK(res.block == block);
		CHECK_EQ(res.nr_blocks, 16);
		CHECK_EQ(run_dout(cdb, len, block, 511), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sense_kcq(), KCQ(RAMLLD_SK_ABORTED_COMMAND, RAMLLD_ASC_DATA_PHASE_ERROR));
		/* 10b: reserved, pointer at BYTCHK's high bit */
		cdb[1] = 0x04;
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
		CHECK_EQ(sks(), SKS_CDB(1, 2));
		/* DPO is read; VRPROTECT, the obsolete bit 0, the group number are not */
		cdb[1] = 0x12;
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_GOOD);
		CHECK_EQ(res.action, RAMLLD_CDB_COMPARE);
		for (int bit = 5; bit <= 7; bit++) {
			cdb[1] = 1 << bit;
			CHECK_EQ(run(cdb, len), RAMLLD_CDB_CHECK_CONDITION);
			CHECK_EQ(sks(), SKS_CDB(1, bit));
		}
		cdb[1] = 0x01;
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sks(), SKS_CDB(1, 0));
		cdb[1] = 0x02;
		cdb[ops[i].group] = 0x01;
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sks(), SKS_CDB(ops[i].group, 0));
		cdb[ops[i].group] = 0;
		/* 01b: the maximum transfer length; 11b: the maximum WRITE SAME length */
		mk_rw(cdb, len, op, 0, 2049);
		cdb[1] = 0x02;
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sks(), SKS_CDB_BYTE(len_byte));
		cdb[1] = 0x06;
		CHECK_EQ(run_dout(cdb, len, block, 512), RAMLLD_CDB_GOOD);
		CHECK_EQ(res.action, RAMLLD_CDB_COMPARE_SAME);
		if (len != 10) {
			mk_rw(cdb, len, op, 0, 131073);
			cdb[1] = 0x06;
			CHECK_EQ(run_dout(cdb, len, block, 512), RAMLLD_CDB_CHECK_CONDITION);
			CHECK_EQ(sks(), SKS_CDB_BYTE(len_byte));
		}
		/* 0 blocks: nothing transferred, not even the one block of 11b */
		mk_rw(cdb, len, op, 1 << 20, 0);
		cdb[1] = 0x06;
		CHECK_EQ(ramlld_cdb_dout_len(&dev, cdb, len), 0);
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_GOOD);
		CHECK_EQ(res.action, RAMLLD_CDB_NONE);
		/* past the end, 0 blocks or not: LBA OUT OF RANGE before anything else */
		mk_rw(cdb, len, op, (1 << 20) + 1, 0);
		cdb[1] = 0x02;
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));
		mk_rw(cdb, len, op, (1 << 20) - 1, 2);
		cdb[1] = 0x06;
		CHECK_EQ(run_dout(cdb, len, block, 512), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));
	}
	/* 4096-byte blocks: the one block is 4096 bytes */
	dev_setup(256, 4096);
	mk_rw(cdb, 16, 0x8f, 0, 256);
	cdb[1] = 0x06;
	CHECK_EQ(ramlld_cdb_dout_len(&dev, cdb, 16), 4096);
	CHECK_EQ(run_dout(cdb, 16, block, 4095), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(run_dout(cdb, 16, block, 4096), RAMLLD_CDB_GOOD);
	free(block);
}

/* MISCOMPARE: 0E/1D/00 with the offset in INFORMATION, both formats. */
static void test_miscompare(void)
{
	dev_setup(2048, 512);
	ramlld_cdb_set_miscompare(&dev, &res, 1234);
	CHECK_EQ(res.status, RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(res.action, RAMLLD_CDB_NONE);
	CHECK_EQ(sense_kcq(), KCQ(RAMLLD_SK_MISCOMPARE, RAMLLD_ASC_MISCOMPARE_VERIFY));
	CHECK_EQ(res.sense[0], 0xf0);		/* VALID */
	CHECK_EQ(be32(&res.sense[3]), 1234);
	CHECK_EQ(res.sense_len, 18);
	CHECK_EQ(sks(), -1);
	ramlld_cdb_set_miscompare(&dev, &res, 0);
	CHECK_EQ(res.sense[0], 0xf0);
	CHECK_EQ(be32(&res.sense[3]), 0);
	dev.d_sense = 1;
	ramlld_cdb_set_miscompare(&dev, &res, 0x100000005ull);
	CHECK_EQ(res.sense[0], 0x72);
	CHECK_EQ(sense_kcq(), KCQ(RAMLLD_SK_MISCOMPARE, RAMLLD_ASC_MISCOMPARE_VERIFY));
	CHECK_EQ(res.sense[8], 0x00);
	CHECK_EQ(res.sense[10], 0x80);
	CHECK_EQ(be64(&res.sense[12]), 0x100000005ull);
	CHECK_EQ(res.sense_len, 20);
}

/* PRE-FETCH(10/16): CONDITION MET, IMMED, range checks, refused bits. */
static void test_prefetch(void)
{
	static const struct { u8 op; u32 len; int group; } ops[] = {
		{ 0x34, 10, 6 }, { 0x90, 16, 14 },
	};
	u8 cdb[16];

	dev_setup(1 << 20, 512);
	for (unsigned int i = 0; i < 2; i++) {
		u8 op = ops[i].op;
		u32 len = ops[i].len;

		mk_rw(cdb, len, op, 0, 0xffff);
		CHECK_EQ(ramlld_cdb_dout_len(&dev, cdb, len), 0);
		CHECK_EQ(ramlld_cdb_din_len(cdb, len), 0);
		/* more than the maximum transfer length: nothing is transferred */
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_CONDITION_MET);
		CHECK_EQ(res.status, RAMLLD_CDB_CONDITION_MET);
		CHECK_EQ(res.sense_len, 0);
		CHECK_EQ(res.action, RAMLLD_CDB_NONE);
		cdb[1] = 0x02;		/* IMMED */
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_CONDITION_MET);
		/* the last block; 0 blocks: to the end */
		mk_rw(cdb, len, op, (1 << 20) - 1, 1);
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_CONDITION_MET);
		mk_rw(cdb, len, op, 5, 0);
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_CONDITION_MET);
		mk_rw(cdb, len, op, (1 << 20) - 1, 2);
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));
		mk_rw(cdb, len, op, 1 << 20, 0);
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));
		/* byte 1: only IMMED; the group number is not supported */
		mk_rw(cdb, len, op, 0, 1);
		for (int bit = 0; bit <= 7; bit++) {
			if (bit == 1)
				continue;
			cdb[1] = 1 << bit;
			CHECK_EQ(run(cdb, len), RAMLLD_CDB_CHECK_CONDITION);
			CHECK_EQ(sks(), SKS_CDB(1, bit));
		}
		cdb[1] = 0;
		cdb[ops[i].group] = 0x10;
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sks(), SKS_CDB(ops[i].group, 4));
		cdb[ops[i].group] = 0;
		/* not while stopped */
		dev.stopped = 1;
		CHECK_EQ(run(cdb, len), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sense_kcq(), KCQ(RAMLLD_SK_NOT_READY, RAMLLD_ASC_NOT_READY_INIT_REQ));
		dev.stopped = 0;
	}
	/* a 64-bit LBA past the end */
	mk_rw(cdb, 16, 0x90, 0xffffffffffffffffull, 1);
	CHECK_EQ(run(cdb, 16), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));
}

static void mk_cw(u8 *cdb, u64 lba, u8 nr)
{
	memset(cdb, 0, 16);
	cdb[0] = 0x89;
	for (int i = 0; i < 8; i++)
		cdb[2 + i] = lba >> (56 - 8 * i);
	cdb[13] = nr;
}

/* COMPARE AND WRITE: data-out length, limits, every byte-1 bit, reserved bytes. */
static void test_compare_write(void)
{
	u8 cdb[16];
	u8 *dout = calloc(1, 8192);

	dev_setup(2048, 512);
	mk_cw(cdb, 2040, 8);
	CHECK_EQ(ramlld_cdb_dout_len(&dev, cdb, 16), 8192);
	CHECK_EQ(ramlld_cdb_execute(&dev, cdb, 16, dout, 8192, NULL, 0, &res),
		 RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_COMPARE_WRITE);
	CHECK_EQ(res.lba, 2040);
	CHECK_EQ(res.nr_blocks, 8);
	/* DPO and FUA are read (and need nothing of a RAM store) */
	cdb[1] = 0x18;
	CHECK_EQ(run_dout(cdb, 16, dout, 8192), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_COMPARE_WRITE);
	/* WRPROTECT, reserved and obsolete (FUA_NV) bits are not */
	for (int bit = 0; bit <= 7; bit++) {
		if (bit == 3 || bit == 4)
			continue;
		cdb[1] = 1 << bit;
		CHECK_EQ(run_dout(cdb, 16, dout, 8192), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
		CHECK_EQ(sks(), SKS_CDB(1, bit));
	}
	cdb[1] = 0;
	for (int byte = 10; byte <= 14; byte++) {
		if (byte == 13)
			continue;
		cdb[byte] = 0x01;
		CHECK_EQ(run_dout(cdb, 16, dout, 8192), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sks(), SKS_CDB(byte, 0));
		cdb[byte] = 0;
	}
	/* short data-out: the write half is missing a byte */
	CHECK_EQ(run_dout(cdb, 16, dout, 8191), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), KCQ(RAMLLD_SK_ABORTED_COMMAND, RAMLLD_ASC_DATA_PHASE_ERROR));
	/* more than MAXIMUM COMPARE AND WRITE LENGTH (VPD B0: 8) */
	mk_cw(cdb, 0, 9);
	CHECK_EQ(run_dout(cdb, 16, dout, 8192), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
	CHECK_EQ(sks(), SKS_CDB_BYTE(13));
	dev.max_cw_blocks = 1;
	mk_cw(cdb, 0, 2);
	CHECK_EQ(run_dout(cdb, 16, dout, 2048), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB_BYTE(13));
	dev.max_cw_blocks = 8;
	/* out of range wins over the length */
	mk_cw(cdb, 2047, 9);
	CHECK_EQ(run_dout(cdb, 16, dout, 8192), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));
	mk_cw(cdb, 2041, 8);
	CHECK_EQ(run_dout(cdb, 16, dout, 8192), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));
	mk_cw(cdb, 0xffffffffffffffffull, 1);
	CHECK_EQ(run_dout(cdb, 16, dout, 1024), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));
	/* 0 blocks: nothing compared or written, not an error */
	mk_cw(cdb, 2048, 0);
	CHECK_EQ(ramlld_cdb_dout_len(&dev, cdb, 16), 0);
	CHECK_EQ(run_dout(cdb, 16, dout, 0), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_NONE);
	/* 4096-byte blocks: one block, 8192 bytes of data-out */
	dev_setup(256, 4096);
	dev.max_cw_blocks = 1;
	mk_cw(cdb, 255, 1);
	CHECK_EQ(ramlld_cdb_dout_len(&dev, cdb, 16), 8192);
	CHECK_EQ(run_dout(cdb, 16, dout, 8192), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_COMPARE_WRITE);
	/* a front end claiming more than fits the buffer is held to it */
	dev.max_cw_blocks = 255;
	mk_cw(cdb, 0, 2);
	CHECK_EQ(run_dout(cdb, 16, dout, 8192), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB_BYTE(13));
	free(dout);
}

/* WRITE SAME: UNMAP, NDOB, ANCHOR and the zero block (SBC-4 5.49/5.50). */
static void test_write_same_provisioning(void)
{
	u8 ws16[16], ws10[10];
	u8 *zero = calloc(1, 4096), *data = calloc(1, 4096);

	data[7] = 1;
	dev_setup(2048, 512);
	/* UNMAP=0: written, zeros included (the blocks are mapped after) */
	mk_rw(ws16, 16, 0x93, 8, 8);
	CHECK_EQ(run_dout(ws16, 16, zero, 512), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_FILL);
	mk_rw(ws10, 10, 0x41, 8, 8);
	CHECK_EQ(run_dout(ws10, 10, zero, 512), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_FILL);
	/* NDOB without UNMAP: zeros written */
	ws16[1] = 0x01;
	CHECK_EQ(ramlld_cdb_dout_len(&dev, ws16, 16), 0);
	CHECK_EQ(run_dout(ws16, 16, zero, 0), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_FILL);
	CHECK(res.block != NULL);
	for (int i = 0; res.block && i < 512; i++)
		if (res.block[i])
			CHECK_EQ(res.block[i], 0);
	/* UNMAP=1 and zeros (from data-out or NDOB): deallocated */
	ws16[1] = 0x09;
	CHECK_EQ(run_dout(ws16, 16, zero, 0), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_DISCARD);
	ws16[1] = 0x08;
	CHECK_EQ(run_dout(ws16, 16, zero, 512), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_DISCARD);
	ws10[1] = 0x08;
	CHECK_EQ(run_dout(ws10, 10, zero, 512), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_DISCARD);
	/* UNMAP=1 and data that is not zero: written */
	CHECK_EQ(run_dout(ws10, 10, data, 512), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.action, RAMLLD_CDB_FILL);
	/* ANCHOR, with or without UNMAP: no anchored state (ANC_SUP=0) */
	ws16[1] = 0x10;
	CHECK_EQ(run_dout(ws16, 16, zero, 512), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB(1, 4));
	ws16[1] = 0x18;
	CHECK_EQ(run_dout(ws16, 16, zero, 512), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB(1, 4));
	/* WRPROTECT, PBDATA, LBDATA; NDOB does not exist in WRITE SAME(10) */
	for (int bit = 0; bit <= 7; bit++) {
		if (bit == 3)
			continue;
		ws10[1] = 1 << bit;
		CHECK_EQ(run_dout(ws10, 10, zero, 512), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sks(), SKS_CDB(1, bit));
		if (bit == 0)
			continue;
		ws16[1] = 1 << bit;
		if (bit != 4) {
			CHECK_EQ(run_dout(ws16, 16, zero, 512), RAMLLD_CDB_CHECK_CONDITION);
			CHECK_EQ(sks(), SKS_CDB(1, bit));
		}
	}
	/* group number */
	mk_rw(ws16, 16, 0x93, 8, 8);
	ws16[14] = 0x01;
	CHECK_EQ(run_dout(ws16, 16, zero, 512), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB(14, 0));
	/* MAXIMUM WRITE SAME LENGTH: the limit passes, one more does not, UNMAP or not */
	dev_setup(1 << 20, 512);
	mk_rw(ws16, 16, 0x93, 0, 131072);
	ws16[1] = 0x09;
	CHECK_EQ(run_dout(ws16, 16, zero, 0), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.nr_blocks, 131072);
	mk_rw(ws16, 16, 0x93, 0, 131073);
	ws16[1] = 0x09;
	CHECK_EQ(run_dout(ws16, 16, zero, 0), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB_BYTE(10));
	/* WRITE SAME(10): its 16-bit length never reaches the limit */
	mk_rw(ws10, 10, 0x41, 0, 0xffff);
	CHECK_EQ(run_dout(ws10, 10, data, 512), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.nr_blocks, 0xffff);
	free(zero);
	free(data);
}

/* A provisioning map of 8-block pages for GET LBA STATUS: mapped pages set. */
static const u8 *fake_map;

static u64 fake_lba_run(const struct ramlld_cdb_dev *d, u64 lba, u64 max, bool *mapped)
{
	u64 run = 0;
	bool m = fake_map[lba / 8];

	(void)d;
	while (run < max && (bool)fake_map[(lba + run) / 8] == m)
		run += 8 - (lba + run) % 8;
	*mapped = m;
	return run < max ? run : max;
}

static void glbas(u64 lba, u32 alloc)
{
	u8 cdb[16] = { 0x9e, 0x12 };

	for (int i = 0; i < 8; i++)
		cdb[2 + i] = lba >> (56 - 8 * i);
	cdb[10] = alloc >> 24;
	cdb[11] = alloc >> 16;
	cdb[12] = alloc >> 8;
	cdb[13] = alloc;
	run(cdb, 16);
}

/* GET LBA STATUS: exact extents from the front end's runs, limits, fields. */
static void test_get_lba_status(void)
{
	static u8 map[256];
	u8 cdb[16] = { 0x9e, 0x12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 24, 0, 0 };

	/* pages 0-1 mapped, 2-9 holes, 10 mapped, the rest holes */
	memset(map, 0, sizeof(map));
	map[0] = map[1] = map[10] = 1;
	fake_map = map;
	dev_setup(2048, 512);
	dev.lba_run = fake_lba_run;
	CHECK_EQ(ramlld_cdb_din_len(cdb, 16), RAMLLD_CDB_BUF_LEN);
	glbas(0, 8 + 16 * 8);
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	CHECK_EQ(be32(&din[0]), 4 + 16 * 4);
	CHECK_EQ(res.din_len, 8 + 16 * 4);
	CHECK_EQ(be64(&din[8]), 0);
	CHECK_EQ(be32(&din[16]), 16);
	CHECK_EQ(din[20], 0);			/* mapped */
	CHECK_EQ(be64(&din[24]), 16);
	CHECK_EQ(be32(&din[32]), 64);
	CHECK_EQ(din[36], 1);			/* deallocated */
	CHECK_EQ(be64(&din[40]), 80);
	CHECK_EQ(be32(&din[48]), 8);
	CHECK_EQ(din[52], 0);
	CHECK_EQ(be64(&din[56]), 88);
	CHECK_EQ(be32(&din[64]), 2048 - 88);	/* to the end */
	CHECK_EQ(din[68], 1);
	CHECK_EQ(din[69], 0);			/* additional status */
	/* from inside a run: the run's rest */
	glbas(3, 8 + 16 * 8);
	CHECK_EQ(be64(&din[8]), 3);
	CHECK_EQ(be32(&din[16]), 13);
	CHECK_EQ(be64(&din[24]), 16);
	/* the allocation length bounds the descriptors: 24 bytes, one */
	glbas(0, 24);
	CHECK_EQ(res.din_len, 24);
	CHECK_EQ(be32(&din[0]), 20);
	CHECK_EQ(be32(&din[16]), 16);
	glbas(0, 40);
	CHECK_EQ(be32(&din[0]), 36);
	CHECK_EQ(res.din_len, 40);
	/* shorter than one descriptor: one descriptor's length, truncated */
	glbas(0, 10);
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 10);
	CHECK_EQ(be32(&din[0]), 20);
	glbas(0, 0);
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 0);
	/* the last block; one past it */
	glbas(2047, 24);
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	CHECK_EQ(be64(&din[8]), 2047);
	CHECK_EQ(be32(&din[16]), 1);
	glbas(2048, 24);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));
	glbas(0xffffffffffffffffull, 24);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_LBA_OUT_OF_RANGE));
	/* no front end map: everything mapped, to the end */
	dev.lba_run = NULL;
	glbas(100, 4096);
	CHECK_EQ(be32(&din[0]), 20);
	CHECK_EQ(be32(&din[16]), 1948);
	CHECK_EQ(din[20], 0);
	/* a huge unit: the scan stops at RAMLLD_CDB_LBA_STATUS_SCAN_BYTES */
	dev_setup(1ull << 40, 512);
	glbas(0, 4096);
	CHECK_EQ(be32(&din[0]), 20);
	CHECK_EQ(be32(&din[16]), RAMLLD_CDB_LBA_STATUS_SCAN_BYTES / 512);
	/* byte 14 (report type) and the control byte are not read; other SAs */
	cdb[14] = 0x01;
	CHECK_EQ(run(cdb, 16), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB(14, 0));
	cdb[14] = 0;
	cdb[1] = 0x13;
	CHECK_EQ(run(cdb, 16), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB(1, 4));
	cdb[1] = 0x32;			/* bits 7..5 of byte 1 */
	CHECK_EQ(run(cdb, 16), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB(1, 5));
}

static void log_sense(u8 b1, u8 pc_page, u8 subpage, u16 ppc, u16 alloc)
{
	u8 cdb[10] = { 0x4d, b1, pc_page, subpage, 0, (u8)(ppc >> 8), (u8)ppc,
		       (u8)(alloc >> 8), (u8)alloc, 0 };

	run(cdb, 10);
}

/* LOG SENSE: the pages' bytes, subpage lists, PC/PPC/SP, pointer, allocation length. */
static void test_log_sense(void)
{
	dev_setup(2048, 512);
	/* supported pages */
	log_sense(0, 0x40, 0, 0, 255);
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 8);
	CHECK_EQ(din[0], 0x00);
	CHECK_EQ(din[1], 0x00);
	CHECK_EQ(be16(&din[2]), 4);
	CHECK_EQ(be32(&din[4]), 0x000d112f);
	/* supported pages and subpages */
	log_sense(0, 0x40, 0xff, 0, 255);
	CHECK_EQ(res.din_len, 4 + 16);
	CHECK_EQ(din[0], 0x40);			/* SPF */
	CHECK_EQ(din[1], 0xff);
	CHECK_EQ(be16(&din[2]), 16);
	CHECK_EQ(be32(&din[4]), 0x000000ff);
	CHECK_EQ(be32(&din[8]), 0x0d000dff);
	CHECK_EQ(be32(&din[12]), 0x110011ff);
	CHECK_EQ(be32(&din[16]), 0x2f002fff);
	/* subpages of one page */
	log_sense(0, 0x4d, 0xff, 0, 255);
	CHECK_EQ(res.din_len, 8);
	CHECK_EQ(din[0], 0x4d);
	CHECK_EQ(din[1], 0xff);
	CHECK_EQ(be16(&din[2]), 4);
	CHECK_EQ(be32(&din[4]), 0x0d000dff);
	/* temperature: two parameters, no sensor */
	log_sense(0, 0x4d, 0, 0, 255);
	CHECK_EQ(res.din_len, 16);
	CHECK_EQ(din[0], 0x0d);
	CHECK_EQ(be16(&din[2]), 12);
	CHECK_EQ(be16(&din[4]), 0x0000);
	CHECK_EQ(din[6], 0x03);
	CHECK_EQ(din[7], 2);
	CHECK_EQ(din[9], 0xff);
	CHECK_EQ(be16(&din[10]), 0x0001);
	CHECK_EQ(din[12], 0x03);
	CHECK_EQ(din[13], 2);
	CHECK_EQ(din[15], 0xff);
	/* the parameter pointer: from parameter 0001h */
	log_sense(0, 0x4d, 0, 1, 255);
	CHECK_EQ(res.din_len, 10);
	CHECK_EQ(be16(&din[2]), 6);
	CHECK_EQ(be16(&din[4]), 0x0001);
	log_sense(0, 0x4d, 0, 2, 255);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
	CHECK_EQ(sks(), SKS_CDB_BYTE(5));
	log_sense(0, 0x40, 0, 1, 255);
	CHECK_EQ(sks(), SKS_CDB_BYTE(5));
	log_sense(0, 0x40, 0xff, 1, 255);
	CHECK_EQ(sks(), SKS_CDB_BYTE(5));
	/* solid state media: percentage used endurance indicator 0 */
	log_sense(0, 0x51, 0, 0, 255);
	CHECK_EQ(res.din_len, 12);
	CHECK_EQ(din[0], 0x11);
	CHECK_EQ(be16(&din[2]), 8);
	CHECK_EQ(be16(&din[4]), 0x0001);
	CHECK_EQ(din[6], 0x03);
	CHECK_EQ(din[7], 4);
	CHECK_EQ(din[11], 0);
	/* informational exceptions: no failure predicted */
	log_sense(0, 0x6f, 0, 0, 255);
	CHECK_EQ(res.din_len, 12);
	CHECK_EQ(din[0], 0x2f);
	CHECK_EQ(be16(&din[2]), 8);
	CHECK_EQ(be16(&din[4]), 0);
	CHECK_EQ(din[7], 4);
	CHECK_EQ(din[8], 0);			/* ASC */
	CHECK_EQ(din[9], 0);			/* ASCQ */
	CHECK_EQ(din[10], 0xff);		/* temperature: none */
	/* default cumulative values: the same pages */
	log_sense(0, 0xef, 0, 0, 255);
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 12);
	/* thresholds (PC 00b, 10b): none kept */
	log_sense(0, 0x2f, 0, 0, 255);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
	CHECK_EQ(sks(), SKS_CDB(2, 7));
	log_sense(0, 0xad, 0, 0, 255);
	CHECK_EQ(sks(), SKS_CDB(2, 7));
	/* an unsupported page, subpage; SP, PPC, other byte-1 bits, byte 4 */
	log_sense(0, 0x50, 0, 0, 255);
	CHECK_EQ(sks(), SKS_CDB(2, 5));
	log_sense(0, 0x4d, 0x01, 0, 255);
	CHECK_EQ(sks(), SKS_CDB_BYTE(3));
	for (int bit = 0; bit <= 7; bit++) {
		log_sense(1 << bit, 0x4d, 0, 0, 255);
		CHECK_EQ(res.status, RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sks(), SKS_CDB(1, bit));
	}
	{
		u8 cdb[10] = { 0x4d, 0, 0x4d, 0, 0x80, 0, 0, 0, 255, 0 };

		CHECK_EQ(run(cdb, 10), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sks(), SKS_CDB(4, 7));
	}
	/* the allocation length truncates; the page length stays */
	log_sense(0, 0x4d, 0, 0, 6);
	CHECK_EQ(res.din_len, 6);
	CHECK_EQ(be16(&din[2]), 12);
	log_sense(0, 0x40, 0xff, 0, 0);
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 0);
}

static void send_diag(u8 b1, const u8 *list, u16 plen, u32 dout_len)
{
	u8 cdb[6] = { 0x1d, b1, 0, (u8)(plen >> 8), (u8)plen, 0 };

	run_dout(cdb, 6, list, dout_len);
}

/* SEND DIAGNOSTIC and RECEIVE DIAGNOSTIC RESULTS. */
static void test_send_diag(void)
{
	static const u8 page0[4] = { 0x00, 0, 0, 0 };
	u8 bad[8] = { 0x00, 0, 0, 4, 0, 0, 0, 0 };
	u8 rd[6] = { 0x1c, 0x01, 0x00, 0, 255, 0 };

	dev_setup(2048, 512);
	CHECK_EQ(ramlld_cdb_dout_len(&dev, (u8[]){ 0x1d, 0x10, 0, 0, 4, 0 }, 6), 4);
	/* the default self-test, with and without DEVOFFL/UNITOFFL */
	send_diag(0x04, NULL, 0, 0);
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	send_diag(0x07, NULL, 0, 0);
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	send_diag(0x14, NULL, 0, 0);
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	/* with a self-test code, or a parameter list */
	send_diag(0x24, NULL, 0, 0);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
	CHECK_EQ(sks(), SKS_CDB(1, 7));
	send_diag(0x14, page0, 4, 4);
	CHECK_EQ(sks(), SKS_CDB_BYTE(3));
	/* self-test codes: 001b 010b 100b 101b 110b pass, 011b 111b are reserved */
	for (u8 code = 1; code < 8; code++) {
		send_diag(code << 5, NULL, 0, 0);
		if (code == 3 || code == 7) {
			CHECK_EQ(res.status, RAMLLD_CDB_CHECK_CONDITION);
			CHECK_EQ(sks(), SKS_CDB(1, 7));
		} else {
			CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
		}
	}
	send_diag(0xa0, page0, 4, 4);
	CHECK_EQ(sks(), SKS_CDB_BYTE(3));
	/* nothing at all: no operation */
	send_diag(0, NULL, 0, 0);
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	/* a parameter list: PF=1, page 00h only */
	send_diag(0x10, page0, 4, 4);
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	send_diag(0x00, page0, 4, 4);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
	CHECK_EQ(sks(), SKS_CDB(1, 4));
	send_diag(0x10, page0, 4, 3);
	CHECK_EQ(sense_kcq(), KCQ(RAMLLD_SK_ABORTED_COMMAND, RAMLLD_ASC_DATA_PHASE_ERROR));
	send_diag(0x10, page0, 3, 3);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_PARAM_LIST_LENGTH));
	send_diag(0x10, bad, 8, 8);		/* page length 4: 8 bytes, fine */
	CHECK_EQ(res.status, RAMLLD_CDB_GOOD);
	send_diag(0x10, bad, 6, 6);		/* page length 4 in 6 bytes */
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_PARAM_LIST_LENGTH));
	bad[0] = 0x80;
	send_diag(0x10, bad, 8, 8);
	CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_PARAM));
	CHECK_EQ(sks(), SKS_PARAM_BYTE(0));
	/* reserved: byte 1 bit 3, byte 2 */
	send_diag(0x0c, NULL, 0, 0);
	CHECK_EQ(sks(), SKS_CDB(1, 3));
	{
		u8 cdb[6] = { 0x1d, 0x04, 0x01, 0, 0, 0 };

		CHECK_EQ(run(cdb, 6), RAMLLD_CDB_CHECK_CONDITION);
		CHECK_EQ(sks(), SKS_CDB(2, 0));
	}

	/* RECEIVE DIAGNOSTIC RESULTS: the supported pages page */
	CHECK_EQ(ramlld_cdb_din_len(rd, 6), RAMLLD_CDB_BUF_LEN);
	CHECK_EQ(run(rd, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 5);
	CHECK_EQ(din[0], 0x00);
	CHECK_EQ(be16(&din[2]), 1);
	CHECK_EQ(din[4], 0x00);
	rd[4] = 3;
	CHECK_EQ(run(rd, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 3);
	rd[4] = 255;
	rd[2] = 0x01;
	CHECK_EQ(run(rd, 6), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB_BYTE(2));
	rd[1] = 0;		/* PCV=0: the results of the last SEND DIAGNOSTIC */
	CHECK_EQ(run(rd, 6), RAMLLD_CDB_GOOD);
	CHECK_EQ(res.din_len, 5);
	rd[1] = 0x02;
	CHECK_EQ(run(rd, 6), RAMLLD_CDB_CHECK_CONDITION);
	CHECK_EQ(sks(), SKS_CDB(1, 1));
}

/* REPORT SUPPORTED OPERATION CODES: the new commands and their usage data. */
static void test_report_opcodes_new(void)
{
	static const struct { u8 op; u16 sa; u8 len; u8 b1; } cmds[] = {
		{ 0x1c, 0, 6, 0x01 }, { 0x1d, 0, 6, 0xf7 }, { 0x2f, 0, 10, 0x16 },
		{ 0x34, 0, 10, 0x02 }, { 0x4d, 0, 10, 0x00 }, { 0x89, 0, 16, 0x18 },
		{ 0x8f, 0, 16, 0x16 }, { 0x90, 0, 16, 0x02 }, { 0xaf, 0, 12, 0x16 },
		{ 0x9e, 0x12, 16, 0x12 },
	};
	u8 cdb[12] = { 0xa3, 0x0c, 0x00, 0, 0, 0, 0, 0, 0x10, 0, 0, 0 };
	unsigned int n, i, j, found;

	dev_setup(2048, 512);
	CHECK_EQ(run(cdb, 12), RAMLLD_CDB_GOOD);
	n = be32(&din[0]) / 8;
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		found = 0;
		for (j = 0; j < n; j++) {
			const u8 *d = &din[4 + 8 * j];

			if (d[0] == cmds[i].op && be16(&d[2]) == cmds[i].sa &&
			    be16(&d[6]) == cmds[i].len)
				found++;
		}
		CHECK_EQ(found, 1);
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		u8 one[12] = { 0xa3, 0x0c, cmds[i].sa ? 0x02 : 0x01, cmds[i].op,
			       0, (u8)cmds[i].sa, 0, 0, 0x01, 0, 0, 0 };
		u8 probe[16];

		CHECK_EQ(run(one, 12), RAMLLD_CDB_GOOD);
		CHECK_EQ(din[1], 0x03);
		CHECK_EQ(be16(&din[2]), cmds[i].len);
		CHECK_EQ(din[4], cmds[i].op);
		CHECK_EQ(din[5], cmds[i].b1);
		CHECK_EQ(din[4 + cmds[i].len - 1], 0);	/* control byte: NACA unsupported */
		/* the usage data is the check: a bit outside it is refused */
		memcpy(probe, &din[4], cmds[i].len);
		for (j = 2; j < cmds[i].len; j++) {
			u8 outside = (u8)~probe[j];

			if (!outside)
				continue;
			memset(probe, 0, sizeof(probe));
			probe[0] = cmds[i].op;
			probe[1] = cmds[i].op == 0x9e ? 0x12 : 0;
			probe[j] = outside & (u8)-outside;	/* lowest bit outside */
			ramlld_cdb_execute(&dev, probe, cmds[i].len, NULL, 0, din,
					   sizeof(din), &res);
			CHECK_EQ(res.status, RAMLLD_CDB_CHECK_CONDITION);
			CHECK_EQ(sense_kcq(), ILLEGAL(RAMLLD_ASC_INVALID_FIELD_CDB));
			CHECK_EQ(sks() & 0xffff, j);
			run(one, 12);
			memcpy(probe, &din[4], cmds[i].len);
		}
	}
	/* GET LBA STATUS asked by opcode only: it has service actions */
	cdb[2] = 0x01;
	cdb[3] = 0x9e;
	CHECK_EQ(run(cdb, 12), RAMLLD_CDB_CHECK_CONDITION);
	/* an unknown service action of 9Eh */
	cdb[2] = 0x02;
	cdb[5] = 0x13;
	CHECK_EQ(run(cdb, 12), RAMLLD_CDB_GOOD);
	CHECK_EQ(din[1], 0x01);
	cdb[2] = 0x03;
	cdb[5] = 0x12;
	CHECK_EQ(run(cdb, 12), RAMLLD_CDB_GOOD);
	CHECK_EQ(din[1], 0x03);
	CHECK_EQ(din[5], 0x12);
}

int main(void)
{
	test_inquiry();
	test_vpd();
	test_read_capacity();
	test_rw();
	test_unsupported();
	test_mode_sense();
	test_mode_select();
	test_report_luns();
	test_unit_attention();
	test_start_stop();
	test_unmap();
	test_write_same();
	test_sync_verify();
	test_report_opcodes();
	test_small_buffers();
	test_medium_error();
	test_verify_bytchk();
	test_miscompare();
	test_prefetch();
	test_compare_write();
	test_write_same_provisioning();
	test_get_lba_status();
	test_log_sense();
	test_send_diag();
	test_report_opcodes_new();
	printf("scsi_cdb_test: %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
