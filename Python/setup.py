"""Builds the wheel with libactivity inside it, as activity/libactivity.so.0, so that an install
needs no LD_LIBRARY_PATH or ACTIVITY_LIBRARY.

The library is compiled by Sources/CActivity/Makefile (its sources and flags are kept there, in
one place); a C compiler, make, pkg-config and json-c's headers are needed. Such a wheel is tagged
py3-none-PLATFORM: it holds a native library but no extension module (ctypes loads it), so it fits
every Python 3 on that platform.

ACTIVITY_PYTHON_LIBRARY=system builds a pure wheel without the library instead, for an install
that puts libactivity where the package finds it (Scripts/install does).
"""

import os
import shlex
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools before 70.1 (Debian's python3-setuptools) has it in wheel
    from wheel.bdist_wheel import bdist_wheel

ROOT = os.path.dirname(os.path.abspath(__file__))
LIBRARY = "libactivity.so.0"
# The sdist carries a copy of the C sources (CActivity/); a checkout has them beside Python/.
C_SOURCES = next(
    (folder for folder in (os.path.join(ROOT, "CActivity"), os.path.join(ROOT, "..", "Sources", "CActivity"))
     if os.path.exists(os.path.join(folder, "Makefile"))),
    None,
)
INSTALL_HINT = "apt-get install gcc make pkg-config libjson-c-dev"


def bundled():
    choice = os.environ.get("ACTIVITY_PYTHON_LIBRARY", "bundled")
    if choice not in ("bundled", "system"):
        sys.exit(f"ACTIVITY_PYTHON_LIBRARY={choice}: use bundled (the default) or system")
    return choice == "bundled"


def missing_tools():
    """What building libactivity needs and this machine lacks, each as a phrase for the message."""
    missing = []
    compiler = shlex.split(os.environ.get("CC", "cc"))
    if not compiler or not shutil.which(compiler[0]):
        named = f"CC={os.environ['CC']}" if "CC" in os.environ else "cc; CC names another"
        missing.append(f"a C compiler (none found: {named})")
    if not shutil.which("make"):
        missing.append("make")
    if not shutil.which("pkg-config"):
        missing.append("pkg-config")
    elif subprocess.run(["pkg-config", "--exists", "json-c"], check=False).returncode != 0:
        missing.append("json-c's development files (pkg-config finds no json-c)")
    return missing


class build_py_with_library(build_py):
    """Builds the package, then compiles libactivity into it (unless the system's is used)."""

    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "activity", LIBRARY)
        if not bundled():
            # An earlier build in the same folder may have left one there.
            if os.path.exists(target):
                os.remove(target)
            return
        if C_SOURCES is None:
            sys.exit("the C sources of libactivity (Sources/CActivity) are not here: build from a checkout of "
                     "swift-activity, or set ACTIVITY_PYTHON_LIBRARY=system to use an installed libactivity")
        missing = missing_tools()
        if missing:
            sys.exit("building libactivity into the package needs " + ", ".join(missing) + f". Install them ({INSTALL_HINT}), "
                     "or set ACTIVITY_PYTHON_LIBRARY=system to build a package that uses the system's libactivity")
        build = os.path.abspath(os.path.join(self.get_finalized_command("build").build_temp, "libactivity"))
        version = self.distribution.get_version()
        # VERSION: the Makefile reads it from the checkout's VERSION file, which an sdist lacks.
        subprocess.run(["make", "-s", "-C", C_SOURCES, f"BUILD={build}", f"VERSION={version}", f"{build}/{LIBRARY}"],
                       check=True)
        self.copy_file(os.path.join(build, LIBRARY), target)


class bdist_wheel_for_platform(bdist_wheel):
    """With the library inside, the wheel is for this platform, yet for any Python 3 (py3-none)."""

    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = not bundled()

    def get_tag(self):
        if self.root_is_pure:
            return super().get_tag()
        return "py3", "none", super().get_tag()[2]


class sdist_with_c_sources(sdist):
    """Puts a copy of the C sources into the sdist (CActivity/), which setup.py builds from."""

    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        if C_SOURCES is None:
            return
        copy = os.path.join(base_dir, "CActivity")
        self.mkpath(os.path.join(copy, "include"))
        for name in sorted(os.listdir(C_SOURCES)):
            if name.endswith((".c", ".h")) or name == "Makefile":
                self.copy_file(os.path.join(C_SOURCES, name), os.path.join(copy, name))
        self.copy_file(os.path.join(C_SOURCES, "include", "activity.h"), os.path.join(copy, "include", "activity.h"))


setup(cmdclass={"build_py": build_py_with_library, "bdist_wheel": bdist_wheel_for_platform,
                "sdist": sdist_with_c_sources})
