#!/usr/bin/env bash
# peers.sh scores the same generated cases with trajeval and, side by side,
# with AgentV (its cli target replaying the recorded runs), AgentV's grader
# called directly (@agentv/core), LangChain agentevals and promptfoo's
# trajectory assertions, and prints wall time, CPU time (user + system),
# peak memory and the ratios to trajeval for each. See bench/README.md.
#
# trajeval runs twice: as `trajeval eval` runs by default, recording the run
# in its history (a fresh .trajeval/runs.db beside the suite each time), and
# with --no-db, which records nothing. The ratios are to the first, the
# default.
#
# Usage (from the repository root):
#
#	bench/peers.sh [-n CASES] [-steps STEPS] [-repeat R] [-scratch DIR] [-data DIR]
#
# Every tool runs the same check on the same cases (see bench/suitegen):
# search, read_document and summarize in this order, each with at least the
# expected arguments. The peers are installed from npm into the scratch
# folder (default /tmp/trajeval-peers) on the first run; node and npm come
# from Debian's packages when missing. Each tool runs R times (default 3);
# the fastest run is shown, with its peak resident memory.
set -euo pipefail

n=1000 steps=20 repeat=3 scratch=/tmp/trajeval-peers data=""
while [ $# -gt 0 ]; do
	case "$1" in
	-n) n=$2; shift 2 ;;
	-steps) steps=$2; shift 2 ;;
	-repeat) repeat=$2; shift 2 ;;
	-scratch) scratch=$2; shift 2 ;;
	-data) data=$2; shift 2 ;;
	*) echo "usage: bench/peers.sh [-n CASES] [-steps STEPS] [-repeat R] [-scratch DIR] [-data DIR]" >&2; exit 2 ;;
	esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
data=${data:-$scratch/data-$n-$steps}

# The versions measured in bench/README.md.
peers="agentv@4.42.4 @agentv/core@4.42.4 agentevals@0.0.7 @langchain/core@1.4.0 promptfoo@0.123.1"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "node or npm missing: installing Debian's nodejs and npm" >&2
	apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null
fi
mkdir -p "$scratch"
if [ ! -e "$scratch/.installed" ] || [ "$(cat "$scratch/.installed")" != "$peers" ]; then
	echo "installing $peers into $scratch (a few minutes, about 3 GB)" >&2
	(cd "$scratch" && { [ -e package.json ] || npm init -y >/dev/null; } &&
		npm install --no-audit --no-fund --ignore-scripts $peers >/dev/null)
	echo "$peers" >"$scratch/.installed"
fi
# Bare imports resolve from the scratch folder's node_modules.
cp "$root"/bench/peers/*.mjs "$scratch/"

# trajeval is built as `go run ./release` builds what users download (static,
# without cgo, stripped).
(cd "$root" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$scratch/trajeval" ./cmd/trajeval && go build -o "$scratch/readonly" ./bench/readonly)
# The same flags write the same bytes: regenerating keeps the data current.
rm -rf "$data"
(cd "$root" && go run ./bench/suitegen -n "$n" -steps "$steps" -evaluators check -peers -dir "$data")

results=$(mktemp)
# measure NAME WHAT PASSED-COMMAND -- COMMAND...: runs COMMAND $repeat times,
# keeps the fastest, and records its wall time, peak RSS and passed cases.
measure() {
	local name=$1 what=$2 count=$3 best="" rss="" cpu="" out
	shift 4
	for _ in $(seq "$repeat"); do
		out=$(mktemp)
		start=$EPOCHREALTIME
		/usr/bin/time -f '%M %U %S' -o "$out.time" "$@" >"$out" 2>"$out.err" || true
		wall=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.3f", b-a}')
		if ! grep -qE '^[0-9]+ [0-9.]+ [0-9.]+$' <(tail -1 "$out.time"); then
			echo "$name failed:" >&2
			cat "$out.time" "$out.err" >&2
			echo "$name|$what|failed|-|-|-|-" >>"$results"
			return
		fi
		read -r kb user sys < <(tail -1 "$out.time")
		if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN{exit !(a<b)}'; then
			best=$wall rss=$kb cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.2f", u+s}')
			passed=$(eval "$count" <"$out")
			grade=$(grep -o '"grade_ms":[0-9.]*' "$out" | cut -d: -f2 || true)
		fi
		rm -f "$out" "$out.time" "$out.err"
	done
	echo "$name|$what|$best|$cpu|$((rss / 1024))|$passed|${grade:--}" >>"$results"
}
passes='grep -o "\"passed\":[0-9]*" | cut -d: -f2'

trajeval_passes='grep -c "^{\"id\":\"[^\"]*\",\"suite\":\"[^\"]*\",\"status\":\"pass\""'
# The default records the run in a history beside the suite: a fresh one
# each time, so that every run costs what a project's first run costs.
measure "trajeval" "eval (default: records the run in its history)" "$trajeval_passes" -- \
	bash -c 'rm -rf "$1/.trajeval" && exec "$2/trajeval" eval "$1/suite.yaml" --traces "$1/traces.jsonl" --format jsonl' _ "$data" "$scratch"
measure "trajeval --no-db" "eval --no-db (no history)" "$trajeval_passes" -- \
	"$scratch/trajeval" eval "$data/suite.yaml" --traces "$data/traces.jsonl" --format jsonl --no-db
measure "trajeval read only" "the floor: read the traces, no scoring" 'echo -' -- "$scratch/readonly" "$data/traces.jsonl"
measure "AgentV 4.42.4" "agentv eval run, cli target replaying the runs" 'grep -o "\"verdict\":\"pass\"" "$data/agentv/out/index.jsonl" | wc -l' -- \
	bash -c 'cd "$1/agentv" && rm -rf out && exec "$2/node_modules/.bin/agentv" eval run evals/bench.eval.yaml --target canned --output out' _ "$data" "$scratch"
measure "AgentV 4.42.4" "agentv eval run --transcript (recorded messages)" 'grep -o "\"verdict\":\"pass\"" "$data/agentv/out/index.jsonl" | wc -l' -- \
	bash -c 'cd "$1/agentv" && rm -rf out && exec "$2/node_modules/.bin/agentv" eval run evals/bench.eval.yaml --transcript transcript.jsonl --output out' _ "$data" "$scratch"
measure "@agentv/core 4.42.4" "ToolTrajectoryGrader.evaluate, in_order" "$passes" -- node "$scratch/agentv-core.mjs" "$data"
measure "agentevals 0.0.7" "trajectory match superset, args superset" "$passes" -- node "$scratch/agentevals.mjs" "$data"
measure "promptfoo 0.123.1" "trajectory:tool-sequence + tool-args-match" "$passes" -- node "$scratch/promptfoo.mjs" "$data"

base=$(awk -F'|' 'NR==1{print $3}' "$results")
basecpu=$(awk -F'|' 'NR==1{print $4}' "$results")
echo "$n cases × $steps steps, best of $repeat runs (by wall time), $(nproc) cores; ratios to trajeval's default run (first row)"
printf '%-22s %-48s %8s %8s %8s %8s %7s %7s %11s\n' tool what "wall s" "CPU s" "peak MB" passed "× wall" "× CPU" "grading ms"
while IFS='|' read -r name what wall cpu mb passed grade; do
	ratio=- cratio=-
	[ "$wall" != failed ] && ratio=$(awk -v a="$wall" -v b="$base" 'BEGIN{printf "%.1f", a/(b>0?b:0.01)}')
	[ "$wall" != failed ] && cratio=$(awk -v a="$cpu" -v b="$basecpu" 'BEGIN{printf "%.1f", a/(b>0?b:0.01)}')
	printf '%-22s %-48s %8s %8s %8s %8s %7s %7s %11s\n' "$name" "$what" "$wall" "$cpu" "$mb" "$passed" "$ratio" "$cratio" "$grade"
done <"$results"
rm -f "$results"
