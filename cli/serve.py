"""`lobo-hint serve`: the table companion as a web page, for a phone at a real table (docs/web.md).

The server (Starlette on uvicorn) and the page are in web/; this module reads the options, opens
the listening socket (so a port in use is one line, not a traceback), prints the address and
runs the server. Both load only when the command runs: the other commands start without them.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
from pathlib import Path
from typing import Annotated, Any

import typer

from solver.core.files import append_locked
from solver.words.numbers import count_text

from .common import MemoryOpt, fail, input_errors, use_memory, writable_folder

app = typer.Typer()

LOCAL = ("127.0.0.1", "localhost", "::1")
LOCK_NAME = ".lobo-hint-serve.lock"  # in the games folder: one server a folder


def default_games_folder() -> Path:
    """Where games are kept: $XDG_DATA_HOME/lobo-hint/games, else ~/.local/share/lobo-hint/games."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "lobo-hint" / "games"


def addresses(host: str, port: int, token: str | None) -> list[str]:
    """The addresses to open the page at: this machine's own, and for a server that listens on
    every interface (0.0.0.0, ::) the machine's other addresses, for a phone on the same network.
    Found from the host name and from the route out of the machine: nothing is sent anywhere."""
    query = f"/?token={token}" if token else "/"
    if host not in ("0.0.0.0", "::", ""):
        shown = f"[{host}]" if ":" in host else host
        return [f"http://{shown}:{port}{query}"]
    found: set[str] = set()
    with contextlib.suppress(OSError):
        found |= {str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
    # Found by a review: the host name often names only 127.0.1.1, and the phone's address was
    # not shown. A UDP socket "connected" to an outside address takes the address of the
    # interface its route leaves by (a connect sends no packet); no route, no address.
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never a real host
        found.add(str(probe.getsockname()[0]))
    others = sorted(ip for ip in found if not ip.startswith(("127.", "0.")))
    return [f"http://{ip}:{port}{query}" for ip in others] + [f"http://127.0.0.1:{port}{query}"]


def listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        fail(f"--host/--port: cannot listen on {host}:{port}: {e.strerror or e}")
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


@app.command(
    epilog="Example: lobo-hint serve --host 0.0.0.0   (then open the printed address on a phone on the same network)"
)
@input_errors
def serve(
    host: Annotated[
        str,
        typer.Option("--host", help="the address to listen on; 0.0.0.0: reachable from a phone on the same network"),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", "-p", help="the port (0: any free one)")] = 8000,
    games: Annotated[
        str | None,
        typer.Option(
            "--games",
            help="the folder games are kept in (default $XDG_DATA_HOME/lobo-hint/games, else ~/.local/share/lobo-hint/games)",
        ),
    ] = None,
    token: Annotated[
        str | None,
        typer.Option(
            "--token", help="the access token (default: a new one, when the server is reachable beyond this machine)"
        ),
    ] = None,
    time_limit: Annotated[
        float, typer.Option("--time-limit", "-t", help="seconds a hint may take by default (the CLI's 2 s)")
    ] = 2.0,
    open_page: Annotated[bool, typer.Option("--open", help="open the page in this machine's browser")] = False,
    max_memory: MemoryOpt = None,
) -> None:
    """Follow a real game on a phone: the companion of `play` as a web page, with hints."""
    if not 0 <= port <= 65535:
        fail(f"--port: 0 to 65535, not {port}")
    if not 0 < time_limit <= 3600:  # nan fails this too
        fail(f"--time-limit: more than 0 and at most 3600 seconds, not {time_limit}")
    if token is not None and (len(token) < 8 or not token.isascii() or not token.isprintable() or " " in token):
        fail("--token: at least 8 printable characters, no spaces")
    use_memory(max_memory)
    local_only = host in LOCAL
    if not local_only and token is None:
        token = secrets.token_urlsafe(16)

    from web.app import create_app
    from web.hints import HintService
    from web.store import Store, WebError

    if games is not None and not games.strip():
        fail("--games: an empty path names no folder")
    folder = Path(games).expanduser() if games else default_games_folder()
    # A save that fails later loses a game. The default folder is made with its parents (found by a
    # review: a first run on a new machine, with no ~/.local/share/lobo-hint, was refused).
    writable_folder(str(folder), "--games", parents=games is None)
    # One server a folder (found by a review: two on one folder wrote over each other's games).
    lock = folder / LOCK_NAME
    try:
        held = append_locked(str(lock))  # held, open, until the process ends
    except BlockingIOError:
        fail(f"--games: another lobo-hint serve keeps its games in {folder}: stop it, or give another --games")
    except (OSError, ValueError) as e:
        fail(f"--games: cannot lock {lock}: {getattr(e, 'strerror', None) or e}")
    try:
        store = Store(folder)
    except WebError as e:
        fail(f"--games: {e.message}")
    sock = listen(host, port)
    port = sock.getsockname()[1]
    for line in store.skipped:
        typer.echo(f"lobo-hint: warning: {line}", err=True)
    hints = HintService()
    app = create_app(store, hints, token=token, local_only=local_only, seconds=time_limit)
    typer.echo(f"lobo-hint serve: {count_text(len(store.entries()), 'game')} in {folder}")
    urls = addresses(host, port, token)
    for url in urls:
        typer.echo(f"  open {url}")
    if token:
        typer.echo("  (the page needs the token in the address once; keep it to yourself)")
    typer.echo("  Ctrl-C stops the server; every game is saved after every step")
    if open_page:
        import webbrowser

        webbrowser.open(urls[-1])
    try:
        run(app, sock)
    finally:
        held.close()


def run(app: Any, sock: socket.socket) -> None:
    import uvicorn

    from web.protocol import JsonErrorsProtocol

    config = uvicorn.Config(
        app, http=JsonErrorsProtocol, log_level="warning", access_log=False, timeout_graceful_shutdown=2
    )
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops on Ctrl-C, then raises it again: stopping is how a server ends
        pass
    finally:
        sock.close()
    typer.echo("lobo-hint serve: stopped (every game is saved)")
