"""Fine-grained filters: intra-sentence trimming, inter-sentence scores (alpha, gamma, eta), omission flags."""
