"""The words both faces show, the CLI's tables and the web page's JSON, written once so a hint
reads the same in the terminal and on the phone: numbers.py (numbers: no negative zero, a
probability's fraction, a gain's sign), board.py (cards, the party, what a play does), hint.py (the
hint table's columns, the note under it and the line on why the best play is best).

It sits above solver.core, .search and .finish, whose answers it words, and below the play layer
(the companion's prose and the web page's board speak with it), cli/ and web/
(tests/test_layers.py). This file imports nothing, so that importing a module of the package
loads nothing else.
"""
