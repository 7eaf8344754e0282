"""Whole games: the game driver, policies, simulation, reward advice, the report and the table companion."""
