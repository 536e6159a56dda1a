"""The one-user server of ``wythoff serve``, with its own errors in JSON.

Before a request reaches the app, the server itself can refuse it: a request
line over 65,536 bytes (414), a header line too long or too many headers
(431), a malformed request line (400), an HTTP version it does not speak
(505). Python's ``http.server`` answers those with an HTML page; here they
are the API's ``{"error": "…"}`` like every other error. (Under gunicorn,
gunicorn's own limits apply first: see the README.)
"""

from __future__ import annotations

import json

from werkzeug.serving import WSGIRequestHandler


class JSONErrorsHandler(WSGIRequestHandler):
    """werkzeug's request handler, with the server's own errors in JSON."""

    def send_error(
        self, code: int, message: str | None = None, explain: str | None = None
    ) -> None:
        if self.request_version == "HTTP/0.9":
            # Set when the request line was refused before its version was
            # read: an HTTP/0.9 reply would carry no status and no headers.
            self.request_version = "HTTP/1.0"
        short, long = self.responses.get(code, ("error", ""))
        message = message or short
        self.log_error("code %d, message %s", code, message)
        self.send_response(code, message)
        self.send_header("Connection", "close")
        body = b""
        if code >= 200 and code not in (204, 205, 304):
            text = f"{message}: {explain or long}" if (explain or long) else message
            body = json.dumps({"error": text}).encode()
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and body:
            self.wfile.write(body)
