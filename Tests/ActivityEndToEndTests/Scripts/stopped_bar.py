# A tqdm bar that halfway waits for a gate file (argv[1]), so that Ctrl-Z finds it standing
# still: a styled line above it, the bar green, no rate or time to differ from run to run.
# With "nested" (argv[2]) the bar is an inner one (position=1, leave=False) under an outer bar,
# and tqdm leaves the cursor on the outer bar.
import os
import sys
import time

from tqdm import tqdm

gate = sys.argv[1]
nested = sys.argv[2:] == ["nested"]
style = dict(ncols=60, bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt}")
print("\x1b[1mtraining\x1b[0m")
outer = tqdm(total=1, desc="outer", **style) if nested else None
with tqdm(total=10, colour="green", position=1 if nested else None, leave=not nested, **style) as bar:
    for step in range(10):
        if step == 5:
            bar.refresh()
            while not os.path.exists(gate):
                time.sleep(0.02)
        bar.update(1)
if outer is not None:
    outer.update(1)
    outer.close()
print("done")
