// SPDX-License-Identifier: GPL-2.0
/*
 * ramlld_harness_warn.c: a module whose init triggers one WARN_ON, so that the harness can check
 * that a kernel WARNING in the guest fails the run (tests/harness/002-warning.sh).
 */
#include <linux/module.h>
#include <linux/bug.h>

static int __init ramlld_harness_warn_init(void)
{
	WARN_ON(1);
	return 0;
}

static void __exit ramlld_harness_warn_exit(void)
{
}

module_init(ramlld_harness_warn_init);
module_exit(ramlld_harness_warn_exit);
MODULE_DESCRIPTION("ramlld harness test: one WARN_ON at load");
MODULE_LICENSE("GPL");
