"""The `lobo-hint` command line: argument parsing and printing only; the game lives in solver/."""
