"""What every part of the app shares: the session and its undo commands, workers, file dialogs, screen fitting."""
