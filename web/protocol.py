"""The server's HTTP/1.1 protocol: uvicorn's own (h11), whose one answer written before the app
sees a request (400 for a request h11 cannot read: no Host header, headers past h11's 16 KB) is
a JSON object {"error": ...} like every other refusal of the server, not plain text.

It also keeps a connection from holding the server without a whole request (found by a review:
a few hundred sockets each sending half a request head, no token needed, ran the server out of
files): a request head must arrive within HEAD_SECONDS of the connection or of its first byte
(else a JSON 408, and the connection is closed), and past MAX_CONNECTIONS open at once a new one is closed at once.
(The app gives a request's body the same time: web/app.py.)

Named to uvicorn as `http=`, so the server runs on h11 whether or not httptools is installed."""

from __future__ import annotations

import asyncio
import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

UNREADABLE = (
    "not an HTTP/1.1 request this server can read (no Host header, headers too big, a malformed body, "
    "or not HTTP at all)"
)
HEAD_SECONDS = 10.0
MAX_CONNECTIONS = 200  # a table has a phone or two; a file descriptor each


class JsonErrorsProtocol(H11Protocol):
    _head_timer: asyncio.TimerHandle | None = None
    _heard = False  # any byte yet: one that sent none is closed unanswered (as a keep-alive's end)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > MAX_CONNECTIONS:
            transport.close()
            return
        # A connection that sends nothing at all is held to the same time.
        self._head_timer = self.loop.call_later(HEAD_SECONDS, self._head_late)

    def data_received(self, data: bytes) -> None:
        self._heard = True
        if self._head_timer is None and (self.cycle is None or self.cycle.response_complete):
            self._head_timer = self.loop.call_later(HEAD_SECONDS, self._head_late)
        super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None and not self.cycle.response_complete:  # a whole head: the app has it
            self._cancel_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if self.transport.is_closing() or not (self.cycle is None or self.cycle.response_complete):
            return
        if not self._heard:
            self.transport.close()
            return
        self._answer(408, b"Request Timeout", f"the request did not arrive whole within {HEAD_SECONDS:g} s")

    def send_400_response(self, msg: str) -> None:
        self._answer(400, b"Bad Request", UNREADABLE)

    def _answer(self, status: int, reason: bytes, message: str) -> None:
        body = json.dumps({"error": message}).encode("utf-8")
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode("ascii")),
            (b"connection", b"close"),
        ]
        try:
            for event in (h11.Response(status_code=status, headers=headers, reason=reason), h11.Data(data=body),
                          h11.EndOfMessage()):  # fmt: skip
                self.transport.write(self.conn.send(event) or b"")
        except h11.LocalProtocolError:  # h11 cannot answer in its state: the connection is closed all the same
            pass
        self.transport.close()
        # A request whose body was unreadable has an app already running on it: its own answer
        # must not follow this one (h11 refuses it, and uvicorn logs an application error).
        if self.cycle is not None:
            self.cycle.disconnected = True
