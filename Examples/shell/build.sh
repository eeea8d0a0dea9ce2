#!/bin/sh
# A small build that reports its progress through `activity emit`.
#
#   activity run -- Examples/shell/build.sh
#
# Outside `activity run` (ACTIVITY_SINK unset) it runs the same and reports nothing.
set -eu

steps="parse check generate"
count=$(echo $steps | wc -w)

build=$(activity emit begin "Build example" --total "$count" --unit steps)
# Commands started from here nest under the build.
ACTIVITY_PARENT=$build
export ACTIVITY_PARENT

done=0
for step in $steps; do
    id=$(activity emit begin "Step $step" --total 3 --unit files)
    n=0
    for file in a b c; do
        echo "$step: $file.src"
        n=$((n + 1))
        activity emit progress "$id" --completed "$n" --message "$file.src"
    done
    if [ "$step" = check ]; then
        activity emit log --id "$id" --level warning "b.src: unused definition 'helper'"
        echo "check: 1 warning" >&2
    fi
    activity emit end "$id"
    done=$((done + 1))
    activity emit progress "$build" --completed "$done"
done

# A helper script run from here reports under the build as well.
sh -c 'sub=$(activity emit begin "Package"); activity emit end "$sub" --message "example.tar"'

activity emit end "$build" --message "3 steps"
echo "build finished"
