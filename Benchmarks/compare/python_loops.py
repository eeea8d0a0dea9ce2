"""Per-call cost of tqdm's update(1) and rich's Progress.update(advance=1), in nanoseconds, and
of the activity Python package's advance() and track(iterable), and of its tqdm API
(activity.tqdm's update(1) and iteration), beside tqdm's own two.

Each loop draws to /dev/null, as a progress bar does when nobody watches (the activity package
writes its events to a file sink); prints one JSON object.
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

try:
    from tqdm import tqdm

    def tqdm_iterable(n):
        with open(os.devnull, "w") as sink:
            for _ in tqdm(range(n), file=sink):
                pass

    results["tqdm(iterable), per item"] = best_of(tqdm_iterable)
except ImportError:
    results["tqdm(iterable), per item"] = None

try:
    import tempfile

    import activity

    activity.set_sink("file:" + os.path.join(tempfile.mkdtemp(), "events.jsonl"))

    def activity_advance(n):
        with activity.begin("work", total=n) as work:
            for _ in range(n):
                work.advance()

    def activity_track(n):
        for _ in activity.track(range(n), "work"):
            pass

    def activity_tqdm_update(n):
        bar = activity.tqdm(total=n)
        for _ in range(n):
            bar.update(1)
        bar.close()

    def activity_tqdm_iterable(n):
        for _ in activity.tqdm(range(n)):
            pass

    results["python activity advance()"] = best_of(activity_advance)
    results["python activity.track(iterable), per item"] = best_of(activity_track)
    results["python activity.tqdm update(1)"] = best_of(activity_tqdm_update)
    results["python activity.tqdm(iterable), per item"] = best_of(activity_tqdm_iterable)
except ImportError:
    for name in ("python activity advance()", "python activity.track(iterable), per item",
                 "python activity.tqdm update(1)", "python activity.tqdm(iterable), per item"):
        results[name] = None

print(json.dumps(results))
