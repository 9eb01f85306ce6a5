#!/usr/bin/env sh
# Add SI Aligner to the desktop's application menu for the current user,
# with its icon and the .sialign project file type (double-click opens it).
# Run it from the unpacked bundle folder (it records that folder's location):
#   ./install-desktop-entry.sh            install
#   ./install-desktop-entry.sh --remove   remove the menu entry, icons and file type
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
DATA="${XDG_DATA_HOME:-$HOME/.local/share}"
APPS="$DATA/applications"
ICONS="$DATA/icons/hicolor"
MIME="$DATA/mime"

refresh() {
    command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$APPS" >/dev/null 2>&1 || true
    command -v update-mime-database >/dev/null 2>&1 && update-mime-database "$MIME" >/dev/null 2>&1 || true
    command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t "$ICONS" >/dev/null 2>&1 || true
}

if [ "${1:-}" = "--remove" ]; then
    rm -f "$APPS/sialign.desktop" "$ICONS/256x256/apps/sialign.png" "$ICONS/scalable/apps/sialign.svg" \
        "$MIME/packages/sialign-mime.xml"
    refresh
    echo "Removed the SI Aligner menu entry and the .sialign file type."
    exit 0
fi
[ -x "$HERE/sialign-gui" ] || { echo "run this script from the SI Aligner folder (sialign-gui not found in $HERE)" >&2; exit 1; }
mkdir -p "$APPS" "$ICONS/256x256/apps" "$ICONS/scalable/apps" "$MIME/packages"
[ -f "$HERE/sialign.png" ] && cp "$HERE/sialign.png" "$ICONS/256x256/apps/sialign.png"
[ -f "$HERE/sialign.svg" ] && cp "$HERE/sialign.svg" "$ICONS/scalable/apps/sialign.svg"
cp "$HERE/sialign-mime.xml" "$MIME/packages/sialign-mime.xml"
# Absolute paths: the bundle folder is usually not on PATH.
sed -e "s|^Exec=.*|Exec=\"$HERE/sialign-gui\" %f|" -e "s|^TryExec=.*|TryExec=$HERE/sialign-gui|" \
    "$HERE/sialign.desktop" > "$APPS/sialign.desktop"
command -v xdg-mime >/dev/null 2>&1 && xdg-mime default sialign.desktop application/x-sialign-project >/dev/null 2>&1 || true
refresh
echo "SI Aligner is in the application menu ($APPS/sialign.desktop); .sialign files open in it."
