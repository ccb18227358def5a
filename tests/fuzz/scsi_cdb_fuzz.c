// SPDX-License-Identifier: GPL-2.0
/*
 * scsi_cdb_fuzz.c - libFuzzer target for drivers/scsi_cdb.c.
 *
 *   clang-14 -g -O1 -fsanitize=fuzzer,address,undefined -Idrivers \
 *       tests/fuzz/scsi_cdb_fuzz.c drivers/scsi_cdb.c -o scsi_cdb_fuzz
 *
 * Input: byte 0 picks the logical unit (block size, capacity, D_SENSE,
 * stopped, pending unit attention), byte 1 the CDB length (6, 10, 12, 16, 32
 * or any length up to 32), bytes 2-3 the data-in capacity, byte 4 the
 * data-out length limit; then the CDB, then data-out. Buffers are allocated
 * at their exact size so ASan sees any access past them. Every command runs
 * twice on identical units: status, sense, data-in and action must match.
 * Invariants: din_len <= din_cap, sense only with CHECK CONDITION, an
 * action's range inside the capacity and its data inside data-out, GET LBA
 * STATUS descriptors contiguous from the starting LBA and inside the
 * capacity.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scsi_cdb.h"

/* A provisioning map for GET LBA STATUS: 8-block pages, every third mapped. */
static u64 fuzz_lba_run(const struct ramlld_cdb_dev *dev, u64 lba, u64 max,
			bool *mapped)
{
	bool m = (lba / 8) % 3 == 0;
	u64 run = 8 - lba % 8;

	(void)dev;
	while (run < max && ((lba + run) / 8) % 3 == 0 == m)
		run += 8;
	*mapped = m;
	return run < max ? run : max;
}

static void dev_setup(struct ramlld_cdb_dev *dev, uint8_t sel)
{
	static const u32 bs[] = { 512, 1024, 2048, 4096 };
	static const u64 blocks[] = { 1, 2048, 0xffffffffull, 0x100000001ull };

	memset(dev, 0, sizeof(*dev));
	dev->block_size = bs[sel & 3];
	dev->nr_blocks = blocks[(sel >> 2) & 3];
	dev->lbppbe = (sel >> 4) & 3;
	dev->wce_default = sel & 0x40;
	dev->index = sel;
	dev->lun = sel & 7;
	dev->tgt_nr_luns = 1 + (sel & 0x7f) * 2;
	dev->max_xfer_blocks = (1u << 20) / dev->block_size;
	dev->max_unmap_blocks = (64u << 20) / dev->block_size;
	dev->max_unmap_desc = RAMLLD_CDB_MAX_UNMAP_DESC;
	dev->unmap_gran_blocks = 4096 / dev->block_size;
	dev->max_ws_blocks = dev->max_unmap_blocks;
	dev->max_cw_blocks = 4096 / dev->block_size;
	dev->lba_run = sel & 0x08 ? fuzz_lba_run : NULL;
	ramlld_cdb_dev_reset(dev, RAMLLD_UA_POWER_ON);
	if (!(sel & 0x80))
		dev->ua = RAMLLD_UA_NONE;
	dev->d_sense = (sel >> 5) & 1;
	dev->stopped = (sel >> 6) & (sel >> 7) & 1;
}

struct run {
	struct ramlld_cdb_result res;
	struct ramlld_cdb_dev dev;
	u8 *din;
};

static void run_one(struct run *r, uint8_t sel, const u8 *cdb, u32 cdb_len,
		    const u8 *dout_src, u32 dout_len, u32 din_cap)
{
	u8 *cdb_copy = malloc(cdb_len ? cdb_len : 1);
	u8 *dout = malloc(dout_len ? dout_len : 1);

	memcpy(cdb_copy, cdb, cdb_len);
	memcpy(dout, dout_src, dout_len);
	r->din = malloc(din_cap ? din_cap : 1);
	memset(r->din, 0xa5, din_cap);
	dev_setup(&r->dev, sel);
	ramlld_cdb_dev_reset(&r->dev, RAMLLD_UA_NONE);
	ramlld_cdb_execute(&r->dev, cdb_copy, cdb_len, dout_len ? dout : NULL,
			   dout_len, r->din, din_cap, &r->res);

	/* invariants */
	if (r->res.din_len > din_cap)
		abort();
	if (r->res.status == RAMLLD_CDB_GOOD ||
	    r->res.status == RAMLLD_CDB_CONDITION_MET) {
		if (r->res.sense_len)
			abort();
		if (r->res.status == RAMLLD_CDB_CONDITION_MET &&
		    (r->res.action || r->res.din_len))
			abort();
	} else if (r->res.status != RAMLLD_CDB_CHECK_CONDITION ||
		   r->res.sense_len < 8 || r->res.sense_len > RAMLLD_CDB_SENSE_LEN ||
		   r->res.action != RAMLLD_CDB_NONE || r->res.din_len) {
		abort();
	}
	switch (r->res.action) {
	case RAMLLD_CDB_COMPARE_WRITE:
		if (r->res.nr_blocks > r->dev.max_cw_blocks ||
		    2 * r->res.nr_blocks * r->dev.block_size > dout_len)
			abort();
		/* fall through */
	case RAMLLD_CDB_READ:
	case RAMLLD_CDB_WRITE:
	case RAMLLD_CDB_COMPARE:
		if (r->res.nr_blocks > r->dev.max_xfer_blocks)
			abort();
		/* fall through */
	case RAMLLD_CDB_COMPARE_SAME:
	case RAMLLD_CDB_FILL:
	case RAMLLD_CDB_DISCARD:
	case RAMLLD_CDB_SYNC:
	case RAMLLD_CDB_VERIFY:
		if (!r->res.nr_blocks || r->res.lba >= r->dev.nr_blocks ||
		    r->res.nr_blocks > r->dev.nr_blocks - r->res.lba)
			abort();
		break;
	case RAMLLD_CDB_UNMAP:
		for (u32 i = 0; i < r->res.nr_desc; i++) {
			u64 lba;
			u32 nr;

			if (8 + 16 * (i + 1) > dout_len)
				abort();
			ramlld_cdb_unmap_desc(dout, i, &lba, &nr);
			if (lba > r->dev.nr_blocks || nr > r->dev.nr_blocks - lba)
				abort();
		}
		break;
	default:
		break;
	}
	if (r->res.status == RAMLLD_CDB_GOOD && cdb_len >= 16 &&
	    cdb[0] == 0x9e && (cdb[1] & 0x1f) == 0x12) {
		/* GET LBA STATUS: whole descriptors follow on from the start */
		u32 nr_desc = r->res.din_len >= 24 ? (r->res.din_len - 8) / 16 : 0;
		u64 next = 0;

		for (u32 i = 0; i < nr_desc; i++) {
			const u8 *d = r->din + 8 + 16 * i;
			u64 lba = 0;
			u32 nr = 0;

			for (int k = 0; k < 8; k++)
				lba = lba << 8 | d[k];
			for (int k = 8; k < 12; k++)
				nr = nr << 8 | d[k];
			if ((i && lba != next) || !nr || d[12] > 1 ||
			    lba >= r->dev.nr_blocks || nr > r->dev.nr_blocks - lba)
				abort();
			next = lba + nr;
		}
	}
	if (r->res.action == RAMLLD_CDB_FILL ||
	    r->res.action == RAMLLD_CDB_COMPARE_SAME) {
		/* the block must be readable in full */
		volatile u8 sum = 0;

		for (u32 i = 0; i < r->dev.block_size; i++)
			sum += r->res.block[i];
		(void)sum;
	}
	free(dout);
	free(cdb_copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const u32 lens[] = { 6, 10, 12, 16, 32 };
	struct run a, b;
	u32 cdb_len, din_cap, dout_len;
	uint8_t sel;

	if (size < 5)
		return 0;
	sel = data[0];
	cdb_len = data[1] < 0xc0 ? lens[data[1] % 5] : data[1] & 0x1f;
	din_cap = (u32)data[2] << 8 | data[3];
	if (din_cap > RAMLLD_CDB_BUF_LEN)
		din_cap = RAMLLD_CDB_BUF_LEN;
	data += 5;
	size -= 5;
	if (size < cdb_len)
		return 0;
	dout_len = size - cdb_len;
	if (dout_len > RAMLLD_CDB_BUF_LEN)
		dout_len = RAMLLD_CDB_BUF_LEN;
	if (data[-1] < dout_len)	/* sometimes a short data-out */
		dout_len = data[-1] & 1 ? data[-1] : dout_len;

	run_one(&a, sel, data, cdb_len, data + cdb_len, dout_len, din_cap);
	run_one(&b, sel, data, cdb_len, data + cdb_len, dout_len, din_cap);
	if (a.res.status != b.res.status || a.res.sense_len != b.res.sense_len ||
	    memcmp(a.res.sense, b.res.sense, sizeof(a.res.sense)) ||
	    a.res.din_len != b.res.din_len || a.res.action != b.res.action ||
	    a.res.lba != b.res.lba || a.res.nr_blocks != b.res.nr_blocks ||
	    memcmp(a.din, b.din, a.res.din_len) ||
	    a.dev.wce != b.dev.wce || a.dev.d_sense != b.dev.d_sense)
		abort();
	free(a.din);
	free(b.din);
	return 0;
}
