"""The rules core: cards, positions, plays, the rules and the exact cover. Knows nothing of search."""
