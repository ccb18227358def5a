/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit_check.h - the checks of the host unit tests (every tests/unit test):
 * each failing check prints where and what, and the test goes on, so one run
 * lists every failure; main() reports the counts and exits 1 on any.
 */
#ifndef RAMLLD_UNIT_CHECK_H
#define RAMLLD_UNIT_CHECK_H

#include <stdio.h>

static int failures, checks;

#define CHECK(cond) do {						\
	checks++;							\
	if (!(cond)) {							\
		failures++;						\
		fprintf(stderr, "%s:%d: %s: FAILED: %s\n", __FILE__,	\
			__LINE__, __func__, #cond);			\
	}								\
} while (0)

/* compared as 64-bit values; printed in hex and, for errnos, signed */
#define CHECK_EQ(a, b) do {						\
	unsigned long long _a = (a), _b = (b);				\
	checks++;							\
	if (_a != _b) {							\
		failures++;						\
		fprintf(stderr, "%s:%d: %s: FAILED: %s == %s: 0x%llx (%lld) != 0x%llx (%lld)\n", \
			__FILE__, __LINE__, __func__, #a, #b, _a,	\
			(long long)_a, _b, (long long)_b);		\
	}								\
} while (0)

#endif /* RAMLLD_UNIT_CHECK_H */
