"""The alignment matrix and its similarity colours."""
