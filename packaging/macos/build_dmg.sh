#!/usr/bin/env bash
# Pack "SI Aligner.app" (PyInstaller's BUNDLE step in packaging/sialign.spec) into a disk image (macOS only).
#   packaging/macos/build_dmg.sh [APP] [OUT_DIR]
#       APP      default "packaging/dist/SI Aligner.app"
#       OUT_DIR  default packaging/dist
# Writes OUT_DIR/SI_Aligner-VERSION[-lean]-macos-ARCH.dmg: the app and a link
# to /Applications to drag it onto. Sign the app before (codesign) and
# notarise the dmg after (xcrun notarytool) — see .github/workflows/bundle.yml.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
APP=${1:-$ROOT/packaging/dist/SI Aligner.app}
OUT=${2:-$ROOT/packaging/dist}
die() { echo "build_dmg.sh: $*" >&2; exit 1; }
command -v hdiutil >/dev/null 2>&1 || die "hdiutil not found — disk images are made on macOS"
[ -d "$APP/Contents/MacOS" ] || die "$APP is not an app bundle — build it with packaging/build.sh on macOS (pyinstaller packaging/sialign.spec)"
/usr/bin/plutil -lint "$APP/Contents/Info.plist" >/dev/null || die "$APP/Contents/Info.plist is not a valid property list"

VERSION=$(sed -n 's/^version = "\(.*\)"/\1/p' "$ROOT/pyproject.toml" | head -1)
SUFFIX=""
[ "$(cat "$APP/Contents/MacOS/BUILD_VARIANT" "$APP/Contents/Resources/BUILD_VARIANT" 2>/dev/null | head -1)" = lean ] && SUFFIX=-lean
STAGE=$(mktemp -d -t sialign-dmg)
trap 'rm -rf "$STAGE"' EXIT
cp -R "$APP" "$STAGE/"
ln -s /Applications "$STAGE/Applications"
mkdir -p "$OUT"
DMG="$OUT/SI_Aligner-$VERSION$SUFFIX-macos-$(uname -m).dmg"
rm -f "$DMG"
hdiutil create -volname "SI Aligner" -srcfolder "$STAGE" -fs HFS+ -format UDZO -ov "$DMG"
hdiutil verify "$DMG"
echo "Built $DMG ($(du -h "$DMG" | cut -f1))"
