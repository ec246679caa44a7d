#!/bin/sh
sleep 30 &
echo $! > "$1"
wait
