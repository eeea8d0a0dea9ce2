"""Draws rich progress displays, one per scenario, for the rich adapter's fixtures.

python3 rich-progress.py SCENARIO, where SCENARIO is track, two, transient, download, columns,
nototal or failed. Each takes about a second: rich redraws ten times a second from its own
thread, so the frames captured differ from run to run, not what they show.
"""

import sys
import time

from rich.progress import (
    BarColumn,
    DownloadColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
    track,
)


def scenario_track():
    for _ in track(range(40), description="Processing..."):
        time.sleep(0.025)


def scenario_two():
    with Progress() as progress:
        download = progress.add_task("Downloading", total=60)
        extract = progress.add_task("Extracting", total=40)
        for step in range(60):
            progress.advance(download)
            if step % 3 != 2:
                progress.advance(extract)
            if step == 30:
                progress.console.print("checkpoint saved")
            time.sleep(0.02)


def scenario_transient():
    with Progress(transient=True) as progress:
        task = progress.add_task("Compiling", total=30)
        for _ in range(30):
            progress.advance(task)
            time.sleep(0.03)
    print("compiled 30 files")


def scenario_download():
    columns = (
        TextColumn("[bold blue]{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns) as progress:
        task = progress.add_task("big.iso", total=5_000_000)
        for _ in range(50):
            progress.advance(task, 100_000)
            time.sleep(0.02)


def scenario_columns():
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns) as progress:
        files = progress.add_task("Files", total=25)
        waiting = progress.add_task("Waiting", total=None)
        for _ in range(25):
            progress.advance(files)
            time.sleep(0.04)
        progress.update(waiting, total=1, completed=1)


def scenario_nototal():
    def lines():
        yield from range(30)

    for _ in track(lines(), description="Scanning"):
        time.sleep(0.03)


def scenario_failed():
    with Progress() as progress:
        task = progress.add_task("Uploading", total=50)
        for step in range(50):
            if step == 20:
                raise RuntimeError("connection reset")
            progress.advance(task)
            time.sleep(0.03)


if __name__ == "__main__":
    globals()["scenario_" + sys.argv[1]]()
