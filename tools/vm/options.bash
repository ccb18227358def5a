# SPDX-License-Identifier: GPL-2.0
# tools/vm/options.bash: tools/vm/run's command line: its --help, and reading and checking the
# options (a usage error, exit 2, before anything starts).
# shellcheck shell=bash disable=SC2154,SC2034 # the variables are tools/vm/run's

usage() {
	cat <<EOF
usage: $prog [options] -- CMD [ARG...]
       $prog [--kernel K] [--accel A] [--clock C] --print-accel

Boots kernel K in QEMU with a small initramfs, mounts this machine's root file system
read-only over virtio-9p under a tmpfs overlay (the guest root is writable, the host is not
touched), and runs CMD as root with bash, in the current directory, stdin from /dev/null.
CMD's output (stdout and stderr together) is streamed; the exit status is CMD's. The guest's
/tmp is a tmpfs of its own, with the host's folders under /tmp that the run needs laid over it
the same way: this checkout, the current directory, and each /tmp/NAME that CMD's words or a
RAMLLD_* variable name.

options:
  --kernel K      guest kernel: suite, version or folder (tools/vm/kernel --help); default bookworm
  --accel A       auto | kvm | tcg (default auto: KVM only where a guest really boots with it)
  --cpus N        virtual CPUs (default 2, or what --topology makes)
  --topology T    how the CPUs are laid out: sockets=S,cores=C[,threads=H] (S*C*H CPUs);
                  CPUs in different sockets share no cache (rq_affinity=1 differs from 2
                  only there); default: QEMU's for -smp N
  --clock C       host | icount (default host). icount: the guest's clock counts instructions,
                  1 ns each (-icount shift=0,align=off,sleep=off, TCG, one host thread), so
                  a rate measured in the guest is exact and repeatable whatever the host does
                  (docs/clock.md); it needs TCG (refused with --accel kvm)
  --icount-shift N  with --clock icount: 2^N ns per instruction (0-10, default 0; the SMP
                  time-slice experiment of docs/clock.md)
  --icount-sleep S  with --clock icount: off (default): an idle vCPU's clock jumps to its next
                  timer at once; on: it advances with the host's time while idle (QEMU's
                  default), so that a guest waiting on another (tools/vm/pair) waits as long as
                  the other takes, while its busy time still counts instructions
  --qemu Q        auto | system | trixie (default auto): the QEMU that runs the guest. system:
                  this machine's; trixie: Debian 13's QEMU 10 from tools/vm/qemu's cache (fetched
                  when missing). auto: system on the host clock; on icount trixie when fetched,
                  fetched for --cpus > 1 (QEMU 7.2 hangs booting SMP under -icount), else system
  --mem SIZE      guest memory, e.g. 512M, 2G (default 2G)
  --timeout S     kill the guest after S seconds; 0: never (default 3600). On --clock icount,
                  seconds of QEMU's host CPU time (what the guest's instructions cost, whatever
                  else the host runs), and at most 10 x S (at least 600) of wall time
  --share DIR     writable folder shared with the guest at the same path
                  (default: a fresh folder under results/vm/ of the repository)
  --append ARGS   extra kernel command line
  --console FILE  keep the guest's kernel console log in FILE
  --qemu-arg ARG  one more QEMU argument, repeatable (e.g. an NVMe drive for compare/run)
  --plugin SO[,ARG=VAL...]
                  load the TCG plugin SO (QEMU's -plugin file=SO,ARG=VAL...; needs TCG, and a
                  plugin built for the QEMU that runs it: tools/iprofile/build)
  --link listen | connect:PORT
                  a virtio-net link to one other guest, carried over a TCP stream on the
                  host's 127.0.0.1 only (QEMU's -netdev stream; nothing else reaches it).
                  listen: this run binds 127.0.0.1 on a port the host's kernel picks as free
                  (no race with other users) before QEMU starts, and writes the port to
                  --link-port-file; connect:PORT: the other guest's. The guest's side is up
                  with its address when CMD starts: 10.131.0.1/24 on the listening guest,
                  10.131.0.2 on the connecting one (RAMLLD_LINK_ADDR, RAMLLD_LINK_PEER,
                  RAMLLD_LINK_DEV). tools/vm/pair boots two guests so joined
  --link-port-file FILE  with --link listen: where the port goes
  --report FILE   write kernel reports to FILE instead of stderr (the exit status is the same)
  --verbose       stream the kernel console to stderr as well
  --print-accel   print the accelerator a guest would get and why, one line ("kvm KVM boots
                  here", "tcg KVM unusable here: a probe guest did not boot"), and boot
                  nothing but the probe (its answer is kept for this boot of the host)
  -h, --help      this text

Exit status: CMD's; 2 on a usage error (nothing booted); 124 when the guest timed out; 125 when the kernel log showed an oops, BUG,
WARNING, KASAN/UBSAN/lockdep report or panic (the report is printed), or the guest died
before CMD ended. Variables named RAMLLD_* are passed on to CMD, and these describe the run
(also on stderr): RAMLLD_CLOCK (host | icount), RAMLLD_QEMU (QEMU's version, e.g. 10.0.6),
RAMLLD_CPUS (vCPUs), RAMLLD_ACCEL (kvm | tcg), RAMLLD_ICOUNT_SHIFT (icount only).
EOF
}

# usage_error: a bad command line (exit 2, nothing started)
usage_error() {
	echo "$prog: $*" >&2
	exit 2
}

# parse_options ARG...: the options' variables, each checked, and cmd, the words after --.
parse_options() {
	local opt val kv topo_cpus topo_parts
	plugin='' link='' link_port_file='' icount_sleep=off print_accel=0 kernel='' accel=auto cpus='' topology='' clock=host icount_shift=0 qemu_choice=auto mem=2G timeout_s=3600 share='' append='' console='' verbose='' report=''
	qemu_extra=()
	while [ $# -gt 0 ]; do
		opt=$1
		case $opt in
		--) shift; break ;;
		-h | --help) usage; exit 0 ;;
		--verbose) verbose=1; shift; continue ;;
		--print-accel) print_accel=1; shift; continue ;;
		--*=*) val=${opt#*=}; opt=${opt%%=*}; shift ;;
		--kernel | --accel | --cpus | --topology | --clock | --icount-shift | --icount-sleep | --qemu | --mem | --timeout | --share | --append | --console | --report | --qemu-arg | --plugin | --link | --link-port-file)
			[ $# -ge 2 ] || usage_error "$opt needs a value"
			val=$2
			shift 2
			;;
		*) usage_error "unknown argument '$opt' (options: --kernel --accel --cpus --topology --clock --icount-shift --icount-sleep --qemu --mem --timeout --share --append --console --report --qemu-arg --plugin --link --link-port-file --verbose --print-accel --help; then -- CMD)" ;;
		esac
		case $opt in
		--kernel) kernel=$val ;;
		--accel) accel=$val ;;
		--cpus) cpus=$val ;;
		--topology) topology=$val ;;
		--clock) clock=$val ;;
		--icount-shift) icount_shift=$val ;;
		--icount-sleep) icount_sleep=$val ;;
		--qemu) qemu_choice=$val ;;
		--mem) mem=$val ;;
		--timeout) timeout_s=$val ;;
		--share) share=$val ;;
		--append) append="$append $val" ;;
		--console) console=$val ;;
		--qemu-arg) qemu_extra+=("$val") ;;
		--plugin) plugin=$val ;;
		--report) report=$val ;;
		--link) link=$val ;;
		--link-port-file) link_port_file=$val ;;
		*) usage_error "unknown option '$opt'" ;;
		esac
	done
	[ $# -gt 0 ] || [ "$print_accel" = 1 ] || usage_error "no command given: $prog [options] -- CMD [ARG...]"
	case $accel in auto | kvm | tcg) ;; *) usage_error "--accel: bad value '$accel' (allowed: auto kvm tcg)" ;; esac
	[ -z "$cpus" ] || [[ $cpus =~ ^[1-9][0-9]*$ ]] || usage_error "--cpus: bad value '$cpus' (allowed: a number >= 1)"
	smp_topology=''
	if [ -n "$topology" ]; then
		declare -A topo=([sockets]=1 [cores]=1 [threads]=1)
		IFS=, read -ra topo_parts <<< "$topology"
		for kv in "${topo_parts[@]}"; do
			[[ $kv =~ ^(sockets|cores|threads)=([1-9][0-9]*)$ ]] ||
				usage_error "--topology: bad part '$kv' in '$topology' (allowed: sockets=S,cores=C[,threads=H], numbers >= 1)"
			topo[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
		done
		topo_cpus=$((topo[sockets] * topo[cores] * topo[threads]))
		[ -z "$cpus" ] || [ "$cpus" -eq "$topo_cpus" ] ||
			usage_error "--topology: '$topology' makes $topo_cpus CPUs, but --cpus is $cpus (allowed: equal, or --cpus left out)"
		cpus=$topo_cpus
		smp_topology=",sockets=${topo[sockets]},cores=${topo[cores]},threads=${topo[threads]}"
	fi
	: "${cpus:=2}"
	case $clock in host | icount) ;; *) usage_error "--clock: bad value '$clock' (allowed: host icount)" ;; esac
	[[ $icount_shift =~ ^([0-9]|10)$ ]] || usage_error "--icount-shift: bad value '$icount_shift' (allowed: 0 to 10)"
	case $icount_sleep in on | off) ;; *) usage_error "--icount-sleep: bad value '$icount_sleep' (allowed: on off)" ;; esac
	case $qemu_choice in auto | system | trixie) ;; *) usage_error "--qemu: bad value '$qemu_choice' (allowed: auto system trixie)" ;; esac
	if [ "$clock" = icount ] && [ "$accel" = kvm ]; then
		usage_error "--clock icount needs TCG: it cannot run with --accel kvm (allowed: --accel auto or tcg)"
	fi
	if [ -n "$plugin" ]; then
		[ -f "${plugin%%,*}" ] || usage_error "--plugin: no file '${plugin%%,*}' (allowed: a plugin .so, then ,ARG=VAL...)"
		[ "$accel" != kvm ] || usage_error "--plugin needs TCG: it cannot run with --accel kvm (allowed: --accel auto or tcg)"
	fi
	[[ $mem =~ ^[1-9][0-9]*[MG]?$ ]] || usage_error "--mem: bad value '$mem' (allowed: a size like 512M or 2G)"
	case $link in
	'' | listen) ;;
	connect:*)
		{ [[ ${link#connect:} =~ ^[1-9][0-9]{0,4}$ ]] && [ "${link#connect:}" -le 65535 ]; } ||
			usage_error "--link: bad port in '$link' (allowed: connect:PORT, PORT 1-65535)"
		;;
	*) usage_error "--link: bad value '$link' (allowed: listen, connect:PORT)" ;;
	esac
	if [ "$link" = listen ]; then
		[ -n "$link_port_file" ] || usage_error "--link listen needs --link-port-file FILE (where the port it picks goes)"
	elif [ -n "$link_port_file" ]; then
		usage_error "--link-port-file is allowed with --link listen only"
	fi
	[[ $timeout_s =~ ^[0-9]+$ ]] || usage_error "--timeout: bad value '$timeout_s' (allowed: seconds, 0 for none)"
	# the share goes on the kernel command line
	[[ -z $share || $share =~ ^[A-Za-z0-9_./+:@-]+$ ]] ||
		usage_error "--share: '$share' has characters other than A-Za-z0-9_./+:@-"
	cmd=("$@")
}
