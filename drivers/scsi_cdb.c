// SPDX-License-Identifier: GPL-2.0
/*
 * scsi_cdb.c - SPC-4/SBC-3 command emulation of the ramlld SCSI LLD.
 *
 * Table-driven, as scsi_debug: cdb_ops[] maps an operation code to its CDB
 * length, flags, the usage data REPORT SUPPORTED OPERATION CODES returns and
 * a handler. The usage data is also the check: a CDB bit outside it fails
 * with INVALID FIELD IN CDB (and a field pointer), so what is reported is
 * what is checked.
 *
 * No kernel-only dependency: built into ramlld.ko and, with plain cc, into
 * tests/unit/scsi_cdb_test.c and tests/fuzz/scsi_cdb_fuzz.c.
 *
 * Choices worth knowing:
 * - VERIFY: BYTCHK 00b checks the range, 01b and 11b compare (the front end
 *   does, on the action), 10b is reserved: INVALID FIELD IN CDB. With 01b
 *   the length is bounded by the maximum transfer length, with 11b by the
 *   maximum WRITE SAME length (one block of data-out for many).
 * - WRITE SAME with UNMAP=1 and an all-zero block (or NDOB) deallocates: a
 *   hole reads as zeros (LBPRZ=1). With UNMAP=0 it writes, zeros included,
 *   so the blocks are mapped afterwards (SBC-4: only UNMAP=1 may deallocate).
 *   ANCHOR is refused: there is no anchored state (ANC_SUP=0).
 * - PRE-FETCH ends in CONDITION MET: the store is its own cache.
 * - COMPARE AND WRITE covers at most RAMLLD_CDB_MAX_CW_BYTES (one store page
 *   or two when unaligned), so the front end can hold both pages' locks.
 * - GET LBA STATUS asks the front end (dev->lba_run) for runs of mapped and
 *   deallocated blocks; no anchored state.
 * - LOG SENSE: supported pages, temperature (no sensor: 0xFF, "not
 *   available"), solid state media (0 % of the endurance used: RAM does not
 *   wear), informational exceptions (no failure predicted). Cumulative and
 *   default cumulative values only: there are no thresholds.
 * - SEND DIAGNOSTIC: the default self-test and the short and extended
 *   self-tests, foreground or background, pass at once (nothing to test in
 *   RAM that a read would not find); a parameter list holds one diagnostic
 *   page, of which page 0x00 (supported pages) is the only one.
 * - The transfer length is checked after the LBA range: LBA OUT OF RANGE
 *   wins over INVALID FIELD IN CDB when both apply.
 * - Data-out shorter than the CDB announces (MODE SELECT, UNMAP, WRITE SAME)
 *   is ABORTED COMMAND, DATA PHASE ERROR.
 * - No MODE PARAMETERS CHANGED unit attention: there is one I_T nexus.
 */
#include "scsi_cdb.h"

#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/compiler.h>
#include <linux/atomic.h>
#include <linux/indirect_call_wrapper.h>
#define cdb_read_once(x)	READ_ONCE(x)
#define cdb_write_once(x, v)	WRITE_ONCE(x, v)
#define cdb_xchg(p, v)		xchg(p, v)
#else
#include <stddef.h>
#include <string.h>
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define cdb_read_once(x)	(x)
#define cdb_write_once(x, v)	((x) = (v))
#define INDIRECT_CALL_1(f, f1, ...)	f(__VA_ARGS__)
static inline u32 cdb_xchg(u32 *p, u32 v)
{
	u32 old = *p;

	*p = v;
	return old;
}
#endif

static inline u32 cdb_min(u32 a, u32 b)
{
	return a < b ? a : b;
}

/* Byte-wise big-endian access: the same on every host, no alignment needed. */
static inline u16 get_be16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static inline u32 get_be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static inline u64 get_be64(const u8 *p)
{
	return (u64)get_be32(p) << 32 | get_be32(p + 4);
}

static inline void put_be16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static inline void put_be32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline void put_be64(u8 *p, u64 v)
{
	put_be32(p, v >> 32);
	put_be32(p + 4, v);
}

/*
 * Data-in under construction: pages are built in small local arrays and put
 * at their offset; whatever lies past cap is dropped, len keeps the length
 * the page would have (the allocation length is applied at the end).
 */
struct cdb_buf {
	u8 *p;
	u32 cap;
	u32 len;
};

static void ramlld_cdb_buf_put(struct cdb_buf *b, u32 off, const void *src, u32 n)
{
	if (off < b->cap)
		memcpy(b->p + off, src, cdb_min(n, b->cap - off));
	if (off + n > b->len)
		b->len = off + n;
}

struct cdb_ctx {
	struct ramlld_cdb_dev *dev;
	const u8 *cdb;
	const u8 *dout;
	u32 dout_len;
	struct cdb_buf din;
	struct ramlld_cdb_result *res;
};

/* ---- sense ---- */

#define SKS_NONE	(-1)

/*
 * Build sense data: fixed (0x70, 18 bytes) or descriptor (0x72, 8 bytes, +8
 * with a sense-key specific descriptor). byte >= 0 adds a field pointer:
 * C/D set for a CDB field, BPV and the bit when bit >= 0.
 */
static u8 ramlld_cdb_build_sense(u8 *s, bool desc, u8 key, u16 asc_ascq, int byte,
				 int bit, bool in_cdb)
{
	u8 sks[3] = { 0, 0, 0 };

	if (byte >= 0) {
		sks[0] = 0x80 | (in_cdb ? 0x40 : 0);
		if (bit >= 0)
			sks[0] |= 0x08 | (bit & 7);
		put_be16(&sks[1], (u16)byte);
	}
	memset(s, 0, RAMLLD_CDB_SENSE_LEN);
	if (desc) {
		s[0] = 0x72;
		s[1] = key & 0xf;
		s[2] = asc_ascq >> 8;
		s[3] = asc_ascq & 0xff;
		if (byte < 0)
			return 8;
		s[7] = 8;
		s[8] = 0x02;	/* sense key specific descriptor */
		s[9] = 0x06;
		memcpy(&s[12], sks, 3);
		return 16;
	}
	s[0] = 0x70;
	s[2] = key & 0xf;
	s[7] = 10;
	s[12] = asc_ascq >> 8;
	s[13] = asc_ascq & 0xff;
	memcpy(&s[15], sks, 3);
	return 18;
}

/* The additional sense code of a unit attention condition (not RAMLLD_UA_NONE). */
static u16 ramlld_cdb_ua_asc(u32 ua)
{
	return ua == RAMLLD_UA_POWER_ON ? RAMLLD_ASC_POWER_ON :
	       ua == RAMLLD_UA_BUS_RESET ? RAMLLD_ASC_BUS_RESET :
	       RAMLLD_ASC_DEVICE_RESET;
}

static int ramlld_cdb_check_condition(struct cdb_ctx *c, u8 key, u16 asc_ascq,
				      int byte, int bit, bool in_cdb)
{
	struct ramlld_cdb_result *res = c->res;

	res->status = RAMLLD_CDB_CHECK_CONDITION;
	res->action = RAMLLD_CDB_NONE;
	res->din_len = 0;
	res->sense_len = ramlld_cdb_build_sense(res->sense, cdb_read_once(c->dev->d_sense),
						key, asc_ascq, byte, bit, in_cdb);
	return res->status;
}

void ramlld_cdb_set_sense(const struct ramlld_cdb_dev *dev,
			  struct ramlld_cdb_result *res, u8 key, u16 asc_ascq)
{
	res->status = RAMLLD_CDB_CHECK_CONDITION;
	res->action = RAMLLD_CDB_NONE;
	res->din_len = 0;
	res->sense_len = ramlld_cdb_build_sense(res->sense, cdb_read_once(dev->d_sense),
						key, asc_ascq, SKS_NONE, SKS_NONE, false);
}

/* Put info in the INFORMATION field of sense without a field pointer. */
static void ramlld_cdb_set_info(struct ramlld_cdb_result *res, u64 info)
{
	u8 *s = res->sense;

	if (s[0] == 0x72) {
		/* information descriptor (SPC-4 4.5.2.2) after the 8-byte header */
		s[7] = 12;
		s[8] = 0x00;
		s[9] = 0x0a;
		s[10] = 0x80;	/* VALID */
		put_be64(&s[12], info);
		res->sense_len = 20;
	} else if (info <= 0xffffffffULL) {
		s[0] |= 0x80;	/* VALID: INFORMATION holds it */
		put_be32(&s[3], (u32)info);
	}
}

void ramlld_cdb_set_medium_error(const struct ramlld_cdb_dev *dev,
				 struct ramlld_cdb_result *res, bool write,
				 u64 lba)
{
	ramlld_cdb_set_sense(dev, res, RAMLLD_SK_MEDIUM_ERROR,
			     write ? RAMLLD_ASC_WRITE_ERROR :
				     RAMLLD_ASC_UNRECOVERED_READ);
	ramlld_cdb_set_info(res, lba);
}

void ramlld_cdb_set_miscompare(const struct ramlld_cdb_dev *dev,
			       struct ramlld_cdb_result *res, u64 offset)
{
	ramlld_cdb_set_sense(dev, res, RAMLLD_SK_MISCOMPARE,
			     RAMLLD_ASC_MISCOMPARE_VERIFY);
	ramlld_cdb_set_info(res, offset);
}

static int ramlld_cdb_invalid_cdb(struct cdb_ctx *c, int byte, int bit)
{
	return ramlld_cdb_check_condition(c, RAMLLD_SK_ILLEGAL_REQUEST,
					  RAMLLD_ASC_INVALID_FIELD_CDB, byte, bit, true);
}

static int ramlld_cdb_invalid_param(struct cdb_ctx *c, int byte, int bit)
{
	return ramlld_cdb_check_condition(c, RAMLLD_SK_ILLEGAL_REQUEST,
					  RAMLLD_ASC_INVALID_FIELD_PARAM, byte, bit, false);
}

static int ramlld_cdb_illegal(struct cdb_ctx *c, u16 asc_ascq)
{
	return ramlld_cdb_check_condition(c, RAMLLD_SK_ILLEGAL_REQUEST, asc_ascq,
					  SKS_NONE, SKS_NONE, false);
}

static int ramlld_cdb_data_phase_error(struct cdb_ctx *c)
{
	return ramlld_cdb_check_condition(c, RAMLLD_SK_ABORTED_COMMAND,
					  RAMLLD_ASC_DATA_PHASE_ERROR, SKS_NONE, SKS_NONE,
					  false);
}

static int ramlld_cdb_highest_bit(u8 v)
{
	int bit = 7;

	while (bit > 0 && !(v & (1u << bit)))
		bit--;
	return bit;
}

static int ramlld_cdb_good_din(struct cdb_ctx *c, u32 alloc_len)
{
	c->res->din_len = cdb_min(cdb_min(c->din.len, alloc_len), c->din.cap);
	return RAMLLD_CDB_GOOD;
}

/* lba, nr within the capacity (nr == 0 allows lba == nr_blocks). */
static bool range_ok(const struct ramlld_cdb_dev *dev, u64 lba, u64 nr)
{
	return lba <= dev->nr_blocks && nr <= dev->nr_blocks - lba;
}

static int ramlld_cdb_lba_out_of_range(struct cdb_ctx *c)
{
	return ramlld_cdb_illegal(c, RAMLLD_ASC_LBA_OUT_OF_RANGE);
}

/* ---- identification ---- */

#define INQ_VENDOR	"RAMLLD  "
#define INQ_PRODUCT	"ramlld          "
#define INQ_REVISION	"0001"
#define SERIAL_LEN	12

/* "RAMLLD" and four hex digits of the store index: stable across loads. */
static void ramlld_cdb_make_serial(const struct ramlld_cdb_dev *dev, u8 *s)
{
	static const char hex[] = "0123456789ABCDEF";
	u32 i;

	memcpy(s, "RAMLLD", 6);
	s[6] = '-';
	s[7] = 'L';
	for (i = 0; i < 4; i++)
		s[8 + i] = hex[(dev->index >> (12 - 4 * i)) & 0xf];
}

/* NAA 3 (locally assigned): "RAMLLD" in 48 bits, the store index in 12. */
static u64 ramlld_cdb_make_naa(const struct ramlld_cdb_dev *dev)
{
	return 3ull << 60 | 0x52414d4c4c44ull << 12 | (dev->index & 0xfff);
}

static int ramlld_cdb_std_inquiry(struct cdb_ctx *c, u32 alloc)
{
	u8 d[66];

	memset(d, 0, sizeof(d));
	d[0] = 0x00;		/* PQ 0, direct access block device */
	d[2] = 0x06;		/* SPC-4 */
	d[3] = 0x12;		/* HISUP, response data format 2 */
	d[4] = sizeof(d) - 5;
	d[7] = 0x02;		/* CMDQUE */
	memcpy(&d[8], INQ_VENDOR, 8);
	memcpy(&d[16], INQ_PRODUCT, 16);
	memcpy(&d[32], INQ_REVISION, 4);
	put_be16(&d[58], 0x00a0);	/* SAM-5 */
	put_be16(&d[60], 0x0460);	/* SPC-4 */
	put_be16(&d[62], 0x04c0);	/* SBC-3 */
	ramlld_cdb_buf_put(&c->din, 0, d, sizeof(d));
	return ramlld_cdb_good_din(c, alloc);
}

static const u8 vpd_pages[] = { 0x00, 0x80, 0x83, 0xb0, 0xb1, 0xb2 };

static void ramlld_cdb_vpd_header(u8 *d, u8 page, u16 len)
{
	d[0] = 0x00;
	d[1] = page;
	put_be16(&d[2], len);
}

static int ramlld_cdb_vpd(struct cdb_ctx *c, u8 page, u32 alloc)
{
	const struct ramlld_cdb_dev *dev = c->dev;
	u8 d[64];
	u32 n;

	memset(d, 0, sizeof(d));
	switch (page) {
	case 0x00:	/* supported VPD pages */
		n = sizeof(vpd_pages);
		memcpy(&d[4], vpd_pages, n);
		break;
	case 0x80:	/* unit serial number */
		n = SERIAL_LEN;
		ramlld_cdb_make_serial(dev, &d[4]);
		break;
	case 0x83:	/* device identification */
		/* NAA, binary, logical unit */
		d[4] = 0x01;
		d[5] = 0x03;
		d[7] = 8;
		put_be64(&d[8], ramlld_cdb_make_naa(dev));
		/* T10 vendor ID, ASCII, logical unit: vendor + serial */
		d[16] = 0x02;
		d[17] = 0x01;
		d[19] = 8 + SERIAL_LEN;
		memcpy(&d[20], INQ_VENDOR, 8);
		ramlld_cdb_make_serial(dev, &d[28]);
		n = 12 + 4 + 8 + SERIAL_LEN;
		break;
	case 0xb0:	/* block limits */
		n = 0x3c;
		d[4] = 0x01;	/* WSNZ: WRITE SAME length 0 is not supported */
		d[5] = (u8)cdb_min(dev->max_cw_blocks, 0xff);
		put_be16(&d[6], (u16)(1u << (dev->lbppbe & 0x0f)));
		put_be32(&d[8], dev->max_xfer_blocks);
		put_be32(&d[12], dev->opt_xfer_blocks);
		put_be32(&d[20], dev->max_unmap_blocks);
		put_be32(&d[24], dev->max_unmap_desc);
		put_be32(&d[28], dev->unmap_gran_blocks);
		put_be32(&d[32], 0x80000000);	/* UGAVALID, alignment 0 */
		put_be64(&d[36], dev->max_ws_blocks);
		break;
	case 0xb1:	/* block device characteristics */
		n = 0x3c;
		/* 1: non-rotating, so sd clears add_random; 7200 rpm leaves it on */
		put_be16(&d[4], dev->rotational ? 7200 : 1);
		break;
	case 0xb2:	/* logical block provisioning */
		n = 4;
		d[5] = 0x80 | 0x40 | 0x20 | 0x04;	/* LBPU LBPWS LBPWS10 LBPRZ */
		d[6] = 0x02;				/* thin provisioned */
		break;
	default:
		return ramlld_cdb_invalid_cdb(c, 2, SKS_NONE);
	}
	ramlld_cdb_vpd_header(d, page, (u16)n);
	ramlld_cdb_buf_put(&c->din, 0, d, 4 + n);
	return ramlld_cdb_good_din(c, alloc);
}

static int ramlld_cdb_inquiry(struct cdb_ctx *c)
{
	const u8 *cdb = c->cdb;
	u32 alloc = get_be16(&cdb[3]);

	if (cdb[1] & 0x01)
		return ramlld_cdb_vpd(c, cdb[2], alloc);
	if (cdb[2])
		return ramlld_cdb_invalid_cdb(c, 2, SKS_NONE);
	return ramlld_cdb_std_inquiry(c, alloc);
}

static int ramlld_cdb_request_sense(struct cdb_ctx *c)
{
	struct ramlld_cdb_dev *dev = c->dev;
	bool desc = c->cdb[1] & 0x01;
	u8 s[RAMLLD_CDB_SENSE_LEN];
	u8 key = RAMLLD_SK_NO_SENSE;
	u16 asc = RAMLLD_ASC_NONE;
	u32 ua = cdb_read_once(dev->ua) ? cdb_xchg(&dev->ua, 0) : 0;
	u8 n;

	if (ua) {
		key = RAMLLD_SK_UNIT_ATTENTION;
		asc = ramlld_cdb_ua_asc(ua);
	} else if (cdb_read_once(dev->stopped)) {
		key = RAMLLD_SK_NOT_READY;
		asc = RAMLLD_ASC_NOT_READY_INIT_REQ;
	}
	n = ramlld_cdb_build_sense(s, desc, key, asc, SKS_NONE, SKS_NONE, false);
	ramlld_cdb_buf_put(&c->din, 0, s, n);
	return ramlld_cdb_good_din(c, c->cdb[4]);
}

static int ramlld_cdb_report_luns(struct cdb_ctx *c)
{
	const struct ramlld_cdb_dev *dev = c->dev;
	u32 alloc = get_be32(&c->cdb[6]);
	u32 i, n;
	u8 hdr[8], lun[8];

	switch (c->cdb[2]) {
	case 0x00:	/* all logical units but well-known ones */
	case 0x02:	/* all */
		n = dev->tgt_nr_luns;
		break;
	case 0x01:	/* well-known logical units only: none */
		n = 0;
		break;
	default:
		return ramlld_cdb_invalid_cdb(c, 2, SKS_NONE);
	}
	memset(hdr, 0, sizeof(hdr));
	put_be32(hdr, n * 8);
	ramlld_cdb_buf_put(&c->din, 0, hdr, 8);
	for (i = 0; i < n; i++) {
		memset(lun, 0, sizeof(lun));
		if (i < 256) {		/* peripheral device addressing */
			lun[1] = i;
		} else {		/* flat space addressing */
			lun[0] = 0x40 | ((i >> 8) & 0x3f);
			lun[1] = i & 0xff;
		}
		ramlld_cdb_buf_put(&c->din, 8 + 8 * i, lun, 8);
	}
	return ramlld_cdb_good_din(c, alloc);
}

/* ---- capacity ---- */

static int ramlld_cdb_read_capacity10(struct cdb_ctx *c)
{
	const struct ramlld_cdb_dev *dev = c->dev;
	u64 last = dev->nr_blocks ? dev->nr_blocks - 1 : 0;
	u8 d[8];

	put_be32(&d[0], last > 0xffffffffull ? 0xffffffff : (u32)last);
	put_be32(&d[4], dev->block_size);
	ramlld_cdb_buf_put(&c->din, 0, d, sizeof(d));
	return ramlld_cdb_good_din(c, sizeof(d));
}

static int ramlld_cdb_read_capacity16(struct cdb_ctx *c)
{
	const struct ramlld_cdb_dev *dev = c->dev;
	u8 d[32];

	memset(d, 0, sizeof(d));
	put_be64(&d[0], dev->nr_blocks ? dev->nr_blocks - 1 : 0);
	put_be32(&d[8], dev->block_size);
	d[13] = dev->lbppbe & 0x0f;
	d[14] = 0x80 | 0x40;	/* LBPME, LBPRZ; lowest aligned LBA 0 */
	ramlld_cdb_buf_put(&c->din, 0, d, sizeof(d));
	return ramlld_cdb_good_din(c, get_be32(&c->cdb[10]));
}

/* ---- mode pages ---- */

enum { PC_CURRENT = 0, PC_CHANGEABLE = 1, PC_DEFAULT = 2, PC_SAVED = 3 };

#define CACHING_PAGE_LEN	20
#define CONTROL_PAGE_LEN	12

static void ramlld_cdb_mode_caching(const struct ramlld_cdb_dev *dev, int pc, u8 *p)
{
	memset(p, 0, CACHING_PAGE_LEN);
	p[0] = 0x08;
	p[1] = CACHING_PAGE_LEN - 2;
	if (pc == PC_CHANGEABLE)
		p[2] = 0x04;
	else if (pc == PC_DEFAULT ? dev->wce_default : cdb_read_once(dev->wce))
		p[2] = 0x04;
}

static void ramlld_cdb_mode_control(const struct ramlld_cdb_dev *dev, int pc, u8 *p)
{
	memset(p, 0, CONTROL_PAGE_LEN);
	p[0] = 0x0a;
	p[1] = CONTROL_PAGE_LEN - 2;
	if (pc == PC_CHANGEABLE) {
		p[2] = 0x04;	/* D_SENSE */
		return;
	}
	p[2] = 0x02;		/* GLTSD: no log parameters to save */
	if (pc == PC_CURRENT && cdb_read_once(dev->d_sense))
		p[2] |= 0x04;
	p[3] = 0x10;		/* queue algorithm modifier 1: unrestricted */
}

/*
 * The mode pages: each has one changeable bit, bit 2 of byte 2 (WCE,
 * D_SENSE), kept in the u8 of struct ramlld_cdb_dev at offset bit.
 */
static const struct ramlld_cdb_mode_page {
	u8 code;
	u8 len;
	void (*fill)(const struct ramlld_cdb_dev *dev, int pc, u8 *p);
	size_t bit;
} ramlld_cdb_mode_pages[] = {
	{ 0x08, CACHING_PAGE_LEN, ramlld_cdb_mode_caching,
	  offsetof(struct ramlld_cdb_dev, wce) },
	{ 0x0a, CONTROL_PAGE_LEN, ramlld_cdb_mode_control,
	  offsetof(struct ramlld_cdb_dev, d_sense) },
};

#define MODE_PAGE_MAX_LEN	CACHING_PAGE_LEN	/* the longest page above */
#define NR_MODE_PAGES		ARRAY_SIZE(ramlld_cdb_mode_pages)

static const struct ramlld_cdb_mode_page *ramlld_cdb_mode_page(u8 code)
{
	unsigned int i;

	for (i = 0; i < NR_MODE_PAGES; i++)
		if (ramlld_cdb_mode_pages[i].code == code)
			return &ramlld_cdb_mode_pages[i];
	return NULL;
}

static u8 *ramlld_cdb_mode_page_bit(struct ramlld_cdb_dev *dev, unsigned int i)
{
	return (u8 *)dev + ramlld_cdb_mode_pages[i].bit;
}

static int ramlld_cdb_mode_sense(struct cdb_ctx *c)
{
	const struct ramlld_cdb_dev *dev = c->dev;
	const u8 *cdb = c->cdb;
	bool ms10 = cdb[0] == 0x5a;
	bool dbd = cdb[1] & 0x08;
	bool llbaa = ms10 && (cdb[1] & 0x10);
	int pc = cdb[2] >> 6;
	u8 page = cdb[2] & 0x3f, subpage = cdb[3];
	u32 alloc = ms10 ? get_be16(&cdb[7]) : cdb[4];
	u32 hlen = ms10 ? 8 : 4, bdlen = dbd ? 0 : (llbaa ? 16 : 8);
	u32 off = hlen + bdlen;
	u8 hdr[8], bd[16], pg[MODE_PAGE_MAX_LEN];
	unsigned int i;

	if (pc == PC_SAVED)
		return ramlld_cdb_check_condition(c, RAMLLD_SK_ILLEGAL_REQUEST,
						  RAMLLD_ASC_SAVING_NOT_SUPP, 2, 7, true);
	if (page != 0x3f && !ramlld_cdb_mode_page(page))
		return ramlld_cdb_invalid_cdb(c, 2, 5);
	if (subpage != 0x00 && subpage != 0xff)
		return ramlld_cdb_invalid_cdb(c, 3, SKS_NONE);

	memset(bd, 0, sizeof(bd));
	if (bdlen && pc != PC_CHANGEABLE) {
		if (llbaa) {
			put_be64(&bd[0], dev->nr_blocks);
			put_be32(&bd[12], dev->block_size);
		} else {
			put_be32(&bd[0], dev->nr_blocks > 0xffffffffull ?
				 0xffffffff : (u32)dev->nr_blocks);
			put_be32(&bd[4], dev->block_size & 0xffffff);
		}
	}
	ramlld_cdb_buf_put(&c->din, hlen, bd, bdlen);
	for (i = 0; i < NR_MODE_PAGES; i++) {
		const struct ramlld_cdb_mode_page *mp = &ramlld_cdb_mode_pages[i];

		if (page != 0x3f && page != mp->code)
			continue;
		mp->fill(dev, pc, pg);
		ramlld_cdb_buf_put(&c->din, off, pg, mp->len);
		off += mp->len;
	}

	/* header last: the mode data length is known now */
	memset(hdr, 0, sizeof(hdr));
	if (ms10) {
		put_be16(&hdr[0], (u16)(off - 2));
		hdr[3] = pc == PC_CHANGEABLE ? 0 : 0x10;	/* DPOFUA */
		hdr[4] = llbaa && bdlen ? 0x01 : 0;		/* LONGLBA */
		put_be16(&hdr[6], (u16)bdlen);
	} else {
		hdr[0] = off - 1;
		hdr[2] = pc == PC_CHANGEABLE ? 0 : 0x10;
		hdr[3] = bdlen;
	}
	ramlld_cdb_buf_put(&c->din, 0, hdr, hlen);
	return ramlld_cdb_good_din(c, alloc);
}

static int ramlld_cdb_param_length_error(struct cdb_ctx *c)
{
	return ramlld_cdb_illegal(c, RAMLLD_ASC_PARAM_LIST_LENGTH);
}

/*
 * Check a page of a MODE SELECT parameter list against the current values:
 * a byte may differ only in the changeable bits.
 */
static int ramlld_cdb_select_page(struct cdb_ctx *c, const u8 *p, u32 off,
				  const struct ramlld_cdb_mode_page *mp)
{
	u8 cur[MODE_PAGE_MAX_LEN], chg[MODE_PAGE_MAX_LEN];
	u32 i;

	if (p[off + 1] != mp->len - 2)
		return ramlld_cdb_invalid_param(c, off + 1, SKS_NONE);
	mp->fill(c->dev, PC_CURRENT, cur);
	mp->fill(c->dev, PC_CHANGEABLE, chg);
	for (i = 2; i < mp->len; i++) {
		u8 bad = (p[off + i] ^ cur[i]) & ~chg[i];

		if (bad)
			return ramlld_cdb_invalid_param(c, off + i, ramlld_cdb_highest_bit(bad));
	}
	return RAMLLD_CDB_GOOD;
}

static int ramlld_cdb_mode_select(struct cdb_ctx *c)
{
	struct ramlld_cdb_dev *dev = c->dev;
	const u8 *cdb = c->cdb, *p = c->dout;
	bool ms10 = cdb[0] == 0x55;
	u32 plen = ms10 ? get_be16(&cdb[7]) : cdb[4];
	u32 hlen = ms10 ? 8 : 4, bdlen, off;
	u8 bits[NR_MODE_PAGES];
	unsigned int i;
	bool longlba;

	if (cdb[1] & 0x01)		/* SP: nothing can be saved */
		return ramlld_cdb_invalid_cdb(c, 1, 0);
	if (!plen)
		return RAMLLD_CDB_GOOD;
	if (!(cdb[1] & 0x10))		/* PF=0: vendor-specific format */
		return ramlld_cdb_invalid_cdb(c, 1, 4);
	if (plen > RAMLLD_CDB_BUF_LEN)
		return ramlld_cdb_invalid_cdb(c, ms10 ? 7 : 4, SKS_NONE);
	if (c->dout_len < plen)
		return ramlld_cdb_data_phase_error(c);
	if (plen < hlen)
		return ramlld_cdb_param_length_error(c);

	if (p[ms10 ? 2 : 1])		/* medium type */
		return ramlld_cdb_invalid_param(c, ms10 ? 2 : 1, SKS_NONE);
	longlba = ms10 && (p[4] & 0x01);
	bdlen = ms10 ? get_be16(&p[6]) : p[3];
	if (bdlen && bdlen != (longlba ? 16u : 8u))
		return ramlld_cdb_invalid_param(c, ms10 ? 6 : 3, SKS_NONE);
	if (hlen + bdlen > plen)
		return ramlld_cdb_param_length_error(c);
	if (bdlen) {
		/* the geometry cannot change: 0 or the current values only */
		const u8 *bd = &p[hlen];
		u64 nr = longlba ? get_be64(bd) : get_be32(bd);
		u64 cur_nr = longlba || dev->nr_blocks <= 0xffffffffull ?
			     dev->nr_blocks : 0xffffffffull;
		u32 blen = longlba ? get_be32(&bd[12]) :
			   get_be32(&bd[4]) & 0xffffff;

		if (nr && nr != cur_nr)
			return ramlld_cdb_invalid_param(c, hlen, SKS_NONE);
		if (blen != dev->block_size)
			return ramlld_cdb_invalid_param(c, hlen + (longlba ? 12 : 5),
					     SKS_NONE);
	}

	for (i = 0; i < NR_MODE_PAGES; i++)
		bits[i] = cdb_read_once(*ramlld_cdb_mode_page_bit(dev, i));
	for (off = hlen + bdlen; off < plen;) {
		const struct ramlld_cdb_mode_page *mp;
		u8 code = p[off] & 0x3f;
		u32 len;
		int ret;

		if (plen - off < 2)
			return ramlld_cdb_param_length_error(c);
		if (p[off] & 0x40)	/* SPF: no subpages here */
			return ramlld_cdb_invalid_param(c, off, 6);
		len = 2 + p[off + 1];
		if (len > plen - off)
			return ramlld_cdb_param_length_error(c);
		mp = ramlld_cdb_mode_page(code);
		if (!mp)
			return ramlld_cdb_invalid_param(c, off, 5);
		ret = ramlld_cdb_select_page(c, p, off, mp);
		if (ret)
			return ret;
		bits[mp - ramlld_cdb_mode_pages] = !!(p[off + 2] & 0x04);
		off += len;
	}
	/* nothing changes until the whole list is found good */
	for (i = 0; i < NR_MODE_PAGES; i++)
		cdb_write_once(*ramlld_cdb_mode_page_bit(dev, i), bits[i]);
	return RAMLLD_CDB_GOOD;
}

/* ---- media ---- */

/* LBA and length fields of READ/WRITE/VERIFY/SYNCHRONIZE CACHE/WRITE SAME. */
static void ramlld_cdb_decode_lba(const u8 *cdb, u64 *lba, u32 *nr, int *len_byte)
{
	switch (cdb[0] >> 5) {
	case 0:		/* 6-byte */
		*lba = (u32)(cdb[1] & 0x1f) << 16 | get_be16(&cdb[2]);
		*nr = cdb[4] ? cdb[4] : 256;
		*len_byte = 4;
		break;
	case 5:		/* 12-byte */
		*lba = get_be32(&cdb[2]);
		*nr = get_be32(&cdb[6]);
		*len_byte = 6;
		break;
	case 4:		/* 16-byte */
		*lba = get_be64(&cdb[2]);
		*nr = get_be32(&cdb[10]);
		*len_byte = 10;
		break;
	default:	/* 10-byte */
		*lba = get_be32(&cdb[2]);
		*nr = get_be16(&cdb[7]);
		*len_byte = 7;
		break;
	}
}

static int ramlld_cdb_rw(struct cdb_ctx *c)
{
	struct ramlld_cdb_result *res = c->res;
	u64 lba;
	u32 nr;
	int len_byte;

	ramlld_cdb_decode_lba(c->cdb, &lba, &nr, &len_byte);
	if (!range_ok(c->dev, lba, nr))
		return ramlld_cdb_lba_out_of_range(c);
	if (nr > c->dev->max_xfer_blocks)
		return ramlld_cdb_invalid_cdb(c, len_byte, SKS_NONE);
	if (!nr)
		return RAMLLD_CDB_GOOD;
	/* READ is 0x08/0x28/0xa8/0x88: bit 1 clear; WRITE has it set */
	res->action = c->cdb[0] & 0x02 ? RAMLLD_CDB_WRITE : RAMLLD_CDB_READ;
	res->lba = lba;
	res->nr_blocks = nr;
	return RAMLLD_CDB_GOOD;
}

/* VERIFY(10/12/16): BYTCHK in byte 1 bits 2..1 */
static int ramlld_cdb_verify(struct cdb_ctx *c)
{
	const struct ramlld_cdb_dev *dev = c->dev;
	struct ramlld_cdb_result *res = c->res;
	u8 bytchk = (c->cdb[1] >> 1) & 0x03;
	u64 lba;
	u32 nr;
	int len_byte;

	if (bytchk == 0x02)		/* reserved */
		return ramlld_cdb_invalid_cdb(c, 1, 2);
	ramlld_cdb_decode_lba(c->cdb, &lba, &nr, &len_byte);
	if (!range_ok(dev, lba, nr))
		return ramlld_cdb_lba_out_of_range(c);
	if (!nr)			/* nothing transferred or compared */
		return RAMLLD_CDB_GOOD;
	switch (bytchk) {
	case 0x00:
		res->action = RAMLLD_CDB_VERIFY;
		break;
	case 0x01:			/* nr blocks of data-out */
		if (nr > dev->max_xfer_blocks)
			return ramlld_cdb_invalid_cdb(c, len_byte, SKS_NONE);
		res->action = RAMLLD_CDB_COMPARE;
		break;
	default:			/* 11b: one block for the whole range */
		if (nr > dev->max_ws_blocks)
			return ramlld_cdb_invalid_cdb(c, len_byte, SKS_NONE);
		if (c->dout_len < dev->block_size)
			return ramlld_cdb_data_phase_error(c);
		res->block = c->dout;
		res->action = RAMLLD_CDB_COMPARE_SAME;
		break;
	}
	res->lba = lba;
	res->nr_blocks = nr;
	return RAMLLD_CDB_GOOD;
}

/*
 * PRE-FETCH(10/16): the range checked as for READ (but not bounded by the
 * maximum transfer length: nothing is transferred); 0 blocks means up to the
 * end. The store is the cache, so the range always fits: CONDITION MET,
 * with or without IMMED.
 */
static int ramlld_cdb_prefetch(struct cdb_ctx *c)
{
	u64 lba;
	u32 nr;
	int len_byte;

	ramlld_cdb_decode_lba(c->cdb, &lba, &nr, &len_byte);
	if (nr ? !range_ok(c->dev, lba, nr) : lba >= c->dev->nr_blocks)
		return ramlld_cdb_lba_out_of_range(c);
	c->res->status = RAMLLD_CDB_CONDITION_MET;
	return RAMLLD_CDB_CONDITION_MET;
}

/* COMPARE AND WRITE: LBA in bytes 2..9, NUMBER OF LOGICAL BLOCKS in byte 13. */
static int ramlld_cdb_compare_write(struct cdb_ctx *c)
{
	const struct ramlld_cdb_dev *dev = c->dev;
	struct ramlld_cdb_result *res = c->res;
	u64 lba = get_be64(&c->cdb[2]);
	u32 nr = c->cdb[13];

	if (!range_ok(dev, lba, nr))
		return ramlld_cdb_lba_out_of_range(c);
	if (nr > cdb_min(dev->max_cw_blocks,
			 RAMLLD_CDB_MAX_CW_BYTES / dev->block_size))
		return ramlld_cdb_invalid_cdb(c, 13, SKS_NONE);
	if (!nr)			/* nothing compared, nothing written */
		return RAMLLD_CDB_GOOD;
	if (c->dout_len < 2 * nr * dev->block_size)
		return ramlld_cdb_data_phase_error(c);
	res->action = RAMLLD_CDB_COMPARE_WRITE;
	res->lba = lba;
	res->nr_blocks = nr;
	return RAMLLD_CDB_GOOD;
}

static int ramlld_cdb_sync_cache(struct cdb_ctx *c)
{
	const struct ramlld_cdb_dev *dev = c->dev;
	u64 lba;
	u32 nr;
	int len_byte;

	ramlld_cdb_decode_lba(c->cdb, &lba, &nr, &len_byte);
	/* 0 blocks: from lba to the end, lba must be inside */
	if (nr ? !range_ok(dev, lba, nr) : lba >= dev->nr_blocks)
		return ramlld_cdb_lba_out_of_range(c);
	c->res->action = RAMLLD_CDB_SYNC;
	c->res->lba = lba;
	c->res->nr_blocks = nr;
	if (!nr)
		c->res->nr_blocks = dev->nr_blocks - lba > 0xffffffffull ?
				    0xffffffff : (u32)(dev->nr_blocks - lba);
	return RAMLLD_CDB_GOOD;
}

static const u8 zero_block[RAMLLD_CDB_MAX_BLOCK];

static bool ramlld_cdb_all_zero(const u8 *p, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static int ramlld_cdb_write_same(struct cdb_ctx *c)
{
	const struct ramlld_cdb_dev *dev = c->dev;
	struct ramlld_cdb_result *res = c->res;
	bool ndob = c->cdb[0] == 0x93 && (c->cdb[1] & 0x01);
	u64 lba;
	u32 nr;
	int len_byte;

	ramlld_cdb_decode_lba(c->cdb, &lba, &nr, &len_byte);
	if (!nr)			/* WSNZ=1 */
		return ramlld_cdb_invalid_cdb(c, len_byte, SKS_NONE);
	if (!range_ok(dev, lba, nr))
		return ramlld_cdb_lba_out_of_range(c);
	if (nr > dev->max_ws_blocks)
		return ramlld_cdb_invalid_cdb(c, len_byte, SKS_NONE);
	if (ndob) {
		res->block = zero_block;
	} else {
		if (c->dout_len < dev->block_size)
			return ramlld_cdb_data_phase_error(c);
		res->block = c->dout;
	}
	/* only UNMAP=1 may deallocate; a hole reads as zeros (LBPRZ) */
	res->action = (c->cdb[1] & 0x08) && ramlld_cdb_all_zero(res->block, dev->block_size) ?
		      RAMLLD_CDB_DISCARD : RAMLLD_CDB_FILL;
	res->lba = lba;
	res->nr_blocks = nr;
	return RAMLLD_CDB_GOOD;
}

void ramlld_cdb_unmap_desc(const u8 *dout, u32 i, u64 *lba, u32 *nr_blocks)
{
	const u8 *d = dout + 8 + 16 * i;

	*lba = get_be64(d);
	*nr_blocks = get_be32(d + 8);
}

static int ramlld_cdb_unmap(struct cdb_ctx *c)
{
	const struct ramlld_cdb_dev *dev = c->dev;
	u32 plen = get_be16(&c->cdb[7]);
	u32 i, nr_desc;
	u64 total;
	const u8 *p = c->dout;

	if (!plen)
		return RAMLLD_CDB_GOOD;
	if (plen < 8)
		return ramlld_cdb_param_length_error(c);
	plen = cdb_min(plen, (u32)RAMLLD_CDB_BUF_LEN);
	if (c->dout_len < plen)
		return ramlld_cdb_data_phase_error(c);
	/* an incomplete last descriptor is ignored (SBC-3 5.28.2) */
	nr_desc = cdb_min((u32)get_be16(&p[2]), plen - 8) / 16;
	if (nr_desc > dev->max_unmap_desc)
		return ramlld_cdb_invalid_param(c, 2, SKS_NONE);
	for (i = 0, total = 0; i < nr_desc; i++) {
		u64 lba;
		u32 nr;

		ramlld_cdb_unmap_desc(p, i, &lba, &nr);
		/* MAXIMUM UNMAP LBA COUNT bounds the command, all descriptors */
		total += nr;
		if (total > dev->max_unmap_blocks)
			return ramlld_cdb_invalid_param(c, 8 + 16 * i + 8, SKS_NONE);
		if (!range_ok(dev, lba, nr))
			return ramlld_cdb_lba_out_of_range(c);
	}
	if (nr_desc) {
		c->res->action = RAMLLD_CDB_UNMAP;
		c->res->nr_desc = nr_desc;
	}
	return RAMLLD_CDB_GOOD;
}

/* ---- provisioning ---- */

/*
 * GET LBA STATUS(16): descriptors of consecutive runs of mapped (0) and
 * deallocated (1) blocks from the starting LBA, as many as the allocation
 * length holds (at least one), over at most RAMLLD_CDB_LBA_STATUS_SCAN_BYTES.
 */
static int ramlld_cdb_get_lba_status(struct cdb_ctx *c)
{
	const struct ramlld_cdb_dev *dev = c->dev;
	u64 lba = get_be64(&c->cdb[2]);
	u32 alloc = get_be32(&c->cdb[10]);
	u32 room = cdb_min(alloc, c->din.cap), max_desc, n;
	u64 left;
	u8 d[16];

	if (lba >= dev->nr_blocks)
		return ramlld_cdb_lba_out_of_range(c);
	max_desc = room >= 24 ? (room - 8) / 16 : 1;
	left = dev->nr_blocks - lba;
	if (left > RAMLLD_CDB_LBA_STATUS_SCAN_BYTES / dev->block_size)
		left = RAMLLD_CDB_LBA_STATUS_SCAN_BYTES / dev->block_size;
	for (n = 0; n < max_desc && left; n++) {
		/* one descriptor holds at most 2^32 - 1 blocks */
		u64 max = left < 0xffffffffull ? left : 0xffffffffull;
		bool mapped = true;
		u64 run = dev->lba_run ? dev->lba_run(dev, lba, max, &mapped) : max;

		if (!run || run > max)	/* a front end bug: claim no more than asked */
			run = max;
		memset(d, 0, sizeof(d));
		put_be64(&d[0], lba);
		put_be32(&d[8], (u32)run);
		d[12] = mapped ? 0x00 : 0x01;	/* mapped or deallocated */
		ramlld_cdb_buf_put(&c->din, 8 + 16 * n, d, sizeof(d));
		lba += run;
		left -= run;
	}
	memset(d, 0, 8);
	put_be32(d, 4 + 16 * n);
	ramlld_cdb_buf_put(&c->din, 0, d, 8);
	return ramlld_cdb_good_din(c, alloc);
}

/* ---- log pages ---- */

#define LOG_PAGE_SUPPORTED	0x00
#define LOG_PAGE_TEMPERATURE	0x0d
#define LOG_PAGE_SSM		0x11	/* solid state media */
#define LOG_PAGE_IE		0x2f	/* informational exceptions */
#define LOG_SUBPAGE_ALL		0xff
/* a log parameter's control byte: binary format list, no DU/TSD/ETC */
#define LOG_PARAM_BINARY	0x03
/* temperature with no sensor behind it (SPC-4: FFh, not available) */
#define LOG_TEMP_NONE		0xff

static const u8 log_pages[] = {
	LOG_PAGE_SUPPORTED, LOG_PAGE_TEMPERATURE, LOG_PAGE_SSM, LOG_PAGE_IE,
};

static bool ramlld_cdb_log_page_known(u8 page)
{
	u32 i;

	for (i = 0; i < sizeof(log_pages); i++)
		if (log_pages[i] == page)
			return true;
	return false;
}

/* The 4-byte header of a binary log parameter. */
static void ramlld_cdb_log_param(u8 *p, u16 code, u8 len)
{
	put_be16(p, code);
	p[2] = LOG_PARAM_BINARY;
	p[3] = len;
}

/*
 * Parameters of a page with parameters, in parameter code order. Returns
 * the parameters' length; only those with a code >= ppc are put at off.
 */
static u32 ramlld_cdb_log_params(struct cdb_ctx *c, u8 page, u16 ppc, u32 off)
{
	u8 p[2][8];
	u32 i, n = 0, len = 0;

	memset(p, 0, sizeof(p));
	switch (page) {
	case LOG_PAGE_TEMPERATURE:
		/* 0000h temperature, 0001h reference temperature */
		ramlld_cdb_log_param(p[0], 0x0000, 2);
		p[0][5] = LOG_TEMP_NONE;
		ramlld_cdb_log_param(p[1], 0x0001, 2);
		p[1][5] = LOG_TEMP_NONE;
		n = 2;
		break;
	case LOG_PAGE_SSM:
		/* 0001h percentage used endurance indicator: 0 */
		ramlld_cdb_log_param(p[0], 0x0001, 4);
		n = 1;
		break;
	case LOG_PAGE_IE:
		/* 0000h: ASC 0, ASCQ 0 (no failure predicted), temperature */
		ramlld_cdb_log_param(p[0], 0x0000, 4);
		p[0][6] = LOG_TEMP_NONE;
		n = 1;
		break;
	}
	for (i = 0; i < n; i++) {
		u32 plen = 4 + p[i][3];

		if (get_be16(p[i]) < ppc)
			continue;
		ramlld_cdb_buf_put(&c->din, off + len, p[i], plen);
		len += plen;
	}
	return len;
}

static u16 ramlld_cdb_log_params_max_code(u8 page)
{
	return page == LOG_PAGE_TEMPERATURE || page == LOG_PAGE_SSM ? 1 : 0;
}

/*
 * LOG SENSE: PPC and SP are refused by the usage data (no parameter change
 * tracking, nothing saved); PC 00b/10b (thresholds) too: no threshold is
 * kept. Subpage 00h is the page, FFh the list of the page's subpages (for
 * page 00h, of every page and subpage).
 */
static int ramlld_cdb_log_sense(struct cdb_ctx *c)
{
	const u8 *cdb = c->cdb;
	u8 pc = cdb[2] >> 6, page = cdb[2] & 0x3f, subpage = cdb[3];
	u16 ppc = get_be16(&cdb[5]);
	u32 alloc = get_be16(&cdb[7]);
	u32 i, len = 0;
	u8 hdr[4], pair[2];

	if (!(pc & 0x01))		/* threshold values */
		return ramlld_cdb_invalid_cdb(c, 2, 7);
	if (!ramlld_cdb_log_page_known(page))
		return ramlld_cdb_invalid_cdb(c, 2, 5);
	if (subpage != 0x00 && subpage != LOG_SUBPAGE_ALL)
		return ramlld_cdb_invalid_cdb(c, 3, SKS_NONE);

	memset(hdr, 0, sizeof(hdr));
	hdr[0] = page;
	hdr[1] = subpage;
	if (subpage == LOG_SUBPAGE_ALL) {
		/* a list, not parameters: no parameter pointer */
		if (ppc)
			return ramlld_cdb_invalid_cdb(c, 5, SKS_NONE);
		hdr[0] |= 0x40;		/* SPF */
		for (i = 0; i < sizeof(log_pages); i++) {
			if (page != LOG_PAGE_SUPPORTED && log_pages[i] != page)
				continue;
			pair[0] = log_pages[i];
			pair[1] = 0x00;
			ramlld_cdb_buf_put(&c->din, 4 + len, pair, 2);
			pair[1] = LOG_SUBPAGE_ALL;
			ramlld_cdb_buf_put(&c->din, 4 + len + 2, pair, 2);
			len += 4;
		}
	} else if (page == LOG_PAGE_SUPPORTED) {
		if (ppc)
			return ramlld_cdb_invalid_cdb(c, 5, SKS_NONE);
		ramlld_cdb_buf_put(&c->din, 4, log_pages, sizeof(log_pages));
		len = sizeof(log_pages);
	} else {
		if (ppc > ramlld_cdb_log_params_max_code(page))
			return ramlld_cdb_invalid_cdb(c, 5, SKS_NONE);
		len = ramlld_cdb_log_params(c, page, ppc, 4);
	}
	put_be16(&hdr[2], (u16)len);
	ramlld_cdb_buf_put(&c->din, 0, hdr, 4);
	return ramlld_cdb_good_din(c, alloc);
}

/* ---- diagnostics ---- */

#define DIAG_PAGE_SUPPORTED	0x00

/*
 * SEND DIAGNOSTIC. SELFTEST=1: the default self-test, SELF-TEST CODE 000b
 * and no parameter list. SELFTEST=0: a self-test code (short or extended,
 * background or foreground; abort background) without a parameter list, or
 * code 000b and a parameter list of one diagnostic page (PF=1).
 */
static int ramlld_cdb_send_diag(struct cdb_ctx *c)
{
	const u8 *cdb = c->cdb, *p = c->dout;
	u8 code = cdb[1] >> 5;
	bool pf = cdb[1] & 0x10, selftest = cdb[1] & 0x04;
	u32 plen = get_be16(&cdb[3]);

	if (code == 0x03 || code == 0x07)	/* reserved */
		return ramlld_cdb_invalid_cdb(c, 1, 7);
	if (selftest) {
		if (code)
			return ramlld_cdb_invalid_cdb(c, 1, 7);
		if (plen)
			return ramlld_cdb_invalid_cdb(c, 3, SKS_NONE);
		return RAMLLD_CDB_GOOD;
	}
	if (code) {
		if (plen)
			return ramlld_cdb_invalid_cdb(c, 3, SKS_NONE);
		return RAMLLD_CDB_GOOD;
	}
	if (!plen)			/* no operation */
		return RAMLLD_CDB_GOOD;
	if (!pf)			/* vendor-specific parameters */
		return ramlld_cdb_invalid_cdb(c, 1, 4);
	if (plen > RAMLLD_CDB_BUF_LEN)
		return ramlld_cdb_invalid_cdb(c, 3, SKS_NONE);
	if (c->dout_len < plen)
		return ramlld_cdb_data_phase_error(c);
	if (plen < 4 || 4u + get_be16(&p[2]) != plen)
		return ramlld_cdb_param_length_error(c);
	if (p[0] != DIAG_PAGE_SUPPORTED)
		return ramlld_cdb_invalid_param(c, 0, SKS_NONE);
	return RAMLLD_CDB_GOOD;
}

/*
 * RECEIVE DIAGNOSTIC RESULTS: the supported diagnostic pages page, asked for
 * directly (PCV=1) or as the result of the last SEND DIAGNOSTIC (PCV=0:
 * that can only have been page 00h).
 */
static int ramlld_cdb_receive_diag(struct cdb_ctx *c)
{
	const u8 *cdb = c->cdb;
	u8 d[5] = { DIAG_PAGE_SUPPORTED, 0, 0, 1, DIAG_PAGE_SUPPORTED };

	/* PCV=0: the page code is not looked at */
	if ((cdb[1] & 0x01) && cdb[2] != DIAG_PAGE_SUPPORTED)
		return ramlld_cdb_invalid_cdb(c, 2, SKS_NONE);
	ramlld_cdb_buf_put(&c->din, 0, d, sizeof(d));
	return ramlld_cdb_good_din(c, get_be16(&cdb[3]));
}

/* ---- other ---- */

static int ramlld_cdb_good(struct cdb_ctx *c)
{
	(void)c;
	return RAMLLD_CDB_GOOD;
}

static int ramlld_cdb_start_stop(struct cdb_ctx *c)
{
	cdb_write_once(c->dev->stopped, !(c->cdb[4] & 0x01));
	return RAMLLD_CDB_GOOD;
}

static int ramlld_cdb_report_opcodes(struct cdb_ctx *c);

/* ---- the table ---- */

#define F_SA		0x01	/* byte 1 bits 4..0: the service action */
#define F_MEDIA		0x02	/* NOT READY while stopped */
#define F_NO_UA		0x04	/* reports no unit attention */
#define F_DIN		0x08	/* builds data-in */

struct cdb_op {
	u8 len;
	u8 flags;
	u8 usage[16];	/* CDB usage data: opcode (and SA), then the bits read */
	int (*resp)(struct cdb_ctx *c);
};

#define RW6(op)		{ 6, F_MEDIA, { op, 0x1f, 0xff, 0xff, 0xff, 0 }, ramlld_cdb_rw }
#define RW10(op)	{ 10, F_MEDIA, { op, 0x18, 0xff, 0xff, 0xff, 0xff, 0, \
					 0xff, 0xff, 0 }, ramlld_cdb_rw }
#define RW12(op)	{ 12, F_MEDIA, { op, 0x18, 0xff, 0xff, 0xff, 0xff, 0xff, \
					 0xff, 0xff, 0xff, 0, 0 }, ramlld_cdb_rw }
/* a 16-byte CDB of the media: byte 1's bits b1, LBA (2-9), length (10-13) */
#define LBA16(op, b1, fn)	{ 16, F_MEDIA, { op, b1, 0xff, 0xff, 0xff, 0xff, \
						 0xff, 0xff, 0xff, 0xff, 0xff, \
						 0xff, 0xff, 0xff, 0, 0 }, fn }
#define RW16(op)	LBA16(op, 0x18, ramlld_cdb_rw)

/* SERVICE ACTION IN(16): READ CAPACITY(16), GET LBA STATUS(16) */
static const struct cdb_op sa_in16_ops[] = {
	{ 16, F_SA | F_DIN, { 0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0,
			      0xff, 0xff, 0xff, 0xff, 0, 0 },
	  ramlld_cdb_read_capacity16 },
	{ 16, F_SA | F_DIN | F_MEDIA, { 0x9e, 0x12, 0xff, 0xff, 0xff, 0xff, 0xff,
					0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					0xff, 0, 0 },
	  ramlld_cdb_get_lba_status },
};

/* MAINTENANCE IN: REPORT SUPPORTED OPERATION CODES */
static const struct cdb_op maint_in_ops[] = {
	{ 12, F_SA | F_DIN, { 0xa3, 0x0c, 0x87, 0xff, 0xff, 0xff, 0xff, 0xff,
			      0xff, 0xff, 0, 0 },
	  ramlld_cdb_report_opcodes },
};

/* An opcode with service actions: one entry (F_SA) for each. */
struct cdb_sa_set {
	const struct cdb_op *ops;
	u32 n;
};

static const struct cdb_sa_set cdb_sa_sets[256] = {
	[0x9e] = { sa_in16_ops, ARRAY_SIZE(sa_in16_ops) },
	[0xa3] = { maint_in_ops, ARRAY_SIZE(maint_in_ops) },
};

static const struct cdb_op cdb_ops[256] = {
	[0x00] = { 6, F_MEDIA, { 0x00, 0, 0, 0, 0, 0 }, ramlld_cdb_good },
	[0x03] = { 6, F_NO_UA | F_DIN, { 0x03, 0x01, 0, 0, 0xff, 0 },
		   ramlld_cdb_request_sense },
	[0x08] = RW6(0x08),
	[0x0a] = RW6(0x0a),
	[0x12] = { 6, F_NO_UA | F_DIN, { 0x12, 0x01, 0xff, 0xff, 0xff, 0 },
		   ramlld_cdb_inquiry },
	[0x15] = { 6, 0, { 0x15, 0x11, 0, 0, 0xff, 0 }, ramlld_cdb_mode_select },
	[0x1a] = { 6, F_DIN, { 0x1a, 0x08, 0xff, 0xff, 0xff, 0 },
		   ramlld_cdb_mode_sense },
	[0x1b] = { 6, 0, { 0x1b, 0x01, 0, 0, 0x07, 0 }, ramlld_cdb_start_stop },
	/* RECEIVE DIAGNOSTIC RESULTS: PCV, page code, allocation length */
	[0x1c] = { 6, F_DIN, { 0x1c, 0x01, 0xff, 0xff, 0xff, 0 },
		   ramlld_cdb_receive_diag },
	/* SEND DIAGNOSTIC: code, PF, SELFTEST, DEVOFFL, UNITOFFL, list length */
	[0x1d] = { 6, 0, { 0x1d, 0xf7, 0, 0xff, 0xff, 0 }, ramlld_cdb_send_diag },
	[0x1e] = { 6, 0, { 0x1e, 0, 0, 0, 0x03, 0 }, ramlld_cdb_good },
	[0x25] = { 10, F_DIN, { 0x25, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
		   ramlld_cdb_read_capacity10 },
	[0x28] = RW10(0x28),
	[0x2a] = RW10(0x2a),
	/* VERIFY: DPO, BYTCHK */
	[0x2f] = { 10, F_MEDIA, { 0x2f, 0x16, 0xff, 0xff, 0xff, 0xff, 0,
				  0xff, 0xff, 0 }, ramlld_cdb_verify },
	/* PRE-FETCH: IMMED */
	[0x34] = { 10, F_MEDIA, { 0x34, 0x02, 0xff, 0xff, 0xff, 0xff, 0,
				  0xff, 0xff, 0 }, ramlld_cdb_prefetch },
	[0x35] = { 10, F_MEDIA, { 0x35, 0x02, 0xff, 0xff, 0xff, 0xff, 0,
				  0xff, 0xff, 0 }, ramlld_cdb_sync_cache },
	[0x41] = { 10, F_MEDIA, { 0x41, 0x08, 0xff, 0xff, 0xff, 0xff, 0,
				  0xff, 0xff, 0 }, ramlld_cdb_write_same },
	[0x42] = { 10, F_MEDIA, { 0x42, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0 },
		   ramlld_cdb_unmap },
	/* LOG SENSE: PC, page, subpage, parameter pointer, allocation length */
	[0x4d] = { 10, F_DIN, { 0x4d, 0, 0xff, 0xff, 0, 0xff, 0xff, 0xff,
				0xff, 0 }, ramlld_cdb_log_sense },
	[0x55] = { 10, 0, { 0x55, 0x11, 0, 0, 0, 0, 0, 0xff, 0xff, 0 },
		   ramlld_cdb_mode_select },
	[0x5a] = { 10, F_DIN, { 0x5a, 0x18, 0xff, 0xff, 0, 0, 0, 0xff, 0xff,
				0 }, ramlld_cdb_mode_sense },
	[0x88] = RW16(0x88),
	/* COMPARE AND WRITE: DPO, FUA, LBA, number of blocks */
	[0x89] = { 16, F_MEDIA, { 0x89, 0x18, 0xff, 0xff, 0xff, 0xff, 0xff,
				  0xff, 0xff, 0xff, 0, 0, 0, 0xff, 0, 0 },
		   ramlld_cdb_compare_write },
	[0x8a] = RW16(0x8a),
	[0x8f] = LBA16(0x8f, 0x16, ramlld_cdb_verify),
	[0x90] = LBA16(0x90, 0x02, ramlld_cdb_prefetch),
	[0x91] = LBA16(0x91, 0x02, ramlld_cdb_sync_cache),
	[0x93] = LBA16(0x93, 0x09, ramlld_cdb_write_same),
	/* in cdb_ops[] for the CDB length only: see cdb_sa_sets[] */
	[0x9e] = { 16, F_SA, { 0x9e }, NULL },
	[0xa0] = { 12, F_NO_UA | F_DIN, { 0xa0, 0, 0xff, 0, 0, 0, 0xff, 0xff,
					  0xff, 0xff, 0, 0 },
		   ramlld_cdb_report_luns },
	[0xa3] = { 12, F_SA, { 0xa3 }, NULL },
	[0xa8] = RW12(0xa8),
	[0xaa] = RW12(0xaa),
	[0xaf] = { 12, F_MEDIA, { 0xaf, 0x16, 0xff, 0xff, 0xff, 0xff, 0xff,
				  0xff, 0xff, 0xff, 0, 0 }, ramlld_cdb_verify },
};

/* The entry of opcode op with service action sa (ignored without), or NULL. */
static const struct cdb_op *ramlld_cdb_lookup(u8 op, u8 sa)
{
	const struct cdb_sa_set *set = &cdb_sa_sets[op];
	u32 i;

	if (!set->n)
		return cdb_ops[op].resp ? &cdb_ops[op] : NULL;
	for (i = 0; i < set->n; i++)
		if ((set->ops[i].usage[1] & 0x1f) == sa)
			return &set->ops[i];
	return NULL;
}

/* One command descriptor of the all-commands list (RCTD: with timeouts). */
static u32 ramlld_cdb_opcode_desc(struct cdb_ctx *c, const struct cdb_op *e,
				  u32 off, bool rctd, const u8 *to, u32 to_len)
{
	u8 d[8];

	memset(d, 0, sizeof(d));
	d[0] = e->usage[0];
	if (e->flags & F_SA)
		put_be16(&d[2], e->usage[1] & 0x1f);
	d[5] = (rctd ? 0x02 : 0) | (e->flags & F_SA ? 0x01 : 0);
	put_be16(&d[6], e->len);
	ramlld_cdb_buf_put(&c->din, off, d, sizeof(d));
	off += sizeof(d);
	if (rctd) {
		ramlld_cdb_buf_put(&c->din, off, to, to_len);
		off += to_len;
	}
	return off;
}

static int ramlld_cdb_report_opcodes(struct cdb_ctx *c)
{
	const u8 *cdb = c->cdb;
	bool rctd = cdb[2] & 0x80;
	u8 ropt = cdb[2] & 0x07, req_op = cdb[3];
	u16 req_sa = get_be16(&cdb[4]);
	u32 alloc = get_be32(&cdb[6]);
	const struct cdb_sa_set *set;
	const struct cdb_op *e;
	bool has_sa = cdb_sa_sets[req_op].n;
	u8 d[20], to[12];
	u32 off, i;
	int op;

	memset(to, 0, sizeof(to));
	put_be16(to, 0x0a);	/* timeouts descriptor: no timeouts given */

	if (ropt == 0) {
		off = 4;
		for (op = 0; op < 256; op++) {
			e = &cdb_ops[op];
			set = &cdb_sa_sets[op];
			for (i = 0; i < set->n; i++)
				off = ramlld_cdb_opcode_desc(c, &set->ops[i], off,
							     rctd, to, sizeof(to));
			if (e->resp)
				off = ramlld_cdb_opcode_desc(c, e, off, rctd, to,
							     sizeof(to));
		}
		put_be32(d, off - 4);
		ramlld_cdb_buf_put(&c->din, 0, d, 4);
		return ramlld_cdb_good_din(c, alloc);
	}

	switch (ropt) {
	case 1:		/* opcode only: not for one with service actions */
		if (has_sa)
			return ramlld_cdb_invalid_cdb(c, 3, SKS_NONE);
		e = ramlld_cdb_lookup(req_op, 0);
		break;
	case 2:		/* opcode and service action */
		if (cdb_ops[req_op].resp)
			return ramlld_cdb_invalid_cdb(c, 3, SKS_NONE);
		e = req_sa <= 0x1f ? ramlld_cdb_lookup(req_op, (u8)req_sa) : NULL;
		break;
	case 3:		/* opcode, and service action if it has them */
		e = has_sa && req_sa > 0x1f ? NULL : ramlld_cdb_lookup(req_op, (u8)req_sa);
		break;
	default:
		return ramlld_cdb_invalid_cdb(c, 2, 2);
	}
	memset(d, 0, sizeof(d));
	if (!e) {
		d[1] = 0x01;	/* not supported */
		ramlld_cdb_buf_put(&c->din, 0, d, 4);
		return ramlld_cdb_good_din(c, alloc);
	}
	d[1] = (rctd ? 0x80 : 0) | 0x03;	/* supported, as the standard says */
	put_be16(&d[2], e->len);
	memcpy(&d[4], e->usage, e->len);
	ramlld_cdb_buf_put(&c->din, 0, d, 4 + e->len);
	if (rctd)
		ramlld_cdb_buf_put(&c->din, 4 + e->len, to, sizeof(to));
	return ramlld_cdb_good_din(c, alloc);
}

/* ---- entry points ---- */

void ramlld_cdb_dev_reset(struct ramlld_cdb_dev *dev, enum ramlld_cdb_ua ua)
{
	if (ua == RAMLLD_UA_POWER_ON) {
		cdb_write_once(dev->wce, dev->wce_default);
		cdb_write_once(dev->d_sense, 0);
		cdb_write_once(dev->stopped, 0);
	}
	/* keep the pending condition of highest precedence */
	if (ua > cdb_read_once(dev->ua))
		cdb_write_once(dev->ua, ua);
}

u32 ramlld_cdb_dout_len(const struct ramlld_cdb_dev *dev, const u8 *cdb,
			u32 cdb_len)
{
	u32 n;

	if (!cdb_len || cdb_len < cdb_ops[cdb[0]].len)
		return 0;
	switch (cdb[0]) {
	case 0x15:	/* MODE SELECT(6) */
		n = cdb[4];
		break;
	case 0x1d:	/* SEND DIAGNOSTIC */
		n = get_be16(&cdb[3]);
		break;
	case 0x55:	/* MODE SELECT(10) */
	case 0x42:	/* UNMAP */
		n = get_be16(&cdb[7]);
		break;
	case 0x93:	/* WRITE SAME(16): one block unless NDOB */
		n = cdb[1] & 0x01 ? 0 : dev->block_size;
		break;
	case 0x41:	/* WRITE SAME(10) */
		n = dev->block_size;
		break;
	case 0x89:	/* COMPARE AND WRITE: the blocks to compare, then to write */
		n = 2 * cdb[13] * dev->block_size;
		break;
	case 0x2f:	/* VERIFY(10/12/16) with BYTCHK=11b: one block, if any */
		n = (cdb[1] & 0x06) == 0x06 && get_be16(&cdb[7]) ? dev->block_size : 0;
		break;
	case 0xaf:
		n = (cdb[1] & 0x06) == 0x06 && get_be32(&cdb[6]) ? dev->block_size : 0;
		break;
	case 0x8f:
		n = (cdb[1] & 0x06) == 0x06 && get_be32(&cdb[10]) ? dev->block_size : 0;
		break;
	default:
		return 0;
	}
	return cdb_min(n, (u32)RAMLLD_CDB_BUF_LEN);
}

u32 ramlld_cdb_din_len(const u8 *cdb, u32 cdb_len)
{
	const struct cdb_op *e;

	if (!cdb_len || cdb_len < cdb_ops[cdb[0]].len)
		return 0;
	e = ramlld_cdb_lookup(cdb[0], cdb[1] & 0x1f);
	if (!e || !(e->flags & F_DIN))
		return 0;
	return RAMLLD_CDB_BUF_LEN;
}

/*
 * Whether a CDB of 8 bytes or more sets no bit outside e's usage data, in two
 * 8-byte words (the second ends at the last byte and may overlap the first):
 * the byte loop after it costs ~8 instructions a byte on every READ and
 * WRITE. Byte 0 is the opcode, which its own usage byte holds. false (the
 * loop decides, and finds the field pointer) for shorter CDBs, service
 * actions and any bad bit.
 */
static bool ramlld_cdb_usage_ok(const u8 *cdb, const struct cdb_op *e)
{
	unsigned long long a, ua, b, ub;

	if (e->len < 8 || (e->flags & F_SA))
		return false;
	memcpy(&a, cdb, 8);
	memcpy(&ua, e->usage, 8);
	memcpy(&b, cdb + e->len - 8, 8);
	memcpy(&ub, e->usage + e->len - 8, 8);
	return !((a & ~ua) | (b & ~ub));
}

static int ramlld_cdb_take_ua(struct cdb_ctx *c)
{
	u32 ua = cdb_xchg(&c->dev->ua, 0);

	if (!ua || ua > RAMLLD_UA_POWER_ON)
		return RAMLLD_CDB_GOOD;
	return ramlld_cdb_check_condition(c, RAMLLD_SK_UNIT_ATTENTION,
					  ramlld_cdb_ua_asc(ua), SKS_NONE,
					  SKS_NONE, false);
}

int ramlld_cdb_execute(struct ramlld_cdb_dev *dev, const u8 *cdb, u32 cdb_len,
		       const u8 *dout, u32 dout_len, u8 *din, u32 din_cap,
		       struct ramlld_cdb_result *res)
{
	struct cdb_ctx c = {
		.dev = dev, .cdb = cdb, .dout = dout, .dout_len = dout_len,
		.din = { .p = din, .cap = din ? din_cap : 0, .len = 0 },
		.res = res,
	};
	const struct cdb_op *e;
	u32 i;

	memset(res, 0, sizeof(*res));
	if (!dout)
		c.dout_len = 0;
	if (!cdb_len)
		return ramlld_cdb_illegal(&c, RAMLLD_ASC_INVALID_OPCODE);
	e = &cdb_ops[cdb[0]];
	if (!e->len)
		return ramlld_cdb_illegal(&c, RAMLLD_ASC_INVALID_OPCODE);
	if (cdb_len < e->len)
		return ramlld_cdb_illegal(&c, RAMLLD_ASC_INVALID_FIELD_CDB);
	if (e->flags & F_SA) {
		e = ramlld_cdb_lookup(cdb[0], cdb[1] & 0x1f);
		if (!e)
			return ramlld_cdb_invalid_cdb(&c, 1, 4);
	}
	if (!(e->flags & F_NO_UA) && cdb_read_once(dev->ua) && ramlld_cdb_take_ua(&c))
		return res->status;
	for (i = ramlld_cdb_usage_ok(cdb, e) ? e->len : 1; i < e->len; i++) {
		u8 allowed = e->usage[i] | (i == 1 && (e->flags & F_SA) ? 0x1f : 0);
		u8 bad = cdb[i] & ~allowed;

		if (bad)
			return ramlld_cdb_invalid_cdb(&c, i, ramlld_cdb_highest_bit(bad));
	}
	if ((e->flags & F_MEDIA) && cdb_read_once(dev->stopped))
		return ramlld_cdb_check_condition(&c, RAMLLD_SK_NOT_READY,
						  RAMLLD_ASC_NOT_READY_INIT_REQ, SKS_NONE,
						  SKS_NONE, false);
	if ((e->flags & F_DIN) && c.din.cap)
		memset(din, 0, c.din.cap);
	/* READ and WRITE by a direct call: an indirect one is a retpoline */
	return INDIRECT_CALL_1(e->resp, ramlld_cdb_rw, &c);
}
