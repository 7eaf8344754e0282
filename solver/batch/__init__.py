"""Many puzzles at once: the batch runner, its worker processes, the puzzle generator."""
