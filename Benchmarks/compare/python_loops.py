"""Per-call cost of tqdm's update(1) and rich's Progress.update(advance=1), in nanoseconds.

Each loop draws to /dev/null, as a progress bar does when nobody watches; prints one JSON object.
"""
import json
import os
import sys
import time

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
RUNS = 5
results = {}


def best_of(loop):
    loop(N // 10)  # warm-up
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter_ns()
        loop(N)
        samples.append((time.perf_counter_ns() - start) / N)
    samples.sort()
    return samples[len(samples) // 2]


try:
    from tqdm import tqdm

    def tqdm_loop(n):
        with open(os.devnull, "w") as sink:
            bar = tqdm(total=n, file=sink)
            for _ in range(n):
                bar.update(1)
            bar.close()

    results["tqdm update(1)"] = best_of(tqdm_loop)
except ImportError:
    results["tqdm update(1)"] = None

try:
    from rich.console import Console
    from rich.progress import Progress

    def rich_loop(n):
        with open(os.devnull, "w") as sink:
            with Progress(console=Console(file=sink)) as progress:
                task = progress.add_task("work", total=n)
                for _ in range(n):
                    progress.update(task, advance=1)

    results["rich update(advance=1)"] = best_of(rich_loop)
except ImportError:
    results["rich update(advance=1)"] = None

print(json.dumps(results))
