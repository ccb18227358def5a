# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # QUEUE_DISKS is what callers read
# tools/devices/queue.sh: queue settings on the request queues that carry a disk's I/O
# (tools/devices/README.md). An NVMe multipath head (/dev/nvmeSnN where the kernel has
# CONFIG_NVME_MULTIPATH and the subsystem can have several controllers, as every NVMe-oF target
# of nvmet) is a bio-based disk with no scheduler: it passes each bio on to one path's
# namespace disk (nvmeScCnN, one per controller, hidden: no /dev node, but a /sys/block
# entry), whose blk-mq queue holds the requests and the scheduler. Settings meant for the
# device's I/O therefore go on the head and on each of its paths. DEV_SYSFS (default /sys)
# is where sysfs is (a test's fake tree).

# shellcheck source=tools/devices/rc.sh
. "$(dirname "${BASH_SOURCE[0]}")/rc.sh"

# dev_queue_disks DISK: QUEUE_DISKS = DISK and, for an NVMe multipath head, each path's disk;
# 1 (DEV_ERR) when DISK has no queue or a head has no path
dev_queue_disks() {
	local sys=${DEV_SYSFS:-/sys} p n
	QUEUE_DISKS=()
	[[ $1 =~ ^[A-Za-z0-9._:-]+$ ]] ||
		dev_bad "dev_queue_disks: bad disk name '$1' (allowed: a name in /sys/block, e.g. nvme0n1)" || return
	[ -d "$sys/block/$1/queue" ] || { DEV_ERR="no disk '$1' ($sys/block/$1/queue)"; return 1; }
	QUEUE_DISKS=("$1")
	# a head is bio-based (no mq/); a namespace without a head (multipath off, a private
	# namespace) is the blk-mq disk itself
	[[ $1 =~ ^nvme([0-9]+)n([0-9]+)$ ]] && [ ! -d "$sys/block/$1/mq" ] || return 0
	local s=${BASH_REMATCH[1]} ns=${BASH_REMATCH[2]}
	for p in "$sys/block/nvme${s}c"*"n$ns"; do
		n=${p##*/}
		[[ $n =~ ^nvme${s}c[0-9]+n${ns}$ && -d $p/queue ]] && QUEUE_DISKS+=("$n")
	done
	[ ${#QUEUE_DISKS[@]} -gt 1 ] ||
		{ DEV_ERR="$1: an NVMe multipath head (bio-based) with no path disk nvme${s}cCn$ns in $sys/block"; return 1; }
}

# dev_queue_set DISK ATTR=VALUE...: write each queue attribute on every disk of
# dev_queue_disks DISK, in the order given (the scheduler first: switching it resets
# nr_requests), and read it back (the scheduler: the one in brackets). An attribute only blk-mq
# queues have (scheduler, rq_affinity, nr_requests; 6.11 on hides them on bio-based disks) is
# passed over on a bio-based disk, whose paths carry it; anything else absent, refused or read
# back different is an error: 1, DEV_ERR naming the disk, the attribute and the value (what
# was written before it stays)
dev_queue_set() {
	local sys=${DEV_SYSFS:-/sys} disk=$1 d kv k v f got err
	shift
	for kv in "$@"; do
		[[ $kv =~ ^[a-z_]+=[A-Za-z0-9_-]+$ ]] ||
			dev_bad "dev_queue_set: bad setting '$kv' (allowed: ATTR=VALUE, e.g. scheduler=none)" || return
	done
	dev_queue_disks "$disk" || return
	for d in "${QUEUE_DISKS[@]}"; do
		for kv in "$@"; do
			k=${kv%%=*} v=${kv#*=} f=$sys/block/$d/queue/${kv%%=*}
			if [ ! -e "$f" ]; then
				[ -d "$sys/block/$d/mq" ] || continue
				DEV_ERR="$d: no queue attribute $k ($f) on a blk-mq disk"
				return 1
			fi
			if ! err=$({ printf '%s\n' "$v" > "$f"; } 2>&1); then
				DEV_ERR="$d: $k=$v refused: ${err##*: }"
				return 1
			fi
			got=''
			read -r got < "$f" || true
			[[ $k != scheduler || ! $got =~ \[([^]]*)\] ]] || got=${BASH_REMATCH[1]}
			[ "$got" = "$v" ] || { DEV_ERR="$d: $k reads '$got' after writing '$v'"; return 1; }
		done
	done
}
