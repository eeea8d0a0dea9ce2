"""A small tool reporting its work through the activity package (Python/ in this repository).

    ACTIVITY_SINK=stderr python3 demo.py
    ACTIVITY_SINK=stdout python3 demo.py | activity render

Installed (`pip install ./Python`, or Scripts/install), `import activity` needs no path; from the
checkout, the package's source folder is put on the path.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Python", "src"))

import activity  # noqa: E402


def main() -> int:
    with activity.Activity("Indexing photos", total=40, unit="photos") as index:
        for batch in range(4):
            with activity.Activity(f"Batch {batch + 1}", total=10, parent=index) as step:
                for _ in range(10):
                    step.advance()
                    index.advance()
                step.set_message("thumbnails written")
        index.log("2 photos had no date; filed under 'Unknown'", "warning")

    try:
        with activity.Activity("Uploading", total=3.5e6, unit="bytes") as upload:
            upload.advance(1.25e6)
            raise ConnectionError("connection reset by peer")
    except ConnectionError:
        pass

    check = activity.Activity("Checking input")
    try:
        check.advance(float("nan"))
    except activity.ActivityError as error:
        check.end("skipped", f"rejected: {error.strerror}")

    activity.log(f"done with libactivity {activity.version()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
