"""The review table: its model and its panel with the search and filter bar."""
