#!/bin/sh
# A status row kept at the bottom with a scroll region, as apt's Dpkg::Progress-Fancy does:
# DECSTBM leaves the last row out, the status is drawn there between lines of output.
rows=30
printf '\n\0337\033[0;%dr\0338\033[1A' $((rows - 1))
for n in $(seq 1 40); do
    printf 'Setting up package-%d (1.0-%d) ...\n' "$n" "$n"
    percent=$((n * 100 / 40))
    printf '\0337\033[%d;0f\033[42m\033[30mProgress: [%3d%%]\033[49m\033[39m \033[K\0338' "$rows" "$percent"
done
printf '\0337\033[0;%dr\033[%d;0f\033[J\0338' "$rows" "$rows"
