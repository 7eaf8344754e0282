"""Plain, slow, obviously-correct reference implementation of the lobo-hint rules.

Written independently of the fast engine (solver/, cli/); used only by the tests.
"""
