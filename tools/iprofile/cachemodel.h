/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachemodel.h: the cache model of tools/iprofile/iprofile.c, a header so that a host test
 * (tests/profile/004-cache-model.sh) runs the same code on known access patterns.
 *
 * Per CPU a private L1d and a private L2, set-associative, true LRU, on physical line
 * addresses. A load or store looks up L1d; on a miss, L2; a miss fills the line into every
 * level that missed (write-allocate, non-inclusive). A store removes the line from every
 * other CPU's L1d and L2 (write-invalidate), so a CPU reading a line another CPU wrote since
 * misses, as on a coherent machine. Instruction fetches are not modelled: L2 sees only L1d's
 * misses. A model, not a machine: no prefetcher, no shared last-level cache, no latency.
 */
#ifndef CACHEMODEL_H
#define CACHEMODEL_H

#include <stdint.h>
#include <stdlib.h>

struct cm_level {
	unsigned int sets, assoc;
	uint64_t *tag;			/* sets * assoc line numbers + 1; 0: empty */
	uint64_t *used;			/* sets * assoc: the set's clock at the last use */
	uint64_t *clock;		/* sets */
};

struct cm_cpu {
	struct cm_level l1d, l2;
	uint64_t accesses, l1d_misses, l2_misses;
};

struct cm_params {
	unsigned int l1d_size, l1d_assoc, l2_size, l2_assoc, line;
};

/* 0 when valid, else the reason */
static inline const char *cm_check(const struct cm_params *p)
{
	unsigned int lv[2][2] = { { p->l1d_size, p->l1d_assoc }, { p->l2_size, p->l2_assoc } };
	int k;

	if (p->line < 8 || (p->line & (p->line - 1)))
		return "line: a power of two >= 8";
	for (k = 0; k < 2; k++) {
		unsigned int sets;

		if (!lv[k][1] || lv[k][0] % (lv[k][1] * p->line))
			return "size: a multiple of assoc * line";
		sets = lv[k][0] / (lv[k][1] * p->line);
		if (!sets || (sets & (sets - 1)))
			return "size / (assoc * line): a power of two";
	}
	return NULL;
}

static inline int cm_level_init(struct cm_level *l, unsigned int size, unsigned int assoc,
				unsigned int line)
{
	l->assoc = assoc;
	l->sets = size / (assoc * line);
	l->tag = calloc((size_t)l->sets * assoc, sizeof(*l->tag));
	l->used = calloc((size_t)l->sets * assoc, sizeof(*l->used));
	l->clock = calloc(l->sets, sizeof(*l->clock));
	return l->tag && l->used && l->clock ? 0 : -1;
}

static inline int cm_cpu_init(struct cm_cpu *c, const struct cm_params *p)
{
	return cm_level_init(&c->l1d, p->l1d_size, p->l1d_assoc, p->line) ||
	       cm_level_init(&c->l2, p->l2_size, p->l2_assoc, p->line) ? -1 : 0;
}

static inline void cm_cpu_free(struct cm_cpu *c)
{
	struct cm_level *lv[2] = { &c->l1d, &c->l2 };
	int k;

	for (k = 0; k < 2; k++) {
		free(lv[k]->tag);
		free(lv[k]->used);
		free(lv[k]->clock);
	}
}

/* Look up line number ln; on a miss fill it over the least recently used way. 1 on a hit. */
static inline int cm_access(struct cm_level *l, uint64_t ln)
{
	unsigned int set = ln & (l->sets - 1), w, victim = 0;
	uint64_t *tag = l->tag + (size_t)set * l->assoc, *used = l->used + (size_t)set * l->assoc;
	uint64_t now = ++l->clock[set];

	for (w = 0; w < l->assoc; w++) {
		if (tag[w] == ln + 1) {
			used[w] = now;
			return 1;
		}
		if (used[w] < used[victim])
			victim = w;
	}
	tag[victim] = ln + 1;
	used[victim] = now;
	return 0;
}

static inline void cm_invalidate(struct cm_level *l, uint64_t ln)
{
	unsigned int set = ln & (l->sets - 1), w;
	uint64_t *tag = l->tag + (size_t)set * l->assoc, *used = l->used + (size_t)set * l->assoc;

	for (w = 0; w < l->assoc; w++)
		if (tag[w] == ln + 1) {
			tag[w] = 0;
			used[w] = 0;
		}
}

/*
 * One access of size bytes at physical address pa by CPU me of cpus[0..n); line_shift:
 * log2 of the line. An access that crosses a line boundary touches both lines. Returns the
 * L1d misses (0-2); *l2_missed gets the L2 misses.
 */
static inline unsigned int cm_touch(struct cm_cpu *cpus, unsigned int n, unsigned int me,
				    uint64_t pa, unsigned int size, int store,
				    unsigned int line_shift, unsigned int *l2_missed)
{
	uint64_t ln = pa >> line_shift, last = (pa + (size ? size : 1) - 1) >> line_shift;
	struct cm_cpu *c = &cpus[me];
	unsigned int m1 = 0, m2 = 0, o;

	for (; ln <= last; ln++) {
		c->accesses++;
		if (!cm_access(&c->l1d, ln)) {
			m1++;
			if (!cm_access(&c->l2, ln))
				m2++;
		}
		if (store)
			for (o = 0; o < n; o++)
				if (o != me) {
					cm_invalidate(&cpus[o].l1d, ln);
					cm_invalidate(&cpus[o].l2, ln);
				}
	}
	c->l1d_misses += m1;
	c->l2_misses += m2;
	*l2_missed = m2;
	return m1;
}

#endif
