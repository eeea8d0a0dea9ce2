# A tqdm bar that halfway waits for a gate file (argv[1]), so that Ctrl-Z finds it standing
# still: a styled line above it, the bar green, no rate or time to differ from run to run.
import os
import sys
import time

from tqdm import tqdm

gate = sys.argv[1]
print("\x1b[1mtraining\x1b[0m")
with tqdm(total=10, ncols=60, colour="green", bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt}") as bar:
    for step in range(10):
        if step == 5:
            bar.refresh()
            while not os.path.exists(gate):
                time.sleep(0.02)
        bar.update(1)
print("done")
