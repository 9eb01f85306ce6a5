"""The bead inspector and the word links drawn for it."""
