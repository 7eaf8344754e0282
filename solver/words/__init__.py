"""The words both faces show, the CLI's tables and the web page's JSON, written once so a hint
reads the same in the terminal and on the phone: numbers.py (numbers: no negative zero, a
probability's fraction, a gain's sign), board.py (cards, the party, what a play does), hint.py (the
hint table's columns and the note under it).

It sits above solver.core, .search, .finish and .play and below cli/ and web/
(tests/test_layers.py). numbers.py imports nothing, so the search's own sentences (hint.explain)
take their numbers from it; this file imports nothing either, so that loads nothing else.
"""
