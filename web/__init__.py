"""The table companion as a web page: `lobo-hint serve` (docs/web.md).

store.py keeps the games (companion sessions, saved as the companion's save files), hints.py runs
hints in worker processes, views.py turns a session into the page's JSON, app.py is the Starlette
application, static/ the page itself. All game logic stays in solver/.
"""
