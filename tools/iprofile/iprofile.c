// SPDX-License-Identifier: GPL-2.0
/*
 * iprofile: a QEMU TCG plugin that counts the guest instructions executed at each guest
 * code address, per guest CPU, and writes the counts of each measurement window.
 *
 * A window ends, and the next begins, each time the guest executes the instruction at
 * mark=ADDR (with nokaslr, e.g. __x64_sys_sync's first instruction: the guest's `sync`).
 * Each window's counts are appended to out=FILE as text (docs/profile.md):
 *
 *   window N gs GSBASE       N from 1; the marker CPU's kernel GS base (0 if unknown)
 *   cpu SLOT GSBASE          when a CPU is first seen
 *   ADDR SLOT COUNT          instructions executed at ADDR on CPU SLOT in the window
 *   end N total T
 *
 * QEMU 7.2 (plugin API 1): an inline add before every instruction, to that instruction's
 * counter: exact, one CPU slot (the API cannot tell vCPUs apart inside inline code).
 * Plugin API 2 on (QEMU 9, 10): a callback at each block's start reads the executing CPU's
 * kernel GS base (gs_base in kernel mode, k_gs_base in user mode) and counts the block
 * for that CPU. Under -icount QEMU bakes the translating vCPU's index into a block's code,
 * and per-vCPU inline scoreboards abort with two vCPUs, so neither can be used; an
 * instruction after an MMIO access in the same block is counted twice at this grain.
 *
 * cache=L1DSIZE:L1DASSOC:L2SIZE:L2ASSOC:LINE adds a cache model (cachemodel.h) fed by every
 * load and store to RAM, on its physical address, by the CPU that runs it; each window then
 * also holds
 *
 *   cache SLOT ACCESSES L1D_MISSES L2_MISSES    per CPU slot, in the window
 *   miss ADDR SLOT L1D_MISSES L2_MISSES         per instruction that missed
 *
 * QEMU runs the vCPUs in turn on one thread under -icount, so the CPU of a block's accesses is
 * the one its start callback found.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <qemu-plugin.h>

#include "cachemodel.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_SLOTS 16
#define KERNEL_BASE 0xffff800000000000ULL

struct insn {
	uint64_t vaddr;
	uint64_t count[MAX_SLOTS];
	uint64_t last[MAX_SLOTS];
	uint64_t *miss;			/* with the cache model: [2 * slot + level], this window */
	struct insn *next;		/* hash chain */
};

static struct insn **table;
static size_t table_size = 1 << 20;
static struct insn **all;		/* every record, for the dump */
static size_t nr_all, cap_all;

static FILE *out;
static uint64_t mark;
static unsigned int window = 1;
static unsigned int nr_slots = 1;	/* slot 0: the only one on API 1 */
static uint64_t unknown_cpu;		/* blocks run with no kernel GS base (early boot) */
static unsigned int cur_slot;		/* the CPU slot of the block being run */

static struct cm_params cache;		/* line 0: no cache model */
static struct cm_cpu cm[MAX_SLOTS];
static uint64_t cm_last[MAX_SLOTS][3];
static unsigned int line_shift;

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p) {
		fprintf(stderr, "iprofile: out of memory\n");
		abort();
	}
	return p;
}

static struct insn *insn_get(uint64_t vaddr)
{
	size_t h = (vaddr * 0x9e3779b97f4a7c15ULL) >> 44 & (table_size - 1);
	struct insn *i;

	for (i = table[h]; i; i = i->next)
		if (i->vaddr == vaddr)
			return i;
	i = xcalloc(1, sizeof(*i));
	i->vaddr = vaddr;
	i->next = table[h];
	table[h] = i;
	if (nr_all == cap_all) {
		cap_all = cap_all ? 2 * cap_all : 1 << 16;
		all = realloc(all, cap_all * sizeof(*all));
		if (!all) {
			fprintf(stderr, "iprofile: out of memory\n");
			abort();
		}
	}
	all[nr_all++] = i;
	return i;
}

#if QEMU_PLUGIN_VERSION >= 2
/* A translated block: its instructions and its executions per CPU slot. */
struct block {
	size_t n;
	uint64_t count[MAX_SLOTS];
	uint64_t last[MAX_SLOTS];
	struct block *next;
	struct insn *insns[];
};

static struct block *blocks;
static uint64_t slot_gs[MAX_SLOTS];	/* slot 0: blocks run with no kernel GS base */
static struct qemu_plugin_register *reg_gs, *reg_kgs;
static GByteArray *regbuf;

static uint64_t read_reg(struct qemu_plugin_register *r)
{
	uint64_t v = 0;

	g_byte_array_set_size(regbuf, 0);
	if (r && qemu_plugin_read_register(r, regbuf) == 8)
		memcpy(&v, regbuf->data, 8);
	return v;
}

/* The executing CPU's slot, from its kernel GS base (the per-CPU area's address). */
static int cpu_slot(void)
{
	uint64_t gs = read_reg(reg_gs);
	unsigned int s;

	if (gs < KERNEL_BASE)
		gs = read_reg(reg_kgs);
	if (gs < KERNEL_BASE)
		return -1;
	for (s = 1; s < nr_slots; s++)
		if (slot_gs[s] == gs)
			return s;
	if (nr_slots == MAX_SLOTS)
		return 0;
	slot_gs[nr_slots] = gs;
	fprintf(out, "cpu %u 0x%" PRIx64 "\n", nr_slots, gs);
	return nr_slots++;
}

static void block_exec(unsigned int vcpu_index, void *udata)
{
	struct block *b = udata;
	int s = cpu_slot();

	if (s < 0) {
		unknown_cpu += b->n;
		s = 0;
	}
	cur_slot = s;
	b->count[s]++;
}

/* Block counts become instruction counts, once per dump. */
static void blocks_to_insns(void)
{
	struct block *b;
	unsigned int s;
	size_t k;

	for (b = blocks; b; b = b->next)
		for (s = 0; s < nr_slots; s++) {
			uint64_t d = b->count[s] - b->last[s];

			if (!d)
				continue;
			b->last[s] = b->count[s];
			for (k = 0; k < b->n; k++)
				b->insns[k]->count[s] += d;
		}
}

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	GArray *regs = qemu_plugin_get_registers();
	unsigned int k;

	for (k = 0; k < regs->len; k++) {
		qemu_plugin_reg_descriptor *d = &g_array_index(regs, qemu_plugin_reg_descriptor, k);

		if (!strcmp(d->name, "gs_base"))
			reg_gs = d->handle;
		else if (!strcmp(d->name, "k_gs_base"))
			reg_kgs = d->handle;
	}
	g_array_free(regs, TRUE);
	if (!reg_gs || !reg_kgs)
		fprintf(stderr, "iprofile: no gs_base/k_gs_base register: one CPU slot\n");
}

static uint64_t marker_gs(void)
{
	int s = cpu_slot();

	return s > 0 ? slot_gs[s] : 0;
}
#else
static void blocks_to_insns(void)
{
}

static uint64_t marker_gs(void)
{
	return 0;
}
#endif

/* gs: the marker CPU's kernel GS base, 0 at exit (no CPU context there) */
static void dump(uint64_t gs, const char *why)
{
	uint64_t total = 0;
	size_t k;
	unsigned int s;

	blocks_to_insns();
	fprintf(out, "window %u gs 0x%" PRIx64 "%s\n", window, gs, why);
	for (k = 0; k < nr_all; k++) {
		struct insn *i = all[k];

		for (s = 0; s < nr_slots; s++) {
			uint64_t d = i->count[s] - i->last[s];

			if (!d)
				continue;
			i->last[s] = i->count[s];
			total += d;
			fprintf(out, "%" PRIx64 " %u %" PRIu64 "\n", i->vaddr, s, d);
		}
		if (!i->miss)
			continue;
		for (s = 0; s < nr_slots; s++)
			if (i->miss[2 * s])
				fprintf(out, "miss %" PRIx64 " %u %" PRIu64 " %" PRIu64 "\n", i->vaddr,
					s, i->miss[2 * s], i->miss[2 * s + 1]);
		memset(i->miss, 0, 2 * MAX_SLOTS * sizeof(*i->miss));
	}
	for (s = 0; cache.line && s < nr_slots; s++) {
		uint64_t now[3] = { cm[s].accesses, cm[s].l1d_misses, cm[s].l2_misses };

		fprintf(out, "cache %u %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", s,
			now[0] - cm_last[s][0], now[1] - cm_last[s][1], now[2] - cm_last[s][2]);
		memcpy(cm_last[s], now, sizeof(now));
	}
	fprintf(out, "end %u total %" PRIu64 " nocpu %" PRIu64 "\n", window, total, unknown_cpu);
	fflush(out);
	unknown_cpu = 0;
	window++;
}

static void mark_exec(unsigned int vcpu_index, void *udata)
{
	dump(marker_gs(), "");
}

static void mem_exec(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr,
		     void *udata)
{
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
	struct insn *i = udata;
	unsigned int m1, m2;

	if (!hw || qemu_plugin_hwaddr_is_io(hw))
		return;
	m1 = cm_touch(cm, nr_slots, cur_slot, qemu_plugin_hwaddr_phys_addr(hw),
		      1u << qemu_plugin_mem_size_shift(info), qemu_plugin_mem_is_store(info),
		      line_shift, &m2);
	if (!m1)
		return;
	i->miss[2 * cur_slot] += m1;
	i->miss[2 * cur_slot + 1] += m2;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), k;
#if QEMU_PLUGIN_VERSION >= 2
	struct block *b = xcalloc(1, sizeof(*b) + n * sizeof(b->insns[0]));

	b->n = n;
	b->next = blocks;
	blocks = b;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, block_exec, QEMU_PLUGIN_CB_R_REGS, b);
#endif
	for (k = 0; k < n; k++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, k);
		uint64_t vaddr = qemu_plugin_insn_vaddr(insn);
		struct insn *i = insn_get(vaddr);

#if QEMU_PLUGIN_VERSION >= 2
		b->insns[k] = i;
#else
		qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
							   &i->count[0], 1);
#endif
		if (cache.line) {
			if (!i->miss)
				i->miss = xcalloc(2 * MAX_SLOTS, sizeof(*i->miss));
			qemu_plugin_register_vcpu_mem_cb(insn, mem_exec, QEMU_PLUGIN_CB_NO_REGS,
							 QEMU_PLUGIN_MEM_RW, i);
		}
		if (mark && vaddr == mark)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_exec,
							       QEMU_PLUGIN_CB_R_REGS, NULL);
	}
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	dump(0, " exit");
	fclose(out);
}

/* cache=L1DSIZE:L1DASSOC:L2SIZE:L2ASSOC:LINE; 0, or -1 with the reason on stderr */
static int parse_cache(const char *v)
{
	const char *why;
	char tail;

	if (sscanf(v, "%u:%u:%u:%u:%u%c", &cache.l1d_size, &cache.l1d_assoc, &cache.l2_size,
		   &cache.l2_assoc, &cache.line, &tail) != 5)
		why = "five numbers L1DSIZE:L1DASSOC:L2SIZE:L2ASSOC:LINE, e.g. 32768:8:1048576:16:64";
	else
		why = cm_check(&cache);
	if (why) {
		fprintf(stderr, "iprofile: bad cache '%s' (allowed: %s)\n", v, why);
		cache.line = 0;
		return -1;
	}
	while ((1u << line_shift) < cache.line)
		line_shift++;
	return 0;
}

/* One argument: out=FILE, mark=ADDR or cache=...; 0, or -1 with the reason on stderr. */
static int parse_arg(const char *arg, const char **path)
{
	char *end;

	if (!strncmp(arg, "out=", 4)) {
		*path = arg + 4;
		return 0;
	}
	if (!strncmp(arg, "cache=", 6))
		return parse_cache(arg + 6);
	if (strncmp(arg, "mark=", 5)) {
		fprintf(stderr, "iprofile: unknown argument '%s' (allowed: out=FILE mark=ADDR %s)\n",
			arg, "cache=L1DSIZE:L1DASSOC:L2SIZE:L2ASSOC:LINE");
		return -1;
	}
	mark = strtoull(arg + 5, &end, 0);
	if (*end || !mark) {
		fprintf(stderr, "iprofile: bad mark '%s' (allowed: an address, e.g. %s)\n",
			arg + 5, "0xffffffff813ac050");
		return -1;
	}
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	int smp = info->system_emulation ? info->system.smp_vcpus : 1;
	const char *path = NULL;
	int k;

	for (k = 0; k < argc; k++)
		if (parse_arg(argv[k], &path))
			return -1;
	if (!path) {
		fprintf(stderr, "iprofile: out=FILE is needed\n");
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return -1;
	}
	table = xcalloc(table_size, sizeof(*table));
	fprintf(out, "# iprofile plugin-api %d qemu-plugin-version %d smp %d mark 0x%" PRIx64 "\n",
		QEMU_PLUGIN_VERSION, info->version.cur, smp, mark);
	if (cache.line) {
		for (k = 0; k < MAX_SLOTS; k++)
			if (cm_cpu_init(&cm[k], &cache)) {
				fprintf(stderr, "iprofile: out of memory for the cache model\n");
				return -1;
			}
		fprintf(out, "# cache model: per CPU L1d %u B %u-way, L2 %u B %u-way, line %u B, %s\n",
			cache.l1d_size, cache.l1d_assoc, cache.l2_size, cache.l2_assoc, cache.line,
			"LRU, write-allocate, write-invalidate, physical addresses, data only");
	}
#if QEMU_PLUGIN_VERSION >= 2
	regbuf = g_byte_array_new();
	qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
#else
	if (smp > 1)
		fprintf(stderr, "iprofile: plugin API 1 cannot tell %d vCPUs apart: %s\n",
			smp, "counts are their sum");
#endif
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
