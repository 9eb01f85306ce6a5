"""The main window and its controllers: project files, commands and layout, long work, review commands, shortcuts."""
