#!/bin/sh
cat >/dev/null
printf '%s\n' "$1"
