"""Work the person watching may cancel: Esc in `activity run --mode overlay -- python3 cancel.py`.

The loop checks `cancel_requested` (one call into the library); the `on_cancel` callback, run on
the library's thread, wakes the loop at once instead of at its next step. Without a renderer that
can cancel, the work runs to its end.
"""

import os
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Python", "src"))

import activity  # noqa: E402


def main() -> int:
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 3000  # 30 s of 10 ms steps
    woken = threading.Event()
    work = activity.Activity("Waiting for Cancel", total=steps, unit="steps", cancellable=True)
    work.on_cancel(woken.set)
    for _ in range(steps):
        if work.cancel_requested:
            break
        woken.wait(0.01)  # the real work would go here
        work.advance()
    cancelled = work.cancel_requested
    work.end("cancelled" if cancelled else "success")
    print("stopped: cancelled" if cancelled else "finished")
    return 0


if __name__ == "__main__":
    sys.exit(main())
