"""The practice booth's window (*Practice → New session…*) and its place in the main window."""
