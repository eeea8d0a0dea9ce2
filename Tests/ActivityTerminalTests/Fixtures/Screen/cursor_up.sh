#!/bin/sh
# Three status rows redrawn in place with cursor-up, as docker, cargo and npm draw theirs.
printf 'start\n'
for step in 1 2 3 4 5; do
    [ "$step" -gt 1 ] && printf '\033[3A'
    for job in a b c; do
        printf '\r\033[K\033[1mjob %s\033[0m: step %d of 5\n' "$job" "$step"
    done
    sleep 0.02
done
printf 'all done\n'
