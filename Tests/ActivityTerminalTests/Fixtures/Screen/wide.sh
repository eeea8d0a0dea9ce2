#!/bin/sh
# Wide characters (CJK, emoji), one across the right margin, and a combining mark.
printf '日本語のテキスト 😀 emoji 🎉 done\n'
printf '%099d中文\n' 0
printf 'cafe\314\201 \344\275\240\345\245\275\n'
printf '%s\n' "$(printf '漢字%.0s' $(seq 1 30))"
