#!/usr/bin/env bash
# Load on three Collectors on loopback, with the configurations of
# otelcol/distro/testdata (the ones its tests run): a front with the
# load_balancing exporter (routing_key traceID, sending queue on disk) on
# 127.0.0.1:4318, two scorers with the trajeval connector on 14317 and
# 14318, their results to otlpload's receiver on 127.0.0.1:4319.
#
#   bench/otelcol-tier.sh                  # 20,000 traces or 30 s
#   TRACES=50000 DURATION=20s bench/otelcol-tier.sh
#   RESTART=1 bench/otelcol-tier.sh        # scorer 2 down from 3 s to 8 s
#   LOAD_FLAGS='-concurrency 1' bench/otelcol-tier.sh   # more otlpload flags
#
# otlpload stops by itself (a count or a time), waits for every trace's
# results, and prints throughput, latency from root end to results, and
# how many traces were scored more than once or never. Then this prints
# each Collector's peak resident memory (VmHWM; scorer 2's since its
# restart when RESTART=1).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"' EXIT

(cd otelcol/distro && go build -o "$dir/otelcol-trajeval" ./cmd/otelcol-trajeval)
go build -o "$dir/otlpload" ./bench/otlpload

export TRAJEVAL_POLICY=$PWD/bench/otlpload/policy.yaml TRAJEVAL_GRACE=${GRACE:-100ms}
export RESULTS_ENDPOINT=http://127.0.0.1:4319/v1/logs
scorer() { # scorer N: start scorer N, its pid in pid
	SCORER_ENDPOINT=127.0.0.1:$((14316 + $1)) "$dir/otelcol-trajeval" \
		--config otelcol/distro/testdata/scorer.yaml 2>"$dir/scorer-$1.log" &
	pid=$!
}
scorer 1; s1=$pid
scorer 2; s2=$pid
FRONT_ENDPOINT=127.0.0.1:4318 QUEUE_DIR=$dir/queue SCORER_1=127.0.0.1:14317 SCORER_2=127.0.0.1:14318 \
	"$dir/otelcol-trajeval" --config otelcol/distro/testdata/front.yaml 2>"$dir/front.log" &
front=$!
pids=("$s1" "$s2" "$front")
for port in 14317 14318 4318; do
	for _ in $(seq 100); do (: </dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
done

"$dir/otlpload" -url http://127.0.0.1:4318/v1/traces -logs 127.0.0.1:4319 \
	-traces "${TRACES:-20000}" -duration "${DURATION:-30s}" -wait 120s ${LOAD_FLAGS:-} &
load=$!
if [ -n "${RESTART:-}" ]; then
	sleep 3
	kill -TERM "$s2"; wait "$s2" || true
	echo "scorer 2 stopped"
	sleep 5
	scorer 2; s2=$pid
	pids=("$s1" "$s2" "$front")
	echo "scorer 2 restarted"
fi
wait "$load"
for p in front:$front scorer-1:$s1 scorer-2:$s2; do
	name=${p%%:*}
	echo "$name peak RSS $(awk '/VmHWM/ {print int($2/1024) " MB"}' "/proc/${p#*:}/status"), $(grep -c '	error	' "$dir/$name.log") errors logged"
done
grep -h '	error	' "$dir"/*.log | cut -c1-300 | sort | uniq -c | sort -rn | head -5
