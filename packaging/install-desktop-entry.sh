#!/usr/bin/env sh
# Add SI Aligner to the desktop's application menu for the current user.
# Run it from the unpacked bundle folder (it records that folder's location):
#   ./install-desktop-entry.sh            install
#   ./install-desktop-entry.sh --remove   remove the menu entry and icon
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
APPS="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
ICONS="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/256x256/apps"

if [ "${1:-}" = "--remove" ]; then
    rm -f "$APPS/sialign.desktop" "$ICONS/sialign.png"
    echo "Removed the SI Aligner menu entry."
    exit 0
fi
[ -x "$HERE/sialign-gui" ] || { echo "run this script from the SI Aligner folder (sialign-gui not found in $HERE)" >&2; exit 1; }
mkdir -p "$APPS" "$ICONS"
[ -f "$HERE/sialign.png" ] && cp "$HERE/sialign.png" "$ICONS/sialign.png"
# Absolute paths: the bundle folder is usually not on PATH.
sed -e "s|^Exec=.*|Exec=\"$HERE/sialign-gui\" %f|" -e "s|^TryExec=.*|TryExec=$HERE/sialign-gui|" \
    "$HERE/sialign.desktop" > "$APPS/sialign.desktop"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$APPS" >/dev/null 2>&1 || true
echo "SI Aligner is in the application menu ($APPS/sialign.desktop)."
