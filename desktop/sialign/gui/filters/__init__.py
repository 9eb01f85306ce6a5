"""The filter panel and the learned filter's doubt."""
