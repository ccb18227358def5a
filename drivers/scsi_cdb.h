/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scsi_cdb.h - SPC-4/SBC-3 command emulation of the ramlld SCSI LLD.
 *
 * The decision logic (CDB decoding, data-in pages, sense) has no kernel-only
 * dependency: the same scsi_cdb.c builds into the module and, with plain cc,
 * into host unit tests and a libFuzzer target. It never touches a store:
 * a media command comes back as an action (read, write, fill, discard, ...)
 * that the front end (scsi.c) carries out.
 *
 * Buffers: ramlld_cdb_execute() reads at most dout_len bytes of dout and
 * writes at most din_cap bytes of din, whatever the CDB says.
 * Context: does not sleep, takes no lock, allocates nothing.
 */
#ifndef RAMLLD_SCSI_CDB_H
#define RAMLLD_SCSI_CDB_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
#endif

/* SAM status codes */
#define RAMLLD_CDB_GOOD			0x00
#define RAMLLD_CDB_CHECK_CONDITION	0x02
/* PRE-FETCH: the whole range fits the cache (a RAM store: always) */
#define RAMLLD_CDB_CONDITION_MET	0x04

/* Sense keys */
#define RAMLLD_SK_NO_SENSE		0x0
#define RAMLLD_SK_NOT_READY		0x2
#define RAMLLD_SK_MEDIUM_ERROR		0x3
#define RAMLLD_SK_ILLEGAL_REQUEST	0x5
#define RAMLLD_SK_UNIT_ATTENTION	0x6
#define RAMLLD_SK_DATA_PROTECT		0x7
#define RAMLLD_SK_ABORTED_COMMAND	0xb
#define RAMLLD_SK_MISCOMPARE		0xe

/* Additional sense codes (ASC << 8 | ASCQ) */
#define RAMLLD_ASC_NONE			0x0000
/* LOGICAL UNIT NOT READY, INITIALIZING COMMAND REQUIRED */
#define RAMLLD_ASC_NOT_READY_INIT_REQ	0x0402
#define RAMLLD_ASC_WRITE_ERROR		0x0c00	/* WRITE ERROR */
#define RAMLLD_ASC_UNRECOVERED_READ	0x1100	/* UNRECOVERED READ ERROR */
#define RAMLLD_ASC_MISCOMPARE_VERIFY	0x1d00	/* MISCOMPARE DURING VERIFY OPERATION */
#define RAMLLD_ASC_PARAM_LIST_LENGTH	0x1a00	/* PARAMETER LIST LENGTH ERROR */
#define RAMLLD_ASC_INVALID_OPCODE	0x2000	/* INVALID COMMAND OPERATION CODE */
#define RAMLLD_ASC_LBA_OUT_OF_RANGE	0x2100	/* LOGICAL BLOCK ADDRESS OUT OF RANGE */
#define RAMLLD_ASC_INVALID_FIELD_CDB	0x2400	/* INVALID FIELD IN CDB */
#define RAMLLD_ASC_INVALID_FIELD_PARAM	0x2600	/* INVALID FIELD IN PARAMETER LIST */
#define RAMLLD_ASC_SPACE_ALLOC_FAILED	0x2707	/* SPACE ALLOCATION FAILED WRITE PROTECT */
#define RAMLLD_ASC_POWER_ON		0x2901	/* POWER ON OCCURRED */
#define RAMLLD_ASC_BUS_RESET		0x2902	/* SCSI BUS RESET OCCURRED */
#define RAMLLD_ASC_DEVICE_RESET		0x2903	/* BUS DEVICE RESET FUNCTION OCCURRED */
#define RAMLLD_ASC_SAVING_NOT_SUPP	0x3900	/* SAVING PARAMETERS NOT SUPPORTED */
#define RAMLLD_ASC_DATA_PHASE_ERROR	0x4b00	/* DATA PHASE ERROR */

/*
 * Longest sense this code builds (fixed: 18 bytes; descriptor: 16 with a
 * sense-key specific descriptor, 20 with an information descriptor).
 */
#define RAMLLD_CDB_SENSE_LEN		20
/*
 * Data-in and data-out of the non-media commands never need more than this:
 * the front end may size its bounce buffer to it. A WRITE SAME block
 * (logical block size <= 4096), an UNMAP list and the data-out of a COMPARE
 * AND WRITE (twice its blocks, at most 4096 bytes each half) fit as well.
 */
#define RAMLLD_CDB_BUF_LEN		8192
/* Logical block sizes this code accepts. */
#define RAMLLD_CDB_MIN_BLOCK		512
#define RAMLLD_CDB_MAX_BLOCK		4096
/* UNMAP descriptors accepted in one command (fits RAMLLD_CDB_BUF_LEN). */
#define RAMLLD_CDB_MAX_UNMAP_DESC	128
/* COMPARE AND WRITE compares and writes at most this many bytes (one half). */
#define RAMLLD_CDB_MAX_CW_BYTES		4096
/*
 * GET LBA STATUS looks at no more than this much of the medium per command
 * (its last descriptor may end before the state changes, as SBC-3 allows):
 * the front end answers in atomic context.
 */
#define RAMLLD_CDB_LBA_STATUS_SCAN_BYTES	0x40000000ULL	/* 1 GiB */

/* What the front end must do with the store after a GOOD status. */
enum ramlld_cdb_action {
	RAMLLD_CDB_NONE = 0,	/* nothing: data-in (din_len bytes) or no data */
	RAMLLD_CDB_READ,	/* copy lba, nr_blocks from the store to data-in */
	RAMLLD_CDB_WRITE,	/* copy lba, nr_blocks from data-out to the store */
	RAMLLD_CDB_FILL,	/* WRITE SAME: repeat block over lba, nr_blocks */
	RAMLLD_CDB_DISCARD,	/* WRITE SAME with UNMAP and a zero block: zero lba, nr_blocks */
	RAMLLD_CDB_UNMAP,	/* nr_desc validated descriptors in dout: ramlld_cdb_unmap_desc() */
	RAMLLD_CDB_SYNC,	/* SYNCHRONIZE CACHE of lba, nr_blocks (a RAM store: nothing) */
	RAMLLD_CDB_VERIFY,	/* VERIFY, BYTCHK=0: range checked, nothing to compare */
	/*
	 * VERIFY, BYTCHK=01b: compare lba, nr_blocks with the request's own
	 * data-out (nr_blocks * block_size bytes, not handed to this code).
	 */
	RAMLLD_CDB_COMPARE,
	/* VERIFY, BYTCHK=11b: compare block (one block) with each of lba, nr_blocks */
	RAMLLD_CDB_COMPARE_SAME,
	/*
	 * COMPARE AND WRITE: dout holds nr_blocks to compare with lba, nr_blocks,
	 * then nr_blocks to write there if they match, as one atomic step.
	 */
	RAMLLD_CDB_COMPARE_WRITE,
};

/* Unit attention conditions, in order of precedence (lowest first). */
enum ramlld_cdb_ua {
	RAMLLD_UA_NONE = 0,
	RAMLLD_UA_DEVICE_RESET,	/* 29/03 */
	RAMLLD_UA_BUS_RESET,	/* 29/02 */
	RAMLLD_UA_POWER_ON,	/* 29/01 */
};

/*
 * One logical unit. The front end fills the fixed part, then calls
 * ramlld_cdb_dev_reset(dev, RAMLLD_UA_POWER_ON) to set the run-time part.
 */
struct ramlld_cdb_dev {
	/* fixed */
	u64 nr_blocks;		/* capacity in logical blocks */
	u32 block_size;		/* logical block size, 512..4096, a power of 2 */
	u8 lbppbe;		/* log2(logical blocks per physical block) */
	bool wce_default;	/* initial and default WCE (write_cache=) */
	bool rotational;	/* VPD B1: 7200 rpm, else non-rotating (rotational=) */
	u32 index;		/* store index: serial and NAA derive from it */
	u32 target;		/* SCSI target id */
	u32 lun;		/* LUN within the target (< 16384) */
	u32 tgt_nr_luns;	/* the target holds LUNs 0..tgt_nr_luns-1 */
	u32 max_xfer_blocks;	/* READ/WRITE transfer length limit, >= 1 */
	u32 opt_xfer_blocks;	/* optimal transfer length (VPD B0), 0: none */
	u32 max_unmap_blocks;	/* per UNMAP command (all descriptors together) */
	u32 max_unmap_desc;	/* <= RAMLLD_CDB_MAX_UNMAP_DESC */
	u32 unmap_gran_blocks;	/* optimal unmap granularity */
	u32 max_ws_blocks;	/* WRITE SAME length limit */
	u32 max_cw_blocks;	/* COMPARE AND WRITE limit, <= RAMLLD_CDB_MAX_CW_BYTES */
	/*
	 * GET LBA STATUS: the number of blocks from lba (1..max) that share
	 * lba's provisioning state, *mapped set to that state. NULL: every
	 * block is mapped. Must not sleep.
	 */
	u64 (*lba_run)(const struct ramlld_cdb_dev *dev, u64 lba, u64 max,
		       bool *mapped);
	/* run time: changed by MODE SELECT, START STOP UNIT, resets */
	u8 wce;			/* caching page WCE */
	u8 d_sense;		/* control page D_SENSE: descriptor sense */
	u8 stopped;		/* START STOP UNIT with START=0 */
	u32 ua;			/* pending enum ramlld_cdb_ua */
};

struct ramlld_cdb_result {
	u8 status;			/* RAMLLD_CDB_GOOD, _CONDITION_MET or _CHECK_CONDITION */
	u8 sense_len;			/* 0 unless CHECK CONDITION */
	u8 sense[RAMLLD_CDB_SENSE_LEN];
	u32 din_len;			/* valid bytes of din (allocation length applied) */
	enum ramlld_cdb_action action;	/* only with GOOD */
	u64 lba;
	u32 nr_blocks;
	u32 nr_desc;			/* RAMLLD_CDB_UNMAP */
	const u8 *block;		/* FILL, COMPARE_SAME: one logical block */
};

void ramlld_cdb_dev_reset(struct ramlld_cdb_dev *dev, enum ramlld_cdb_ua ua);

/*
 * Bytes of data-out the command wants handed to ramlld_cdb_execute() (MODE
 * SELECT, UNMAP, WRITE SAME, SEND DIAGNOSTIC, COMPARE AND WRITE, VERIFY with
 * BYTCHK=11b), at most RAMLLD_CDB_BUF_LEN. 0 for the media writes and VERIFY
 * with BYTCHK=01b (their data moves by the action) and for commands without
 * data-out.
 */
u32 ramlld_cdb_dout_len(const struct ramlld_cdb_dev *dev, const u8 *cdb,
			u32 cdb_len);

/*
 * Whether cdb is READ or WRITE (6, 10, 12 or 16): opcode 0x08/0x0a in groups
 * 0, 1, 4 and 5. They need neither data-out handed to ramlld_cdb_execute()
 * nor a data-in buffer, which the front end then need not ask for.
 */
static inline bool ramlld_cdb_is_rw(const u8 *cdb)
{
	return (cdb[0] & 0x5d) == 0x08;
}

/*
 * Size of the data-in buffer the command needs: RAMLLD_CDB_BUF_LEN for the
 * commands that build data-in (INQUIRY, MODE SENSE, ...), 0 for the others
 * (READ moves its data by the action).
 */
u32 ramlld_cdb_din_len(const u8 *cdb, u32 cdb_len);

/*
 * Decode and execute one CDB. dout: dout_len bytes of data-out (may be NULL
 * when 0); din: a buffer of din_cap bytes. Fills *res; returns res->status.
 */
int ramlld_cdb_execute(struct ramlld_cdb_dev *dev, const u8 *cdb, u32 cdb_len,
		       const u8 *dout, u32 dout_len, u8 *din, u32 din_cap,
		       struct ramlld_cdb_result *res);

/* Descriptor i (< res->nr_desc) of a validated UNMAP parameter list. */
void ramlld_cdb_unmap_desc(const u8 *dout, u32 i, u64 *lba, u32 *nr_blocks);

/* Sense data for a condition, in the format the control page selects. */
void ramlld_cdb_set_sense(const struct ramlld_cdb_dev *dev,
			  struct ramlld_cdb_result *res, u8 key, u16 asc_ascq);

/*
 * MEDIUM ERROR at lba, the first block that failed: UNRECOVERED READ ERROR
 * (03/11/00) for a read, WRITE ERROR (03/0C/00) for a write, lba in the
 * INFORMATION field with VALID set (fixed format: only when lba fits in 32
 * bits; descriptor format: an information descriptor).
 */
void ramlld_cdb_set_medium_error(const struct ramlld_cdb_dev *dev,
				 struct ramlld_cdb_result *res, bool write,
				 u64 lba);

/*
 * MISCOMPARE (0E/1D/00) of a VERIFY or COMPARE AND WRITE: offset is the byte
 * of the data-out buffer (for VERIFY with BYTCHK=11b: of the range, as if
 * its one block were repeated) that first differs, in the INFORMATION field
 * with VALID set (fixed format: only when it fits in 32 bits).
 */
void ramlld_cdb_set_miscompare(const struct ramlld_cdb_dev *dev,
			       struct ramlld_cdb_result *res, u64 offset);

#endif /* RAMLLD_SCSI_CDB_H */
