#!/usr/bin/env zsh -f
# Prints the completions zsh offers for a command line: capture.zsh FPATH-DIR 'activity ren'
zmodload zsh/zpty || exit 2
zpty z zsh -f -i
zpty -w z "PROMPT=''; RPROMPT=''; unsetopt zle_bracketed_paste 2>/dev/null"
zpty -w z "fpath=(${(q)1} \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z "zstyle ':completion:*' list-grouped false; zstyle ':completion:*' insert-tab false"
zpty -w z 'compadd () {
    [[ ${@[1,-1]} == *-(O|A|D)\ * ]] && { builtin compadd "$@"; return $? }
    typeset -a __hits __dscr
    (( $@[(I)-d] )) && { __dscr=( "${(@P)${@[$[${@[(i)-d]}+1]]}}" ) }
    builtin compadd -A __hits "$@"
    local h
    for h in $__hits; do print -r -- "${:-<}hit>$h"; done
    builtin compadd "$@"
}'
zpty -w z '_finish () { print -r -- "${:-<}done>"; exit }; comppostfuncs=(_finish)'
zpty -w z "bindkey '^I' complete-word"
zpty -w z "$2"$'\t'
integer n=0
while zpty -r z line; do
    [[ $line == *'<done>'* ]] && break
    [[ $line == *'<hit>'* ]] && print -r -- "${${line##*<hit>}%$'\r'}"
    (( ++n > 100000 )) && break
done
zpty -d z
