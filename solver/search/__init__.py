"""The searches: the expectimax (Python and compiled), its bounds and tables, estimates, the hint, the graph, the memory budget."""
