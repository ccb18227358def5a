#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: NVMe passthrough: ramlld's mq disk exported through nvmet (nvme-tcp on 127.0.0.1, nvme-loop where the kernel has it); 4 MiB written with fio's crc32c verify headers through the namespace's generic character device /dev/ngXnY (io_uring_cmd) read back and verified through its block device /dev/nvmeXnY (io_uring, O_DIRECT), and the reverse; a block changed through the writing path is found by the reading path's verify (EILSEQ at its offset)
# where: guest
# requires: fio python3
# timeout: 900
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stacks/stacks-lib.bash
. "$TOP/tests/stacks/stacks-lib.bash"
# shellcheck source=tests/poll-lib.bash
. "$TOP/tests/poll-lib.bash"
# shellcheck source=tests/verify-lib.bash
. "$TOP/tests/verify-lib.bash"

kernel_at_least 5 19 || skip "kernel $(uname -r): io_uring passthrough (IORING_OP_URING_CMD) came in 5.19"
fio --enghelp=io_uring_cmd > /dev/null 2>&1 || skip "fio $(fio --version) has no io_uring_cmd engine"
# shellcheck disable=SC2034 # cross_verify takes them by name
{
	ng_cmd=(--ioengine=io_uring_cmd --cmd_type=nvme --iodepth=8)
	nvme_blk=(--ioengine=io_uring --direct=1 --iodepth=8)
}
ramlld_load mode=bio,mq capacity_mb=16
stack_need nvme-tcp
for s in nvme-tcp nvme-loop; do
	if ! stack_available "$s"; then
		echo "not here: $s ($("$STACK" list | awk -v s="$s" '$1 == s' | sed 's/^[^ ]* *unavailable *//'))"
		continue
	fi
	state_snapshot
	stack_up "$s" /dev/ramlldmq0
	ng=/dev/ng${DEV#/dev/nvme}
	[ -c "$ng" ] || fail "$s: no generic character device $ng beside $DEV"
	cross_verify "$s-ng" "$ng" ng_cmd "$s-blk" "$DEV" nvme_blk
	cross_verify "$s-blk" "$DEV" nvme_blk "$s-ng" "$ng" ng_cmd
	"$STACK" down "$s" || fail "tools/stack down $s failed"
	state_check "down $s"
done
ramlld_unload
