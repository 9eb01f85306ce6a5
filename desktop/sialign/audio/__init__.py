"""Audio decoding, peak envelopes and playback through sounddevice (no Qt).

The ear-voice span needs no audio: it lives in :mod:`sialign.evaluate.evs`.

sounddevice (PortAudio) and scipy are imported only when something is played,
so reading envelopes works on machines without a sound stack.
"""

from sialign.audio.decode import (
    AudioTrack,
    audio_file_problem,
    load_audio,
    mixdown,
    read_span,
    resolve_audio_path,
    supported_formats,
)
from sialign.audio.envelope import EnvelopeLevel, EnvelopePyramid, compute_envelopes, load_envelopes
from sialign.audio.player import (
    PlaybackEngine,
    Player,
    PlayItem,
    PlayPosition,
    SoundDeviceOutput,
    bead_play_items,
    segment_play_item,
)

__all__ = [
    "AudioTrack", "audio_file_problem", "load_audio", "resolve_audio_path", "mixdown", "read_span", "supported_formats",
    "EnvelopeLevel", "EnvelopePyramid", "compute_envelopes", "load_envelopes",
    "PlaybackEngine", "Player", "PlayItem", "PlayPosition", "SoundDeviceOutput", "bead_play_items", "segment_play_item",
]
