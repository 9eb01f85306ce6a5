#!/usr/bin/env bash
# Build an AppImage from the PyInstaller folder (run by CI; needs appimagetool).
#   packaging/appimage/build_appimage.sh [BUNDLE_DIR] [OUT_DIR]
#   packaging/appimage/build_appimage.sh --appdir-only [BUNDLE_DIR] [OUT_DIR]   only assemble OUT_DIR/SIAligner.AppDir
# APPIMAGETOOL names the tool (default: appimagetool on PATH; CI downloads
# appimagetool-x86_64.AppImage from github.com/AppImage/appimagetool releases).
# The AppImage starts the desktop app; `./SI_Aligner-*.AppImage cli ARGS...`
# runs the command line (AppRun dispatches on its first argument).
set -euo pipefail
APPDIR_ONLY=0
[ "${1:-}" = "--appdir-only" ] && { APPDIR_ONLY=1; shift; }
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUNDLE=$(cd "${1:-$ROOT/packaging/dist/sialign}" 2>/dev/null && pwd) \
    || { echo "build_appimage.sh: no bundle at ${1:-packaging/dist/sialign} — run packaging/build.sh first" >&2; exit 1; }
OUT=${2:-$ROOT/packaging/dist}
die() { echo "build_appimage.sh: $*" >&2; exit 1; }
[ -x "$BUNDLE/sialign-gui" ] || die "$BUNDLE has no sialign-gui — is it a PyInstaller folder from packaging/build.sh?"

APPDIR="$OUT/SIAligner.AppDir"
rm -rf "$APPDIR"
mkdir -p "$APPDIR/usr/lib" "$APPDIR/usr/share/applications" "$APPDIR/usr/share/mime/packages" \
    "$APPDIR/usr/share/icons/hicolor/256x256/apps"
cp -a "$BUNDLE" "$APPDIR/usr/lib/sialign"
rm -f "$APPDIR/usr/lib/sialign/install-desktop-entry.sh"
cat > "$APPDIR/AppRun" <<'APPRUN'
#!/bin/sh
HERE=$(dirname "$(readlink -f "$0")")
if [ "${1:-}" = cli ]; then
    shift
    exec "$HERE/usr/lib/sialign/sialign" "$@"
fi
exec "$HERE/usr/lib/sialign/sialign-gui" "$@"
APPRUN
chmod +x "$APPDIR/AppRun"
# appimagetool wants the entry and the icon at the top of the AppDir too.
cp "$ROOT/packaging/sialign.desktop" "$APPDIR/sialign.desktop"
cp "$ROOT/packaging/sialign.desktop" "$APPDIR/usr/share/applications/sialign.desktop"
cp "$ROOT/packaging/sialign-mime.xml" "$APPDIR/usr/share/mime/packages/sialign.xml"
cp "$ROOT/resources/icons/sialign.png" "$APPDIR/sialign.png"
cp "$ROOT/resources/icons/sialign.png" "$APPDIR/usr/share/icons/hicolor/256x256/apps/sialign.png"
ln -sf sialign.png "$APPDIR/.DirIcon"
echo "Assembled $APPDIR"
[ "$APPDIR_ONLY" -eq 1 ] && exit 0

TOOL=${APPIMAGETOOL:-appimagetool}
command -v "$TOOL" >/dev/null 2>&1 || die "$TOOL not found — download appimagetool (see the comment at the top) or set APPIMAGETOOL"
VERSION=$(sed -n 's/^version = "\(.*\)"/\1/p' "$ROOT/pyproject.toml" | head -1)
VARIANT=$(cat "$BUNDLE/BUILD_VARIANT" 2>/dev/null || echo full)
SUFFIX=""; [ "$VARIANT" = lean ] && SUFFIX=-lean
IMAGE="$OUT/SI_Aligner-$VERSION$SUFFIX-$(uname -m).AppImage"
# APPIMAGE_EXTRACT_AND_RUN: the tool itself is an AppImage and CI runners have no FUSE.
ARCH=$(uname -m) APPIMAGE_EXTRACT_AND_RUN=1 "$TOOL" --no-appstream "$APPDIR" "$IMAGE"
echo "Built $IMAGE ($(du -h "$IMAGE" | cut -f1))"
