"""``sialign practice`` — a practice session without the window: live alignment of a rendition, then the full pass.

SOURCE is the talk: a .sialign project, a source transcript with times (played from --src-audio), or
the source recording (transcribed into sentences first). The rendition comes from --input-file, a
recording fed as if it came from the microphone (at real time, or --speed N times faster; 0 = as fast
as possible), or with --record from the microphone while the source recording plays (Ctrl+C stops).
While it runs, the rendition is recognised in a sliding window with a local Whisper model, words are
committed once two consecutive passes agree (LocalAgreement), and the growing transcript is aligned
with the source; --events writes one JSON line per bead as it is committed or revised:
{"bead", "src", "tgt", "shown_at_s", "latency_s", "state"} (times on the recording's clock). At the
end, one full offline pass (as 'sialign transcribe' then 'sialign align') makes the session's project
(-o SESSION.sialign), whose target is marked as a machine transcript, not corrected.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sialign.cli.project_args import add_write_guard, write_guard
from sialign.core.file_kind import PROJECT_SUFFIX

if TYPE_CHECKING:
    from sialign.workflows.practice_session import PracticeSession

HELP = "practise interpreting a talk: align a rendition live while it is spoken, then save the session's project"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="SOURCE", help="the talk: a .sialign project, a timed source transcript, or the source recording")
    parser.add_argument("--src-audio", metavar="AUDIO", help="the source recording (played with --record; attached to the session)")
    parser.add_argument("--src-lang", metavar="LANG", required=True, help="source language code, e.g. en")
    parser.add_argument("--tgt-lang", metavar="LANG", required=True, help="the rendition's language code, e.g. ja")
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--input-file", metavar="RENDITION", help="a recording of the rendition, fed as if it came from the microphone")
    given.add_argument("--record", action="store_true", help="record the rendition from the microphone while the source recording plays")
    parser.add_argument("--speed", type=float, default=1.0, metavar="N", help="with --input-file: feed N times faster than real time (0: as fast as possible; default 1)")
    parser.add_argument("--whisper-model", metavar="NAME|DIR", help="Whisper model folder, or the name of one added with 'sialign models add' (default: the default Whisper model)")
    parser.add_argument("--events", metavar="EVENTS.jsonl", help="write one JSON line per bead as it is committed or revised")
    parser.add_argument("--recording", metavar="REC.wav", help="with --record: where to write the recording (default: beside -o, SESSION.wav); an existing "
                        "file is never written over: SESSION.practice-YYYYmmdd-HHMMSS.wav beside it is chosen instead")
    parser.add_argument("--threads", type=int, default=2, metavar="N", help="CPU threads for the live recogniser (default 2)")
    parser.add_argument("-o", "--output", metavar="SESSION.sialign", required=True, help="the session's project")
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors")
    add_write_guard(parser)


def run(args: argparse.Namespace) -> int:
    from sialign.cli.progress import console_progress, end_progress
    from sialign.cli.usage import usage_error
    from sialign.core.coverage import live_coverage
    from sialign.core.errors import SialignError
    from sialign.core.languages import normalise_language
    from sialign.workflows.booth import practice_talk
    from sialign.workflows.outputs import check_output_folder
    from sialign.workflows.practice import is_recording, live_summary
    from sialign.workflows.practice_session import LiveUpdate, Microphone, PracticeSession, RenditionFile
    from sialign.workflows.speech import require_recogniser, whisper_model_for

    output = Path(args.output)
    if output.suffix.lower() != PROJECT_SUFFIX:
        usage_error(f"-o {args.output}: a session is saved as a project — give a name ending in .sialign")
    check_output_folder(args.output)
    rendition = _input_file(args)
    src_audio = _audio_option(args.src_audio, "--src-audio")
    src_lang, tgt_lang = normalise_language(args.src_lang), normalise_language(args.tgt_lang)
    require_recogniser()
    progress = console_progress(args.quiet)
    # A transcript is read (and refused when untimed) before the model is looked for; a recording needs it first.
    model = whisper_model_for(args.whisper_model) if is_recording(args.source) else None
    talk = practice_talk(args.source, src_lang=src_lang, src_audio=src_audio, whisper_model=model, progress=progress)
    if model is None:
        model = whisper_model_for(args.whisper_model)
    else:
        end_progress(progress)
    if args.events:
        check_output_folder(args.events, "--events")
    source_ids = talk.source.ids()

    def show(update: LiveUpdate) -> None:
        if not args.quiet and sys.stderr.isatty():
            covered = live_coverage(update.beads, source_ids)
            print(f"\r{update.committed_until_s:7.1f} s  {len(update.target):4d} chunks  {covered.rendered:4d} sentences rendered"
                  f"  {covered.omitted:3d} unrendered", end="", file=sys.stderr, flush=True)

    session = PracticeSession(
        talk, tgt_lang=tgt_lang, model=model,
        rendition=RenditionFile(rendition, args.speed) if rendition is not None else Microphone(_recording_path(args, output)),
        on_update=show, events=Path(args.events) if args.events else None, threads=args.threads)
    session.prepare()
    session.start()
    try:
        if rendition is not None:
            session.feed()
        else:
            _record(args, session)
        result = session.finish_live()
    except BaseException:  # Ctrl+C, a failed recording: the recording and the events shown so far are kept
        session.abandon()
        raise
    if not args.quiet:
        if sys.stderr.isatty():
            print(file=sys.stderr)
        summary = live_summary(result, talk.source) or {}
        print(f"live: {summary.get('rendered')} of {len(talk.source)} sentences rendered, {summary.get('unrendered')} unrendered; "
              f"bead latency median {summary.get('latency_median_s')} s, 90th percentile {summary.get('latency_p90_s')} s; "
              f"{result.processed_s:.1f} of {result.received_s:.1f} s of audio read in {result.passes} passes", file=sys.stderr)
    try:
        project = session.full_pass(progress)
    except (SialignError, OSError) as exc:
        # The student's session is not lost with the full pass: the live alignment is saved as it was shown.
        saved = session.save(session.live_project(), output, **write_guard(args))
        raise SialignError(f"the full pass over the recording failed ({exc}); the live session was saved as it was shown: "
                           f"{saved} — align it again later with 'sialign realign'") from exc
    end_progress(progress)
    saved = session.save(project, output, **write_guard(args))
    if not args.quiet:
        assert project.alignment is not None
        counts = project.alignment.counts()
        print(f"full pass: {len(project.target)} chunks, {len(project.alignment)} beads ({counts.get('dropped', 0)} dropped); "
              f"wrote {saved}", file=sys.stderr)
    return 0


def _input_file(args: argparse.Namespace) -> Path | None:
    if not args.input_file:
        return None
    path = _audio_option(args.input_file, "--input-file")
    assert path is not None
    return Path(path)


def _audio_option(value: str | None, option: str) -> str | None:
    """An audio file named by ``option``, refused up front in one line when it is none."""
    if not value:
        return None
    from sialign.audio.decode import audio_file_problem
    from sialign.cli.usage import usage_error

    problem = audio_file_problem(value)
    if problem:
        usage_error(f"{option} {value}: {problem}")
    return str(Path(value).expanduser())


def _recording_path(args: argparse.Namespace, output: Path) -> Path:
    """Where ``--record`` records: ``--recording`` or SESSION.wav beside -o, or a free name beside it when that is taken."""
    from sialign.workflows.booth import free_recording_path

    wanted = Path(args.recording).expanduser() if args.recording else output.expanduser().with_suffix(".wav")
    target = free_recording_path(wanted)
    if target != wanted and not args.quiet:
        print(f"{wanted} exists: recording to {target} instead", file=sys.stderr)
    return target


def _record(args: argparse.Namespace, session: PracticeSession) -> None:
    """Record while the talk plays, until it ends (or Ctrl+C); the recording is finished and kept."""
    import time

    if not args.quiet:
        print(f"recording to {session.recording_path}" + ("; the talk plays until its end" if session.talk.src_audio else "")
              + " — press Ctrl+C to stop", file=sys.stderr)
    try:
        while not session.status().talk_finished:
            time.sleep(0.2)
            if session.status().error:
                break
    except KeyboardInterrupt:
        pass
    done = session.stop_recording()
    error = session.status().error
    if error:
        from sialign.core.errors import SialignError

        raise SialignError(f"{done.path if done else session.recording_path}: the recording stopped: {error}")
