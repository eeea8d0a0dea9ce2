"""A PEP 517 build backend for the activity package: builds the pure-Python wheel (and an sdist)
with the standard library alone.

The version is read from src/activity/__init__.py, the package's one copy of the project version.
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

NAME = "swift_activity"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "src", "activity")


def _version():
    with open(os.path.join(PACKAGE, "__init__.py"), encoding="utf-8") as source:
        match = re.search(r'^__version__ = "([^"]+)"$', source.read(), re.MULTILINE)
    if not match:
        raise RuntimeError("src/activity/__init__.py has no __version__")
    return match.group(1)


def _metadata():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as readme:
        description = readme.read()
    return (
        "Metadata-Version: 2.1\n"
        "Name: swift-activity\n"
        f"Version: {_version()}\n"
        "Summary: Report progress from Python in the swift-activity protocol, through libactivity\n"
        "License: Apache-2.0\n"
        "Requires-Python: >=3.8\n"
        "Classifier: Programming Language :: Python :: 3\n"
        "Classifier: Typing :: Typed\n"
        "Description-Content-Type: text/markdown\n\n" + description
    )


def _files():
    """The package's files as (path in the wheel, bytes), sorted so builds are reproducible."""
    found = []
    for folder, _, names in os.walk(PACKAGE):
        for name in names:
            if name.endswith((".py", ".typed")):
                path = os.path.join(folder, name)
                with open(path, "rb") as handle:
                    found.append((os.path.relpath(path, os.path.dirname(PACKAGE)).replace(os.sep, "/"), handle.read()))
    return sorted(found)


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def _dist_info(version):
    return f"{NAME}-{version}.dist-info"


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    folder = os.path.join(metadata_directory, _dist_info(_version()))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "METADATA"), "w", encoding="utf-8") as metadata:
        metadata.write(_metadata())
    return os.path.basename(folder)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version = _version()
    info = _dist_info(version)
    entries = _files() + [
        (f"{info}/METADATA", _metadata().encode()),
        (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: activity_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
        (f"{info}/top_level.txt", b"activity\n"),
    ]
    record = "\n".join([_record_line(path, data) for path, data in entries] + [f"{info}/RECORD,,", ""])
    name = f"{NAME}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in entries + [(f"{info}/RECORD", record.encode())]:
            entry = zipfile.ZipInfo(path, date_time=(2026, 1, 1, 0, 0, 0))
            entry.external_attr = 0o644 << 16
            wheel.writestr(entry, data, zipfile.ZIP_DEFLATED)
    return name


def build_sdist(sdist_directory, config_settings=None):
    version = _version()
    base = f"{NAME}-{version}"
    name = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as sdist:
        for folder, _, names in os.walk(ROOT):
            if "__pycache__" in folder or ".pytest_cache" in folder:
                continue
            for file in sorted(names):
                path = os.path.join(folder, file)
                sdist.add(path, arcname=os.path.join(base, os.path.relpath(path, ROOT)), recursive=False)
        info = tarfile.TarInfo(os.path.join(base, "PKG-INFO"))
        data = _metadata().encode()
        info.size = len(data)
        sdist.addfile(info, io.BytesIO(data))
    return name
