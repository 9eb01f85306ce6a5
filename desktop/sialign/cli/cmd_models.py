"""``sialign models`` — list, add, remove and choose local sentence-transformers and Whisper models.

Manage the sentence-transformers models SI Aligner uses offline. A model is a folder written by
SentenceTransformer(...).save(FOLDER) on a machine with internet and copied here; 'add' checks that
it loads and encodes before copying it into the user models folder ($SIALIGN_MODEL_DIR, or the
per-user data folder). Without any model SI Aligner uses its built-in embedders: 'use-multilingual'
(a multilingual sentence encoder for ar, de, en, es, fr, it, ja, ko, nl, pl, pt, ru, th, tr, zh)
where it covers both languages, else 'lexical' (character n-grams). Whisper speech models in
CTranslate2 format (for 'sialign transcribe' and 'sialign retime') are managed the same way: 'add'
tells the two kinds apart, and 'default' on a Whisper model sets the default speech model.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sialign.embed.models_registry import ModelRegistry

HELP = "manage local sentence-transformers and Whisper model folders (list, add, remove, default, check)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="models_command", metavar="ACTION", required=True)
    fmt = argparse.ArgumentDefaultsHelpFormatter

    p = sub.add_parser("list", help="list the models SI Aligner can find (* marks the default)", formatter_class=fmt)
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--no-hf-cache", action="store_true", help="do not look into the Hugging Face cache")
    p.add_argument("--speech", action="store_true", help="only the Whisper speech models, with the languages each recognises")

    p = sub.add_parser("add", help="check a model folder and copy it into the user models folder", formatter_class=fmt)
    p.add_argument("path", metavar="PATH", help="a sentence-transformers model folder (holding modules.json) or a Whisper model in CTranslate2 format (model.bin)")
    p.add_argument("--name", help="name to give the model (default: derived from the folder name)")
    p.add_argument("--link", action="store_true", help="link to the folder instead of copying it (saves disk space)")
    p.add_argument("--default", action="store_true", help="also make it the default model")

    p = sub.add_parser("remove", help="remove a model added with 'add' (a linked folder itself is kept)", formatter_class=fmt)
    p.add_argument("name", metavar="NAME")

    p = sub.add_parser("default", help="show or set the default model ('lexical' = built-in)", formatter_class=fmt)
    p.add_argument("name", metavar="NAME", nargs="?", help="model to use by default; omit to show the current one")
    p.add_argument("--clear", action="store_true", help="forget the default choice")
    p.add_argument("--whisper", "--speech", action="store_true", dest="whisper",
                   help="show, set or clear the default Whisper speech model instead")

    p = sub.add_parser("check", help="load a model (name or folder) and encode two sentences (a Whisper model: load it)", formatter_class=fmt)
    p.add_argument("model", metavar="NAME_OR_PATH")


def run(args: argparse.Namespace) -> int:
    from sialign.cli.usage import usage_error
    from sialign.embed import models_registry as mr

    registry = mr.ModelRegistry()
    action = args.models_command
    if action == "list":
        if args.speech:
            return _list_speech(registry, as_json=args.json)
        return _list(registry, as_json=args.json, include_hf_cache=not args.no_hf_cache)
    if action == "add":
        print(f"Checking {args.path} (loading the model)...", file=sys.stderr)
        entry = registry.add(args.path, name=args.name, link=args.link, make_default=args.default)
        how = "linked" if entry.linked else "copied"
        if entry.kind == mr.KIND_WHISPER:
            print(f"Added Whisper model '{entry.name}', {how} to {entry.path}.")
        else:
            print(f"Added model '{entry.name}' ({entry.dim}-dimensional vectors), {how} to {entry.path}.")
        if args.default:
            print(f"'{entry.name}' is now the default {'Whisper ' if entry.kind == mr.KIND_WHISPER else ''}model.")
        return 0
    if action == "remove":
        entry = registry.remove(args.name)
        if entry.linked:
            print(f"Removed model '{entry.name}' (the link only; {entry.origin or 'its folder'} is kept).")
        else:
            print(f"Removed model '{entry.name}' and deleted its copy in {registry.model_dir}.")
        return 0
    if action == "default" and args.whisper:
        if args.clear:
            registry.clear_default_whisper()
            print("No default speech model: 'sialign transcribe' needs --model unless exactly one is installed.")
        elif args.name is not None:
            entry = registry.find(args.name)
            if entry.kind != mr.KIND_WHISPER:
                usage_error(f"'{args.name}' is a sentence model, not a Whisper speech model (`sialign models list --speech` lists those)")
            registry.set_default(args.name)
            print(f"Default speech model: {args.name}")
        else:
            print(registry.default_whisper or "(none)")
        return 0
    if action == "default":
        if args.clear:
            registry.set_default(None)
            print(f"No default model: the built-in embedders are used ({AUTO_TEXT}) unless a project or --model names a model.")
            return 0
        if args.name is None:
            current = registry.default
            print(current if current else f"(none: {AUTO_TEXT} unless a project or --model names a model)")
            return 0
        registry.set_default(args.name)
        kind = registry.find(args.name).kind
        print(f"Default {'Whisper ' if kind == mr.KIND_WHISPER else ''}model: {args.name}")
        return 0
    if action == "check":
        return _check(registry, args.model)
    raise AssertionError(f"unhandled models action {action!r}")


AUTO_TEXT = "use-multilingual for the languages it covers, lexical otherwise"


def _list(registry: ModelRegistry, *, as_json: bool, include_hf_cache: bool) -> int:
    entries = registry.list_models(include_hf_cache=include_hf_cache, kind=None)
    default = registry.default
    whisper_default = registry.default_whisper
    if as_json:
        rows = [
            {
                "name": e.name,
                "source": e.source,
                "path": str(e.path) if e.path else None,
                "dim": e.dim,
                "status": e.status,
                "linked": e.linked,
                "default": e.name in (default, whisper_default),
                "kind": e.kind,
            }
            for e in entries
        ]
        json.dump({"user_model_dir": str(registry.model_dir), "default": default, "default_whisper": whisper_default,
                   "models": rows}, sys.stdout, indent=2)
        print()
        return 0
    print(f"User models folder: {registry.model_dir}")
    header = ("", "NAME", "KIND", "SOURCE", "DIM", "STATUS", "PATH")
    rows_txt = [
        (
            "*" if e.name in (default, whisper_default) else "",
            e.name,
            e.kind,
            e.source + (" (link)" if e.linked else ""),
            str(e.dim) if e.dim else "-",
            e.status,
            str(e.path) if e.path else "(built in)",
        )
        for e in entries
    ]
    widths = [max(len(r[i]) for r in [header, *rows_txt]) for i in range(len(header) - 1)]
    for row in [header, *rows_txt]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1])
    if default is None:
        print(f"No default set ({AUTO_TEXT}): `sialign models default NAME` chooses one.")
    elif all(e.name != default for e in entries):
        print(f"The default model '{default}' is not available any more; the built-in embedders are used ({AUTO_TEXT}).")
    return 0


def _list_speech(registry: ModelRegistry, *, as_json: bool) -> int:
    """The Whisper models, what each recognises, and which one is the default (`list --speech`)."""
    from sialign.core.errors import SialignError
    from sialign.embed import models_registry as mr
    from sialign.workflows.speech import speech_models, whisper_model_info

    entries = registry.list_models(include_hf_cache=False, kind=mr.KIND_WHISPER)
    default = speech_models()[1]  # the one rule for which model is the default
    rows = []
    for e in entries:
        info = None
        if e.usable and e.path is not None:
            try:
                info = whisper_model_info(e.path, name=e.name)
            except SialignError:
                info = None
        rows.append((e, info))
    if as_json:
        json.dump({"user_model_dir": str(registry.model_dir), "default_whisper": default, "models": [
            {"name": e.name, "source": e.source, "path": str(e.path) if e.path else None, "status": e.status,
             "linked": e.linked, "default": e.name == default, "multilingual": info.multilingual if info else None,
             "languages": list(info.languages) if info else []}
            for e, info in rows]}, sys.stdout, indent=2)
        print()
        return 0
    print(f"User models folder: {registry.model_dir}")
    if not rows:
        print("No speech model: add a Whisper model folder with `sialign models add FOLDER --default` "
              "(or in Settings → Speech models…); docs/transcription.md says where to get one.")
        return 0
    header = ("", "NAME", "RECOGNISES", "SOURCE", "PATH")
    table = [("*" if e.name == default else "", e.name, info.describe() if info else e.status,
              e.source + (" (link)" if e.linked else ""), str(e.path or "")) for e, info in rows]
    widths = [max(len(r[i]) for r in [header, *table]) for i in range(len(header) - 1)]
    for row in [header, *table]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1])
    for e, info in rows:
        if info is not None and info.multilingual:
            print(f"{e.name} recognises: {', '.join(info.languages)}")
    if default is None:
        print("No default speech model: `sialign models default --speech NAME` chooses one.")
    return 0


def _check(registry: ModelRegistry, model: str) -> int:
    from pathlib import Path

    from sialign.core.errors import ModelLoadError
    from sialign.embed import models_registry as mr

    candidate = Path(model).expanduser()
    if mr.is_whisper_folder(candidate) or (not candidate.exists() and any(
            e.name == model and e.kind == mr.KIND_WHISPER for e in registry.list_models(kind=mr.KIND_WHISPER))):
        folder = registry.whisper_folder(model)
        whisper = mr.check_whisper_folder(folder)
        langs = "multilingual" if whisper.multilingual else "English only"
        print(f"OK: {folder} is a Whisper model ({langs}) and loads in {whisper.load_seconds:.2f} s (CPU, int8).")
        return 0
    if model == mr.LEXICAL:
        print("'lexical' is built in and needs no check.")
        return 0
    if model == mr.MULTILINGUAL:
        import time

        from sialign.embed.multilingual import MultilingualEncoder

        start = time.perf_counter()
        encoder = MultilingualEncoder()
        loaded = time.perf_counter()
        vectors = encoder.encode(["The interpreter follows the speaker closely.", "通訳者は話し手のすぐ後に続きます。"])
        encoded = time.perf_counter()
        print(
            f"OK: the built-in multilingual encoder loads in {loaded - start:.2f} s and encodes into "
            f"{vectors.shape[1]}-dimensional vectors ({(encoded - loaded) * 1000:.0f} ms for two sentences; "
            f"cosine of the English-Japanese pair {float(vectors[0] @ vectors[1]):.2f})."
        )
        return 0
    if candidate.exists():
        folder = candidate
    else:
        entry = registry.find(model)
        if entry.path is None:
            raise ModelLoadError(f"model '{entry.name}' ({entry.source}) cannot be used: {entry.status}.")
        folder = entry.path
    result = mr.check_model_folder(folder)
    print(
        f"OK: {folder} loads in {result.load_seconds:.2f} s and encodes into "
        f"{result.dim}-dimensional vectors ({result.encode_seconds * 1000:.0f} ms for two sentences)."
    )
    return 0
