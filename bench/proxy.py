"""Caddy in front of the app on loopback, for the benchmarks: the README's public set-up without
the certificate (plain HTTP on 127.0.0.1), Debian's `caddy` package."""
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the drivers in tests/support/
from support.loopback import Phone, free_port

CADDYFILE = """\
{{
    admin off
    auto_https off
    log {{
        output discard
    }}
}}
http://127.0.0.1:{port} {{
    reverse_proxy 127.0.0.1:{upstream}{pool}
}}
"""
# Connections to the app at most (as the README's sample sets them): a request waits in the proxy
# for a free one rather than opening more, so the app's loop holds only these.
POOL = """ {{
        transport http {{
            max_conns_per_host {pool}
            keepalive_idle_conns_per_host {pool}
        }}
    }}"""


def start_caddy(folder, upstream, pool):
    """Caddy on a free loopback port in front of `upstream`; (process, port) once it answers."""
    port = free_port()
    config = Path(folder) / "Caddyfile"
    config.write_text(CADDYFILE.format(port=port, upstream=upstream, pool=POOL.format(pool=pool) if pool else ""))
    env = {**os.environ, "HOME": folder, "XDG_DATA_HOME": folder, "XDG_CONFIG_HOME": folder}
    caddy = subprocess.Popen(["caddy", "run", "--config", str(config), "--adapter", "caddyfile"], env=env,
                             stdout=subprocess.DEVNULL, stderr=open(Path(folder) / "caddy.log", "wb"))
    probe = Phone(f"http://127.0.0.1:{port}", timeout=2)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if caddy.poll() is not None:
            raise RuntimeError(f"caddy exited with {caddy.returncode}: {(Path(folder) / 'caddy.log').read_text()[-500:]}")
        try:
            if probe.get("/").status == 200:
                return caddy, port
        except OSError:
            time.sleep(0.1)
    caddy.terminate()
    raise RuntimeError("caddy did not answer within 20 s")
