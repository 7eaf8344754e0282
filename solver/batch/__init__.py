"""Many puzzles at once: the batch runner (on solver/parallel/), the puzzle generator."""
