"""Windows beside the main one: corpus, comparison of renditions, the review report."""
