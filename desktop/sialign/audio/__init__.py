"""Audio decoding, peak envelopes, playback through sounddevice and ear-voice span (no Qt)."""
