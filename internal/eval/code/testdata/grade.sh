#!/bin/sh
# Passes when the agent called search and the case id arrived on stdin.
in=$(cat)
echo "debug: graded" >&2
case "$in" in
*'"case_id":"c1"'*'"name":"search"'*) echo '{"score": 0.75, "reason": "searched", "hits": ["search"]}' ;;
*) echo '{"score": 0, "reason": "no search"}' ;;
esac
