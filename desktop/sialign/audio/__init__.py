"""Audio decoding, peak envelopes, playback through sounddevice and ear-voice span (no Qt).

sounddevice (PortAudio) and scipy are imported only when something is played,
so reading envelopes or computing EVS works on machines without a sound stack.
"""

from sialign.audio.decode import AudioTrack, load_audio, mixdown, read_span, supported_formats
from sialign.audio.envelope import EnvelopeLevel, EnvelopePyramid, compute_envelopes, load_envelopes
from sialign.audio.evs import EvsRecord, EvsStats, InterpreterEvs, compare_interpreters, compute_evs, evs_stats
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
    "AudioTrack", "load_audio", "mixdown", "read_span", "supported_formats",
    "EnvelopeLevel", "EnvelopePyramid", "compute_envelopes", "load_envelopes",
    "EvsRecord", "EvsStats", "InterpreterEvs", "compare_interpreters", "compute_evs", "evs_stats",
    "PlaybackEngine", "Player", "PlayItem", "PlayPosition", "SoundDeviceOutput", "bead_play_items", "segment_play_item",
]
