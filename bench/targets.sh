#!/usr/bin/env bash
# targets.sh measures trajeval's speed targets side by side, each in one run
# of alternating commands, and prints one markdown table per target:
#
#  1. the run history (the default, and --keep-failing all) against --no-db, 100,000 traces × 20 steps,
#     a suite with no cases: wall, CPU, peak memory and database bytes a trace;
#  2. memory per listed case: the same traces scored by a suite that lists
#     every case against the suite with none;
#  3. reading: MB of JSON Lines per CPU-second, end to end (eval --no-db) and
#     for the read-only floor (bench/readonly);
#  4. the 10,000-case peer set: trajeval (default and --no-db) against
#     @agentv/core's ToolTrajectoryGrader run by node (bench/peers/agentv-core.mjs),
#     when bench/peers.sh has installed it in the scratch folder.
#
# Usage (from the repository root):
#
#	bench/targets.sh [-runs K] [-scratch DIR] [-peers DIR] [-n N]
#
# Each command of a table runs K times (default 3), the commands taking turns
# (A B C A B C …), so that the machine's load falls on all of them alike.
# A table gives each command's median and, for each ratio, the median of the
# per-round ratios with their range. Generated data is kept in the scratch
# folder (default /tmp/trajeval-targets) and reused: the same flags write the
# same bytes.
set -euo pipefail

runs=3 scratch=/tmp/trajeval-targets peers=/tmp/trajeval-peers n=100000
while [ $# -gt 0 ]; do
	case "$1" in
	-runs) runs=$2; shift 2 ;;
	-scratch) scratch=$2; shift 2 ;;
	-peers) peers=$2; shift 2 ;;
	-n) n=$2; shift 2 ;;
	*) echo "usage: bench/targets.sh [-runs K] [-scratch DIR] [-peers DIR] [-n N]" >&2; exit 2 ;;
	esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$scratch"
bin=$scratch/bin
# trajeval is built as `go run ./release` builds what users download (static,
# without cgo, stripped): the binary a user gets by default.
(cd "$root" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$bin/trajeval" ./cmd/trajeval && go build -o "$bin/readonly" ./bench/readonly && go build -o "$bin/timeit" ./bench/timeit)

# gen DIR FLAGS...: writes the cases once; a stamp keeps the flags they were
# written with.
gen() {
	local dir=$1
	shift
	if [ "$(cat "$dir/.flags" 2>/dev/null)" != "$*" ]; then
		rm -rf "$dir"
		(cd "$root" && go run ./bench/suitegen "$@" -dir "$dir") >&2
		# A suite with no cases: every trace is scored by the suite's evaluators.
		sed '/^evalcases:/,$d' "$dir/suite.yaml" >"$dir/open.yaml"
		echo "$*" >"$dir/.flags"
	fi
}

# rounds --- NAME COMMAND ... +++ NAME SETUP COMMAND ...: runs each command
# $runs times, taking turns, and appends "name round wall cpu kb" lines to
# $log. A +++ command's SETUP (removing the history the last round wrote)
# runs before it, untimed: what is timed is trajeval's own work. A COMMAND is
# words split at spaces (no quotes), started by bench/timeit without a shell,
# so that neither a shell's start nor a timer's counts as the command's.
log=$(mktemp)
trap 'rm -f "$log" "$log".*' EXIT
rounds() {
	local -a names=() setups=() cmds=()
	while [ $# -gt 0 ]; do
		case "$1" in
		---)
			names+=("$2")
			setups+=("")
			cmds+=("$3")
			shift 3
			;;
		+++)
			names+=("$2")
			setups+=("$3")
			cmds+=("$4")
			shift 4
			;;
		*)
			echo "rounds: expected --- or +++" >&2
			exit 2
			;;
		esac
	done
	: >"$log"
	for r in $(seq "$runs"); do
		for i in "${!names[@]}"; do
			[ -z "${setups[$i]}" ] || bash -c "${setups[$i]}"
			local -a argv
			read -ra argv <<<"${cmds[$i]}"
			local status=0
			"$bin/timeit" "$log.t" "${argv[@]}" >/dev/null 2>"$log.err" || status=$?
			# Exit status 1 is a run whose cases did not all pass.
			[ "$status" -le 1 ] || { cat "$log.err" >&2; exit 1; }
			local wall cpu kb
			read -r wall cpu kb _ <"$log.t"
			echo "${names[$i]} $r $wall $cpu $kb" >>"$log"
		done
	done
}

# table BASE: prints each command's medians and its ratios to BASE's, round by
# round.
table() {
	local base=$1
	echo "| command | wall s | CPU s | peak MiB | wall ÷ $base (range) | CPU ÷ $base (range) |"
	echo "|---|---|---|---|---|---|"
	awk -v base="$base" '
		function sorted(s, a,   i, j, m, t) { m = split(s, a, " ")
			for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
			return m }
		function median(s,   a, m) { m = sorted(s, a); return m % 2 ? a[(m+1)/2] : (a[m/2] + a[m/2+1]) / 2 }
		function lo(s,   a) { sorted(s, a); return a[1] }
		function hi(s,   a, m) { m = sorted(s, a); return a[m] }
		{ name[NR] = $1; round[NR] = $2; wall[$1, $2] = $3; cpu[$1, $2] = $4; kb[$1, $2] = $5
		  if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } ; rounds[$2] = 1 }
		END {
			for (i = 1; i <= n; i++) {
				c = order[i]; w = ""; u = ""; m = ""; rw = ""; ru = ""
				for (r in rounds) {
					w = w " " wall[c, r]; u = u " " cpu[c, r]; m = m " " kb[c, r]
					rw = rw " " wall[c, r] / wall[base, r]; ru = ru " " cpu[c, r] / cpu[base, r]
				}
				printf "| %s | %.2f | %.2f | %.0f | %.2f (%.2f–%.2f) | %.2f (%.2f–%.2f) |\n", c, median(w), median(u), median(m) / 1024,
					median(rw), lo(rw), hi(rw), median(ru), lo(ru), hi(ru)
			}
		}' "$log"
}

# median COMMAND-NAME FIELD: the median of one field (3 wall, 4 cpu, 5 kb).
median() {
	awk -v c="$1" -v f="$2" '$1 == c { v[++m] = $f }
		END { for (i = 2; i <= m; i++) for (j = i; j > 1 && v[j-1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
			print m % 2 ? v[(m+1)/2] : (v[m/2] + v[m/2+1]) / 2 }' "$log"
}

big=$scratch/data-$n-20
gen "$big" -n "$n" -steps 20 -evaluators three
traces=$big/traces.jsonl
bytes=$(stat -c %s "$traces")
db=$scratch/h.db
tj=$bin/trajeval
echo "# trajeval's speed targets, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo '?'), $runs rounds; $n traces × 20 steps, $((bytes / 1000000)) MB"
echo

echo "## 1. The run history against --no-db (a suite with no cases)"
echo
rounds \
	--- no-db "$tj eval $big/open.yaml --traces $traces --format jsonl -q --no-db" \
	+++ history-all "rm -f $db $db-wal $db-shm" "$tj eval $big/open.yaml --traces $traces --format jsonl -q --db $db --keep-failing all" \
	+++ history "rm -f $db $db-wal $db-shm" "$tj eval $big/open.yaml --traces $traces --format jsonl -q --db $db"
table no-db
echo
echo "history is the default (the first 1,000 failing cases keep their trajectories and details); history-all keeps every failing case's (--keep-failing all)."
echo "History file (the default): $(stat -c %s "$db") bytes, $(($(stat -c %s "$db") / n)) a trace."
echo

echo "## 2. Memory per listed case"
echo
rounds \
	--- open "$tj eval $big/open.yaml --traces $traces --format jsonl -q --no-db" \
	--- listed "$tj eval $big/suite.yaml --traces $traces --format jsonl -q --no-db"
table open
suite=$(stat -c %s "$big/suite.yaml")
awk -v o="$(median open 5)" -v l="$(median listed 5)" -v n="$n" -v s="$suite" 'BEGIN {
	printf "\nListed minus open, median peaks: %.0f bytes a listed case (the suite file is %.0f bytes a case).\n\n", (l - o) * 1024 / n, s / n }'

echo "## 3. Reading"
echo
rounds \
	--- readonly "$bin/readonly $traces" \
	--- eval-no-db "$tj eval $big/open.yaml --traces $traces --format jsonl -q --no-db"
table readonly
awk -v b="$bytes" -v e="$(median eval-no-db 4)" -v r="$(median readonly 4)" -v ew="$(median eval-no-db 3)" 'BEGIN {
	printf "\nEnd to end (eval --no-db): %.0f MB per CPU-second, %.0f MB/s wall; read only: %.0f MB per CPU-second.\n\n", b / 1e6 / e, b / 1e6 / ew, b / 1e6 / r }'

echo "## 4. The 10,000-case peer set against @agentv/core's grader"
echo
if [ -d "$peers/node_modules/@agentv/core" ]; then
	cp "$root"/bench/peers/*.mjs "$peers/"
	small=$peers/data-10000-20
	if [ "$(cat "$small/.flags" 2>/dev/null)" != "-n 10000 -steps 20 -evaluators check -peers" ]; then
		rm -rf "$small"
		(cd "$root" && go run ./bench/suitegen -n 10000 -steps 20 -evaluators check -peers -dir "$small") >&2
		echo "-n 10000 -steps 20 -evaluators check -peers" >"$small/.flags"
	fi
	rounds \
		+++ trajeval "rm -rf $small/.trajeval" "$tj eval $small/suite.yaml --traces $small/traces.jsonl --format jsonl" \
		--- trajeval-no-db "$tj eval $small/suite.yaml --traces $small/traces.jsonl --format jsonl --no-db" \
		--- agentv-core "node $peers/agentv-core.mjs $small"
	table trajeval
else
	echo "Skipped: @agentv/core is not installed in $peers (run bench/peers.sh once)."
fi
