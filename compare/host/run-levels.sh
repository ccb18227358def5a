# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/host/run-levels.sh: compare/run's levels as data files (compare/levels/*: their format
# is in compare/levels/default-exact), read into compare/run's variables; sourced by compare/run.

# level_set SET [LEVEL]: a comma list of targets from their files' headers: refs (the targets
# whose "# levels:" holds LEVEL, but the stacks over ramlld: the references and LIO), stacks (the
# stacks over ramlld of LEVEL), ladder (the cost ladder's rungs that LEVEL runs: "# ladder:"),
# summary-polled (the summary's polled paths: "# summary: PATH, polled")
level_set() {
	case $1 in
	refs | stacks)
		"$here/guest-run" --list-targets | awk -F'\t' -v lvl="$2" -v want="$1" '
			$3 != "host" && (" " $5 " ") ~ (" " lvl " ") {
				stack = $3 == "stack" && $1 != "lio"
				if ((want == "stacks") == stack) printf "%s%s", n++ ? "," : "", $1
			}'
		;;
	ladder) python3 "$here/lib/targets.py" ladder "$2" ;;
	summary-polled) python3 "$here/lib/targets.py" summary-polled ;;
	*) return 1 ;;
	esac
}

# level_value VALUE: VALUE with each @SET[=LEVEL] replaced by its targets, and each ",-NAME"
# after one left out of that list
level_value() {
	local v=$1 set joined t
	local -a list kept
	while [[ $v =~ @([a-z-]+)(=([a-z]+))?((,-[a-z0-9-]+)*) ]]; do
		set=$(level_set "${BASH_REMATCH[1]}" "${BASH_REMATCH[3]}") ||
			die "$level_file: bad set '@${BASH_REMATCH[1]}' (allowed: @refs=LEVEL @stacks=LEVEL @ladder=LEVEL @summary-polled)"
		kept=()
		IFS=, read -r -a list <<< "$set"
		for t in "${list[@]}"; do [[ ${BASH_REMATCH[4]}, == *",-$t,"* ]] || kept+=("$t"); done
		joined=$(IFS=,; echo "${kept[*]}")
		v=${v/"${BASH_REMATCH[0]}"/$joined}
	done
	echo "$v"
}

# load_level FILE: the level's keys into name, level, cpus (unless --cpus), level_meta,
# knob_level and spot_every (unless --spot-every); its options before the user's own (gargs),
# so that those given win
load_level() {
	local line key val largs=()
	level_file=$1
	while IFS= read -r line; do
		case $line in
		'#'* | '') ;;
		--*)
			key=${line%% *} val=${line#* }
			[ "$key" != "$line" ] || die "$level_file: '$line' has no value"
			largs+=("$key" "$(level_value "$val")")
			;;
		*:*)
			key=${line%%:*} val=${line#*: }
			case $key in
			name) name=$val ;;
			level) level=$val ;;
			cpus) [ "$cpus_given" = 1 ] || cpus=$val ;;
			meta) level_meta=$val ;;
			knob-level) knob_level=$val ;;
			spot-every) [ -n "$spot_every" ] || spot_every=$val ;;
			*) die "$level_file: unknown key '$key' (allowed: name level cpus meta knob-level spot-every)" ;;
			esac
			;;
		*) die "$level_file: bad line '$line' (allowed: KEY: VALUE or --OPTION VALUE)" ;;
		esac
	done < "$level_file"
	gargs=("${largs[@]}" "${gargs[@]}")
}
