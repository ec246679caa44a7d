#!/bin/sh
cat >/dev/null
echo "some log line"
echo "{\"pass\": $1, \"reasoning\": \"as told\"}"
