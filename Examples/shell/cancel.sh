#!/bin/sh
# A script the person watching may cancel: Esc in `activity run --mode overlay`.
#
#   activity run --mode overlay -- Examples/shell/cancel.sh
#
# --cancel-signal USR1 marks the activity cancellable and tells `activity run` how to reach this
# script: it sends SIGUSR1 to it, once. The trap ends the activity as cancelled and stops; the
# command goes on and exits 0. Outside `activity run`, nothing is ever sent.
set -eu

cancelled=no
trap 'cancelled=yes' USR1   # before the begin: a cancel may come as soon as it is shown
id=$(activity emit begin "Waiting for Cancel" --total 300 --unit steps --cancel-signal USR1)

step=0
while [ "$step" -lt 300 ] && [ "$cancelled" = no ]; do
    sleep 0.1 # the real work would go here
    step=$((step + 1))
    activity emit progress "$id" --completed "$step"
done

if [ "$cancelled" = yes ]; then
    activity emit end "$id" --status cancelled
    echo "stopped: cancelled"
else
    activity emit end "$id"
    echo "finished"
fi
