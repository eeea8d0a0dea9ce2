# rich's Progress with two tasks advancing together.
import time
from rich.progress import Progress

with Progress() as progress:
    download = progress.add_task("[red]Downloading...", total=40)
    process = progress.add_task("[green]Processing...", total=40)
    for _ in range(40):
        progress.update(download, advance=1)
        progress.update(process, advance=0.5)
        time.sleep(0.02)
print("finished")
