#!/bin/sh
# Hostile load on a real trajeval serve: deep, wide and many-empty-span
# requests, plain, gzip and gRPC, with and without the token, sent
# concurrently (bench/otlphostile), while small real requests fill
# --max-bytes; prints what the server answered and its peak RSS (VmHWM).
#
#   MAX_BYTES=67108864 DURATION=30s sh bench/hostile.sh
set -eu
cd "$(dirname "$0")/.."
MAX_BYTES=${MAX_BYTES:-536870912}
DURATION=${DURATION:-30s}
CONCURRENCY=${CONCURRENCY:-8}
BIN=$(mktemp -d)
go build -o "$BIN/trajeval" ./cmd/trajeval
go build -o "$BIN/otlphostile" ./bench/otlphostile
"$BIN/trajeval" serve bench/otlpload/policy.yaml --token bench --max-bytes "$MAX_BYTES" \
	--grace 1h --idle 1h --http 127.0.0.1:14318 --grpc 127.0.0.1:14317 2>"$BIN/serve.log" &
SERVE=$!
trap 'kill "$SERVE" 2>/dev/null; rm -rf "$BIN"' EXIT
sleep 1
echo "serve --max-bytes $MAX_BYTES, default --max-request-bytes (16 MiB), $CONCURRENCY requests in flight for $DURATION"
"$BIN/otlphostile" -pid "$SERVE" -token bench -duration "$DURATION" -concurrency "$CONCURRENCY" \
	-http http://127.0.0.1:14318/v1/traces -grpc 127.0.0.1:14317
kill -0 "$SERVE" && echo "serve is still up"
