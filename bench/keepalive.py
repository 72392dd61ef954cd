"""A phone's keep-alive HTTP/1.1 connection for the load benchmark (bench/load.py): asyncio
streams, a browser's headers and cookies, each answer read whole."""
import asyncio
import time

TIMEOUT = 10.0


class Broken(Exception):
    """An answer a healthy phone never gets."""


class Connection:
    """One phone's keep-alive connection: HTTP/1.1, its cookie, gzip accepted (bodies are read
    whole and not unpacked: only their size matters here)."""

    def __init__(self, port, cookie=None, csrf=None, htmx=True):
        self.port, self.cookie, self.csrf, self.htmx = port, cookie, csrf, htmx
        self.reader = self.writer = None

    async def request(self, method, path, form=None):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        body = "&".join(f"{k}={v}" for k, v in (form or {}).items()).encode()
        head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Accept-Encoding: gzip",
                "User-Agent: orchard-load", "Accept: */*"]
        if self.cookie:
            head.append(f"Cookie: {self.cookie}")
        if self.htmx:  # polls and taps are htmx requests
            head.append("HX-Request: true")
        if method == "POST":
            head += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
            if self.csrf:
                head.append(f"X-CSRFToken: {self.csrf}")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        started = time.perf_counter()
        status, headers, data = await asyncio.wait_for(self._answer(), TIMEOUT)
        return status, headers, data, time.perf_counter() - started

    async def _answer(self):
        line = await self.reader.readline()
        if not line:
            raise Broken("connection closed by the server")
        status = int(line.split()[1])
        headers = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", 0))
        data = await self.reader.readexactly(length) if length else b""
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, headers, data

    def close(self):
        if self.writer is not None:
            self.writer.close()
            self.writer = None
