#!/bin/sh
cat >/dev/null
echo "Traceback: boom" >&2
exit 3
