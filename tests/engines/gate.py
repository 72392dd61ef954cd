"""A TCP proxy on loopback in front of the app that can lose the connection, as a phone does:
closed, it cuts the connections it carries and resets every new one (the browser's request fails
without an answer, as offline); open, it passes bytes both ways untouched.

Selenium cannot switch a browser offline (Playwright's set_offline has no WebDriver equivalent)."""
import socket
import struct
import threading


class Gate:
    def __init__(self, upstream_port, host="127.0.0.1"):
        self.host, self.upstream_port = host, upstream_port
        self.listener = socket.create_server((host, 0))
        self.port = self.listener.getsockname()[1]
        self.base = f"http://{host}:{self.port}"
        self.is_open = True
        self.lock = threading.Lock()
        self.sockets = set()
        self.threads = []
        self.accepting = threading.Thread(target=self._accept, daemon=True)
        self.accepting.start()

    def close(self):
        """Offline: every connection carried is cut, every new one reset."""
        with self.lock:
            self.is_open = False
            for sock in self.sockets:
                _cut(sock)

    def open(self):
        with self.lock:
            self.is_open = True

    def stop(self):
        self.close()
        try:
            self.listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.listener.close()
        self.accepting.join(timeout=5)
        for thread in self.threads:
            thread.join(timeout=5)

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # the listener was closed: stop()
            with self.lock:
                if not self.is_open:
                    _reset(client)
                    continue
                try:
                    upstream = socket.create_connection((self.host, self.upstream_port), timeout=5)
                except OSError:
                    _reset(client)
                    continue
                upstream.settimeout(None)
                self.sockets |= {client, upstream}
                done = threading.Barrier(2, action=lambda c=client, u=upstream: self._forget(c, u))
                for source, sink in ((client, upstream), (upstream, client)):
                    thread = threading.Thread(target=self._pump, args=(source, sink, done), daemon=True)
                    self.threads.append(thread)
                    thread.start()

    def _forget(self, client, upstream):
        with self.lock:
            self.sockets -= {client, upstream}
        client.close()
        upstream.close()

    @staticmethod
    def _pump(source, sink, done):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                sink.sendall(data)
        except OSError:
            pass
        try:
            sink.shutdown(socket.SHUT_WR)  # the other side sees the end as this side did
        except OSError:
            pass
        done.wait()


def _reset(sock):
    """Close with a reset (RST), as a dead network answers."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def _cut(sock):
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.shutdown(socket.SHUT_RDWR)  # wakes the pump blocked in recv(); it closes the socket
    except OSError:
        pass
