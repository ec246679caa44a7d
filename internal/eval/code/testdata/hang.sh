#!/bin/sh
sleep 30 &
# written aside, then renamed: a reader never sees the file empty
echo $! > "$1.tmp"
mv "$1.tmp" "$1"
wait
