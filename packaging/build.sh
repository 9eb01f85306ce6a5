#!/usr/bin/env bash
# Build the SI Aligner bundle (one folder, two programs) with PyInstaller.
#   packaging/build.sh                      CPU build into packaging/dist/sialign/
#   packaging/build.sh --model DIR          also bundle a sentence-transformers model folder
#                      [--model-name NAME]  under resources/models/NAME (default: the folder name)
#   packaging/build.sh --gpu                allow a CUDA build of torch in the environment
#   packaging/build.sh --archive            also pack packaging/dist/sialign-VERSION-linux-ARCH.tar.gz
#   packaging/build.sh --lean               leave out torch and sentence-transformers (user models then
#                                           need the full build; the built-in encoders work) and carry
#                                           SudachiDict small instead of core
#   packaging/build.sh --whisper-model DIR  also bundle a Whisper model folder (CTranslate2) under
#                      [--whisper-name NAME] resources/models/NAME (default: the folder name)
#   packaging/build.sh --check              only check the build machine and the environment, build nothing
# Needs the development environment (packaging/dev.sh setup) plus PyInstaller
# (pip install -e ".[packaging]"). SIALIGN_VENV selects another environment.
# Intermediate files go to packaging/build/, the bundle to packaging/dist/ (both ignored by git).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
VENV=${SIALIGN_VENV:-$ROOT/.venv}
PY="$VENV/bin/python"
MODEL=""
MODEL_NAME=""
GPU=0
ARCHIVE=0
LEAN=0
CHECK_ONLY=0
WHISPER=""
WHISPER_NAME=""

while [ $# -gt 0 ]; do
    case "$1" in
        --model) MODEL=$(cd "$2" && pwd); shift 2 ;;
        --model-name) MODEL_NAME=$2; shift 2 ;;
        --gpu) GPU=1; shift ;;
        --archive) ARCHIVE=1; shift ;;
        --lean) LEAN=1; shift ;;
        --check) CHECK_ONLY=1; shift ;;
        --whisper-model) WHISPER=$(cd "$2" && pwd); shift 2 ;;
        --whisper-name) WHISPER_NAME=$2; shift 2 ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) echo "build.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

die() { echo "build.sh: $*" >&2; exit 1; }

[ -x "$PY" ] || die "no environment at $VENV — run packaging/dev.sh setup first"
"$PY" -c 'import PyInstaller' 2>/dev/null \
    || die "PyInstaller is not installed in $VENV — run: $VENV/bin/pip install -e '.[packaging]'"

[ "$LEAN" -eq 1 ] && [ -n "$MODEL" ] && die "--lean cannot bundle a model: loading one needs torch (leave out --model or --lean)"
# The lean build carries SudachiDict small (its release that accepts GiNZA's SudachiPy: see pyproject.toml).
if [ "$LEAN" -eq 1 ]; then
    "$PY" -c 'import sudachidict_small' 2>/dev/null \
        || die "SudachiDict small is not installed in $VENV — run: $VENV/bin/pip install -e '.[packaging]'"
fi

# PortAudio must be on the build machine: the bundle carries the system library.
# The cache listing is read whole before it is searched: with pipefail,
# `ldconfig -p | grep -q` fails whenever grep stops reading early and
# ldconfig dies of SIGPIPE.
if [ "$(uname -s)" = Linux ]; then
    libs=$(ldconfig -p 2>/dev/null) || libs=$(/sbin/ldconfig -p 2>/dev/null) || libs=""
    case "$libs" in
        *libportaudio.so.2*) ;;
        *) die "libportaudio.so.2 not found — install it (Debian/Ubuntu: apt-get install libportaudio2)" ;;
    esac
fi

# Torch stays CPU-only unless a GPU build is asked for: a CUDA torch adds gigabytes.
# The lean build leaves torch out, so the environment's torch does not matter.
CUDA=""
if [ "$LEAN" -eq 0 ]; then
    CUDA=$("$PY" -c 'import torch; print(torch.version.cuda or "")' 2>/dev/null) \
        || die "torch cannot be imported from $VENV (install it, or build with --lean)"
fi
if [ -n "$CUDA" ] && [ "$GPU" -ne 1 ]; then
    die "the environment's torch is a CUDA $CUDA build; install the CPU build
    ($VENV/bin/pip install torch --index-url https://download.pytorch.org/whl/cpu)
    or pass --gpu to bundle it with its CUDA libraries (see packaging/README.md)"
fi

if [ "$CHECK_ONLY" -eq 1 ]; then
    echo "build.sh: the build machine and $VENV are ready$([ "$LEAN" -eq 1 ] && echo ' (lean build)')"
    exit 0
fi

# bundle_model KIND DIR NAME: check a model folder (a sentence model or a Whisper model: `models check`
# tells them apart) and hand it to the spec as SIALIGN_BUNDLE_KIND and SIALIGN_BUNDLE_KIND_NAME.
bundle_model() {
    local kind=$1 dir=$2 name=$3
    if [ -n "$dir" ]; then
        echo "Checking the model folder $dir ..."
        SIALIGN_MODEL_DIR=$(mktemp -d) "$VENV/bin/sialign" models check "$dir"
        export "SIALIGN_BUNDLE_$kind=$dir" "SIALIGN_BUNDLE_${kind}_NAME=${name:-$(basename "$dir")}"
    else
        unset "SIALIGN_BUNDLE_$kind" "SIALIGN_BUNDLE_${kind}_NAME"
    fi
}
bundle_model MODEL "$MODEL" "$MODEL_NAME"
bundle_model WHISPER "$WHISPER" "$WHISPER_NAME"
export SIALIGN_BUNDLE_GPU=$GPU
export SIALIGN_BUNDLE_LEAN=$LEAN

start=$(date +%s)
# The build is CPU-heavy for minutes; nice keeps a shared machine responsive.
nice -n 10 "$PY" -m PyInstaller --noconfirm --log-level WARN \
    --distpath packaging/dist --workpath packaging/build packaging/sialign.spec
DIST=packaging/dist/sialign
# Linux: one program (see launch.py); the command line is a link to it, resolved by the loader.
if [ ! -e "$DIST/sialign" ] && [ -x "$DIST/sialign-gui" ]; then
    ln -s sialign-gui "$DIST/sialign"
fi

# spaCy's and thinc's Cython modules (and libpython) come with debug
# information: about 130 MB that nobody running the app needs. Only these are
# stripped — libraries that auditwheel rewrote with patchelf (numpy.libs,
# scipy.libs...) can break when stripped.
if command -v strip >/dev/null 2>&1; then
    before=$(du -sm "$DIST" | cut -f1)
    find "$DIST/_internal" -type f -name '*.so' \( -path '*/spacy/*' -o -path '*/thinc/*' -o -path '*/blis/*' \
        -o -path '*/srsly/*' -o -path '*/preshed/*' -o -path '*/cymem/*' -o -path '*/murmurhash/*' \) -print0 \
        | xargs -0 -r nice -n 10 strip --strip-debug
    find "$DIST/_internal" -maxdepth 1 -type f -name 'libpython3*.so*' -exec strip --strip-debug {} +
    # Python extension modules with debug information (CTranslate2's alone carries 66 MB, fontTools'
    # 12 MB); the libraries auditwheel put in *.libs folders are left alone (see above). The smoke
    # test checks that they all still load: transcription, the PDF report, GiNZA.
    find "$DIST/_internal" -type f -name '*.cpython-*.so' -not -path '*.libs/*' -print0 \
        | xargs -0 -r sh -c 'for f; do if readelf -S "$f" 2>/dev/null | grep -q "\.debug_info"; then printf "%s\0" "$f"; fi; done' sh \
        | xargs -0 -r nice -n 10 strip --strip-debug
    echo "Stripped debug information: $((before - $(du -sm "$DIST" | cut -f1))) MB"
fi

# Desktop integration files travel with the bundle.
cp packaging/sialign.desktop packaging/sialign-mime.xml packaging/install-desktop-entry.sh "$DIST/"
for icon in sialign.png sialign.svg; do
    if [ -f "resources/icons/$icon" ]; then
        cp "resources/icons/$icon" "$DIST/$icon"
    fi
done
chmod +x "$DIST/install-desktop-entry.sh"

# What the bundle carries and under which licences (from the build environment's metadata).
"$PY" packaging/third_party.py "$DIST" ${SIALIGN_BUNDLE_WHISPER_NAME:+--whisper "$SIALIGN_BUNDLE_WHISPER_NAME"}

echo
# The smoke test and the installers read which variant this is.
if [ "$LEAN" -eq 1 ]; then echo lean > "$DIST/BUILD_VARIANT"; else echo full > "$DIST/BUILD_VARIANT"; fi

echo "Built $DIST in $(( $(date +%s) - start )) s: $(du -sh "$DIST" | cut -f1)"
echo "  $DIST/sialign-gui    desktop app"
echo "  $DIST/sialign        command line"
[ -n "$MODEL" ] && echo "  bundled model: resources/models/$SIALIGN_BUNDLE_MODEL_NAME"
[ -n "$WHISPER" ] && echo "  bundled speech model: resources/models/$SIALIGN_BUNDLE_WHISPER_NAME"

if [ "$ARCHIVE" -eq 1 ]; then
    version=$("$PY" -c 'import sialign; print(sialign.__version__)')
    tarball="packaging/dist/sialign-$version$([ "$LEAN" -eq 1 ] && echo -lean)-linux-$(uname -m).tar.gz"
    nice -n 10 tar -C packaging/dist -czf "$tarball" sialign
    echo "  archive: $tarball ($(du -sh "$tarball" | cut -f1))"
fi
