"""The audio panel: waveforms, playback and the interpreter-lag plot."""
