# SPDX-License-Identifier: GPL-2.0
# Makefile: user targets around the out-of-tree kbuild (Kbuild, drivers/Kbuild).
#
#   make                  build drivers/ramlld.ko (KDIR=... for another kernel tree)
#   make check            host unit tests + the guest suite; ends with "N passed, N failed"
#                         (HOST=1: guest tests on this machine; TESTS=PATTERNS: a subset)
#   make compare          the comparison (compare/README or docs/usage.md)
#   make install          install the module into the running kernel's tree

SHELL := /bin/bash
TOP := $(CURDIR)
KERNEL ?=
# The running kernel's build tree when it has one, else the default guest kernel's headers.
KDIR ?= $(shell if [ -d /lib/modules/$$(uname -r)/build ]; then echo /lib/modules/$$(uname -r)/build; \
	else $(TOP)/tools/vm/kernel --print-kdir $(KERNEL) 2>/dev/null; fi)

.PHONY: all module modules clean install check check-unit fuzz compare help

all: module

module modules:
	@[ -n "$(KDIR)" ] && [ -d "$(KDIR)" ] || { echo "make: no kernel build tree: set KDIR, or run tools/vm/kernel fetch" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) modules

install: module
	$(MAKE) -C $(KDIR) M=$(TOP) modules_install
	depmod -a

clean:
	@[ -z "$(KDIR)" ] || [ ! -d "$(KDIR)" ] || $(MAKE) -C $(KDIR) M=$(TOP) clean
	rm -rf build

# The test suite (tests/run --help). HOST=1: guest tests run on this machine (root, module built
# for the running kernel). TESTS=PATTERNS: a subset. KERNEL=K: another guest kernel.
TESTS ?=
check:
	@$(TOP)/tools/deps
	@$(MAKE) --no-print-directory module
	@$(TOP)/tests/run $(if $(HOST),--host) $(if $(KERNEL),--kernel $(KERNEL)) $(TESTS)

check-unit:
	@$(TOP)/tests/run unit/

# The comparison (compare/run --help; it builds the module itself). QUICK=1 (about 10 min on
# TCG) or FULL=1 picks the level; ARGS="..." passes anything else, e.g. ARGS="--bench scsi".
compare:
	@$(TOP)/compare/run $(if $(QUICK),--quick) $(if $(FULL),--full) $(ARGS)

help:
	@sed -n '2,10p' Makefile
