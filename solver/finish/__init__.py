"""The final-round finisher (CP-SAT) and the small independent checker it is checked by."""
