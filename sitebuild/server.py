"""A static server for ``dist/`` (``python build.py serve``, the browser tests, the bench)."""

from __future__ import annotations

import dataclasses
import functools
import gzip
import http.server
import socketserver
import threading
from pathlib import Path
from typing import Any

from sitebuild import DIST

MIME_TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json",
    ".css": "text/css",
    ".html": "text/html; charset=utf-8",
}


# Served gzip-encoded (when accepted), like GitHub Pages does for text; .wasm,
# .zip and .whl go as they are (the archives are compressed already).
GZIP_TYPES = frozenset({".html", ".js", ".mjs", ".css", ".json", ".svg", ".webmanifest"})


@functools.lru_cache(maxsize=64)
def _gzipped(path: Path, mtime_ns: int) -> bytes:
    """``path`` compressed once per version (``mtime_ns`` keys the cache)."""
    return gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)


class StaticHandler(http.server.SimpleHTTPRequestHandler):
    """Serve a directory, optionally mounted under a URL prefix such as ``/sub/path/``.

    ``extra`` maps exact URL paths to (content type, body) pairs served from
    memory (the e2e tests use it for an iframe parent page).
    """

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    prefix = "/"
    extra: dict[str, tuple[str, bytes]] = {}
    quiet = True

    def _strip_prefix(self) -> bool:
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if path in self.extra:
            content_type, body = self.extra[path]
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command == "GET":
                self.wfile.write(body)
            return False
        if self.prefix != "/":
            if path + "/" == self.prefix:
                self.send_response(301)
                self.send_header("Location", self.prefix)
                self.end_headers()
                return False
            if not path.startswith(self.prefix):
                self.send_error(404, "outside the served prefix")
                return False
            self.path = "/" + self.path[len(self.prefix) :]
        return True

    def do_GET(self) -> None:
        if self._strip_prefix() and not self._send_gzipped():
            super().do_GET()

    def do_HEAD(self) -> None:
        if self._strip_prefix() and not self._send_gzipped():
            super().do_HEAD()

    def _send_gzipped(self) -> bool:
        """Send a text file gzip-encoded when the client accepts it, as static hosts
        such as GitHub Pages do; False (nothing sent) for anything else."""
        if "gzip" not in self.headers.get("Accept-Encoding", ""):
            return False
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?", 1)[0].endswith("/"):
            path = path / "index.html"
        if path.suffix not in GZIP_TYPES or not path.is_file():
            return False
        body = _gzipped(path, path.stat().st_mtime_ns)
        self.send_response(200)
        self.send_header("Content-Type", MIME_TYPES[path.suffix])
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command == "GET":
            self.wfile.write(body)
        return True

    def end_headers(self) -> None:
        # Development server: always revalidate so a rebuild shows at once.
        self.send_header("Cache-Control", "no-cache")
        # As GitHub Pages does: lets a page in a sandboxed iframe (an opaque
        # origin, so every request is cross-origin) load the site's files.
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class _Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def make_server(
    directory: Path = DIST,
    port: int = 0,
    *,
    prefix: str = "/",
    extra: dict[str, tuple[str, bytes]] | None = None,
    quiet: bool = True,
) -> http.server.HTTPServer:
    """An HTTP server for ``directory`` on 127.0.0.1:``port`` (0 = a free port)."""
    if not prefix.startswith("/") or not prefix.endswith("/"):
        raise ValueError("prefix must start and end with '/'")
    handler = type(
        "Handler",
        (StaticHandler,),
        {"prefix": prefix, "extra": dict(extra or {}), "quiet": quiet},
    )
    bound = functools.partial(handler, directory=str(directory))
    return _Server(("127.0.0.1", port), bound)


@dataclasses.dataclass
class RunningServer:
    """A server running in a daemon thread; ``url`` ends with the prefix."""

    server: http.server.HTTPServer
    thread: threading.Thread
    url: str

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def start_server(directory: Path = DIST, **kwargs: Any) -> RunningServer:
    """Start ``make_server`` in a thread and return it with its base URL."""
    server = make_server(directory, **kwargs)
    thread = threading.Thread(target=server.serve_forever, name="dist-server", daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    return RunningServer(server, thread, f"http://{host!s}:{port}{kwargs.get('prefix', '/')}")


def serve(port: int, directory: Path = DIST) -> int:
    """Serve ``directory`` on 127.0.0.1:``port`` until Ctrl+C (``python build.py serve``)."""
    server = make_server(directory, port, quiet=False)
    print(f"serving {directory} on http://127.0.0.1:{port}/ (Ctrl+C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
