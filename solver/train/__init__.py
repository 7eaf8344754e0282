"""Building and tuning the data the search ships (solver/search/data/): the evaluator's tables
(evaluator_tables) and the rollout policy's weights (rollout_weights). Run offline; it may import
every layer, and nothing outside it imports it (tests/test_layers.py), so the runtime never loads
the simulator to read its own data."""
