#!/bin/sh
# Lines longer than the terminal: autowrap, one exactly the width, then a styled one.
printf '%s\n' "$(seq -s ' ' 1 90)"
printf '%0100d\n' 0
printf 'short\n'
printf '\033[31;1m%s\033[0m tail\n' "$(seq -s , 1 60)"
printf 'x\tone\ttwo\tthree\n'
