#!/usr/bin/env bash
# Build a Debian package from the PyInstaller folder.
#   packaging/deb/build_deb.sh [BUNDLE_DIR] [OUT_DIR]
#       BUNDLE_DIR  default packaging/dist/sialign (made by packaging/build.sh)
#       OUT_DIR     default packaging/dist
# Writes OUT_DIR/sialign[-lean]_VERSION_ARCH.deb. The package installs the
# folder as /opt/sialign, puts `sialign` and `sialign-gui` on PATH
# (/usr/bin links), and adds the menu entry, the .sialign file type and the
# icons under /usr/share; Debian's own triggers (desktop-file-utils,
# shared-mime-info, hicolor-icon-theme) refresh the menus, so the package
# needs no maintainer scripts. Environment: SIALIGN_DEB_VERSION overrides the
# version (default: the project's), SIALIGN_DEB_ARCH the architecture
# (default: dpkg --print-architecture), SIALIGN_DEB_MAINTAINER the Maintainer field.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUNDLE=$(cd "${1:-$ROOT/packaging/dist/sialign}" 2>/dev/null && pwd) \
    || { echo "build_deb.sh: no bundle at ${1:-packaging/dist/sialign} — run packaging/build.sh first" >&2; exit 1; }
OUT=${2:-$ROOT/packaging/dist}
die() { echo "build_deb.sh: $*" >&2; exit 1; }

command -v dpkg-deb >/dev/null 2>&1 || die "dpkg-deb not found (Debian/Ubuntu: apt-get install dpkg)"
[ -x "$BUNDLE/sialign" ] && [ -x "$BUNDLE/sialign-gui" ] || die "$BUNDLE has no sialign and sialign-gui programs — is it a PyInstaller folder from packaging/build.sh?"

VERSION=${SIALIGN_DEB_VERSION:-$(sed -n 's/^version = "\(.*\)"/\1/p' "$ROOT/pyproject.toml" | head -1)}
[ -n "$VERSION" ] || die "no version in $ROOT/pyproject.toml (set SIALIGN_DEB_VERSION)"
ARCH=${SIALIGN_DEB_ARCH:-$(dpkg --print-architecture)}
VARIANT=$(cat "$BUNDLE/BUILD_VARIANT" 2>/dev/null || echo full)
PACKAGE=sialign
[ "$VARIANT" = lean ] && PACKAGE=sialign-lean

STAGE=$(mktemp -d -t sialign-deb.XXXXXX)
trap 'rm -rf "$STAGE"' EXIT
chmod 755 "$STAGE"
mkdir -p "$STAGE/DEBIAN" "$STAGE/opt" "$STAGE/usr/bin" "$STAGE/usr/share/applications" \
    "$STAGE/usr/share/mime/packages" "$STAGE/usr/share/icons/hicolor/256x256/apps" \
    "$STAGE/usr/share/icons/hicolor/scalable/apps" "$STAGE/usr/share/doc/$PACKAGE"
cp -a "$BUNDLE" "$STAGE/opt/sialign"
# The menu entry and installer of the unpacked-folder install are not needed here.
rm -f "$STAGE/opt/sialign/install-desktop-entry.sh"
ln -s /opt/sialign/sialign "$STAGE/usr/bin/sialign"
ln -s /opt/sialign/sialign-gui "$STAGE/usr/bin/sialign-gui"
# Exec=sialign-gui %f in the entry finds the program on PATH.
install -m 644 "$ROOT/packaging/sialign.desktop" "$STAGE/usr/share/applications/sialign.desktop"
install -m 644 "$ROOT/packaging/sialign-mime.xml" "$STAGE/usr/share/mime/packages/sialign.xml"
install -m 644 "$ROOT/resources/icons/sialign.png" "$STAGE/usr/share/icons/hicolor/256x256/apps/sialign.png"
install -m 644 "$ROOT/resources/icons/sialign.svg" "$STAGE/usr/share/icons/hicolor/scalable/apps/sialign.svg"
printf 'SI Aligner %s (%s build), packaged from a PyInstaller folder.\nLicense: MIT\n' "$VERSION" "$VARIANT" \
    > "$STAGE/usr/share/doc/$PACKAGE/copyright"

SIZE_KB=$(du -sk "$STAGE" | cut -f1)
CONFLICTS=sialign-lean
[ "$PACKAGE" = sialign-lean ] && CONFLICTS=sialign
cat > "$STAGE/DEBIAN/control" <<CONTROL
Package: $PACKAGE
Version: $VERSION
Architecture: $ARCH
Maintainer: ${SIALIGN_DEB_MAINTAINER:-SI Aligner maintainers <root@localhost>}
Installed-Size: $SIZE_KB
Depends: libc6, libxcb-icccm4, libxcb-keysyms1, libxcb-cursor0, libxkbcommon-x11-0, libegl1, libgl1, libfontconfig1
Recommends: fonts-noto-cjk | fonts-ipaexfont-gothic
Conflicts: $CONFLICTS
Replaces: $CONFLICTS
Provides: sialign-app
Section: science
Priority: optional
Description: align a talk with its simultaneous interpretation
 SI Aligner aligns a talk's source transcript with the transcript of its
 simultaneous interpretation and lets a linguist review the parallel corpus
 (desktop program sialign-gui, command line sialign). This is the $VARIANT
 build: Python, Qt and the language data are inside /opt/sialign.
CONTROL

mkdir -p "$OUT"
DEB="$OUT/${PACKAGE}_${VERSION}_${ARCH}.deb"
# --root-owner-group: files belong to root in the package whoever builds it.
nice -n 10 dpkg-deb --root-owner-group -Zxz --build "$STAGE" "$DEB" >/dev/null
echo "Built $DEB ($(du -h "$DEB" | cut -f1))"
