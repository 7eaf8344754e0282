"""The server's HTTP/1.1 protocol: uvicorn's own (h11), whose one answer written before the app
sees a request (400 for a request h11 cannot read: no Host header, headers past h11's 16 KB) is
a JSON object {"error": ...} like every other refusal of the server, not plain text.

Named to uvicorn as `http=`, so the server runs on h11 whether or not httptools is installed."""

from __future__ import annotations

import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

UNREADABLE = (
    "not an HTTP/1.1 request this server can read (no Host header, headers too big, a malformed body, "
    "or not HTTP at all)"
)


class JsonErrorsProtocol(H11Protocol):
    def send_400_response(self, msg: str) -> None:
        body = json.dumps({"error": UNREADABLE}).encode("utf-8")
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode("ascii")),
            (b"connection", b"close"),
        ]
        for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"), h11.Data(data=body),
                      h11.EndOfMessage()):  # fmt: skip
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()
        # A request whose body was unreadable has an app already running on it: its own answer
        # must not follow this one (h11 refuses it, and uvicorn logs an application error).
        if self.cycle is not None:
            self.cycle.disconnected = True
