# SPDX-License-Identifier: GPL-2.0
# Makefile: user targets around the out-of-tree kbuild (Kbuild, drivers/Kbuild).
#
#   make                  build drivers/ramlld.ko (KDIR=... another tree)
#   make check            host unit tests + the guest suite; ends with "N passed, N failed"
#                         (HOST=1: guest tests on this machine; TESTS=PATTERNS: a subset;
#                         J=N: N guests at once, default the CPU count)
#   make check-two-node   the two-node halves' tests, most in a target's and an initiator's guest
#   make check-profile    the per-CPU knob table's profiled boot (QEMU 10, 2 vCPUs)
#   make compare          the comparison (compare/README or docs/usage.md); HOST=1 YES=1: on this
#                         machine's own kernel, as root (compare/run --bare-metal)
#   make build-kernels    W=1 builds for the Debian kernels 5.10 6.1 6.12 7.x (docs/kernels.md)
#   make check-kernels    those builds + the guest suite on each (SMOKE=1: a smoke test only);
#                         KERNEL=K for make/check; make compare KERNELS="..." the ratios per kernel
#   make check-debug      the guest suite on a debug kernel (KASAN, lockdep, kmemleak, fault
#                         injection) built once from linux-source-6.1 (docs/reliability.md)
#   make lint             shellcheck on every bash script, checkpatch --strict on drivers/
#   make publish          docs/results.md, .json, .csv and README's headline from a run
#                         (RUN=DIR; default: the newest folder in results/)
#   make install          install the module into the running kernel's tree (depmod: modprobe
#                         ramlld then loads its dependencies)

SHELL := /bin/bash
TOP := $(CURDIR)
KERNEL ?=
# The running kernel's build tree when it has one, else the default guest kernel's headers.
KDIR ?= $(shell if [ -d /lib/modules/$$(uname -r)/build ]; then echo /lib/modules/$$(uname -r)/build; \
	else $(TOP)/tools/vm/kernel --print-kdir $(KERNEL) 2>/dev/null; fi)

.PHONY: all module modules clean install publish check check-two-node check-profile check-unit fuzz compare help build-kernels check-kernels check-debug lint

all: module

# KERNEL=K (a suite: bullseye trixie sid, or a version): build for that Debian kernel with its own
# compiler, in a cached chroot (tools/vm/build-in-chroot), into build/kernels/<version>/ramlld.ko.
KERNEL_KO = $(TOP)/build/kernels/$(shell $(TOP)/tools/vm/kernel --print-version $(KERNEL))/ramlld.ko

module modules:
ifneq ($(KERNEL),)
	@$(TOP)/tools/vm/build-in-chroot $(KERNEL) || [ $$? = 3 ]
else
	@[ -n "$(KDIR)" ] && [ -d "$(KDIR)" ] || { echo "make: no kernel build tree: set KDIR, or run tools/vm/kernel fetch" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) modules
endif

install: module
	$(MAKE) -C $(KDIR) M=$(TOP) modules_install
	depmod -a

clean:
	@[ -z "$(KDIR)" ] || [ ! -d "$(KDIR)" ] || $(MAKE) -C $(KDIR) M=$(TOP) clean
	rm -rf build

# The test suite (tests/run --help). HOST=1: guest tests run on this machine (root, module built
# for the running kernel). TESTS=PATTERNS: a subset. KERNEL=K: another guest kernel. J=N: at most
# N guests at once, the host tests beside them (default: the CPU count; J=1 one after the other).
TESTS ?=
check:
	@$(TOP)/tools/deps
	@$(MAKE) --no-print-directory module
	@$(if $(KERNEL),RAMLLD_KO=$(KERNEL_KO)) $(TOP)/tests/run $(if $(J),-j $(J)) $(if $(HOST),--host) $(if $(KERNEL),--kernel $(KERNEL)) $(TESTS)

# The two-node tests (tests/run --suite two-node): the two-node halves of tools/stack, two guests
# a test but one (018: the halves failed part-way, one guest), 40 s to 8 min a test (about 20 min
# together at host load 2-4), out of make check's time; CI runs them after it.
check-two-node:
	@$(TOP)/tools/deps
	@$(MAKE) --no-print-directory module
	@$(TOP)/tests/run --suite two-node $(TESTS)

# The profile suite (tests/run --suite profile): the per-CPU knob table from a profiled boot of
# QEMU 10 with 2 vCPUs, 4-9 min; make check keeps one short profiled guest (profile/001).
check-profile:
	@$(TOP)/tools/deps
	@$(MAKE) --no-print-directory module
	@$(TOP)/tests/run --suite profile $(TESTS)

# Other kernels (docs/kernels.md): W=1 builds for bullseye (5.10), bookworm (6.1), trixie (6.12)
# and sid (7.x), each in its suite's chroot; check-kernels also boots each and runs the whole
# guest suite on it (an hour and more on TCG), or with SMOKE=1 only a smoke test (load mode=all,
# write through bio, read back through mq and sd, unload: CI's). KERNELS=... a subset.
KERNELS ?=
build-kernels:
	@$(TOP)/tools/vm/check-kernels --build-only $(KERNELS)

check-kernels:
	@$(TOP)/tools/deps
	@$(TOP)/tools/vm/check-kernels $(if $(SMOKE),--smoke) $(if $(TESTS),--tests "$(TESTS)") $(KERNELS)

# The guest suite on the debug kernel (tools/vm/check-debug --help): builds the kernel the first
# time (cached), ramlld.ko for it, then every guest test with 4x their timeouts and a kmemleak
# scan in each guest. TESTS=PATTERNS: a subset. Over an hour under TCG: not part of `make check`.
check-debug:
	@$(TOP)/tools/deps
	@$(TOP)/tools/vm/check-debug $(TESTS)

# Style gates (tools/lint --help); make check runs them too (tests/style/).
lint:
	@$(TOP)/tools/lint

check-unit:
	@$(TOP)/tests/run unit/

# The comparison (compare/run --help): tools/deps first, as for check; compare/run builds the
# module itself and stops at once when that fails. QUICK=1 (on TCG the exact
# quick level, then the knob table in a 2-vCPU guest; ARGS=--plan: its run count and estimated
# time) or FULL=1 picks the level (not both); ARGS="..." passes anything else, e.g.
# ARGS="--bench scsi".
# HOST=1: on this machine's running kernel (compare/bare-metal --help: root, the module built for
# it; it loads and unloads ramlld and the references itself); YES=1 (or RAMLLD_YES=1) means it,
# else it prints what it would load and stops.
# KERNEL=K: on that kernel; KERNELS="bullseye bookworm trixie sid": a small matrix on each and
# the block-vs-SCSI ratios per kernel in one table (compare/run --kernels).
compare:
	@$(TOP)/tools/deps
	@$(TOP)/compare/run $(if $(HOST),--bare-metal $(if $(YES),--yes)) \
		$(if $(QUICK),--quick) $(if $(FULL),--full) $(if $(KERNEL),--kernel $(KERNEL)) \
		$(if $(KERNELS),--kernels "$(KERNELS)") $(ARGS)

# The published results (compare/publish --help): refused for a run of other code than
# this tree's (the module as built, compare/targets, the workloads) or one stopped early.
RUN ?=
publish: module
	@$(TOP)/compare/publish $(RUN)

help:
	@awk 'NR > 1 && !/^#/ { exit } NR > 1' Makefile
