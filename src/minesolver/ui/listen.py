"""Listening sockets for ``minesolver serve``, opened before the web app starts.

Opening them here, not in uvicorn, makes a host that does not resolve or a port in use one
``error:`` line and exit status 2 before the server prints its address.
"""

from __future__ import annotations

import socket

from minesolver.ui.inputs import fail

__all__ = ["listen"]


def listen(host: str, port: int) -> list[socket.socket]:
    """Listening sockets on every address ``host`` resolves to (as asyncio binds them for
    uvicorn), so that a host that does not resolve or a port in use is one ``error:``
    line and exit status 2 before the web app starts. O(addresses)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        fail(f"cannot listen on {host}: the host does not resolve ({reason})")
    sockets: list[socket.socket] = []
    for family, kind, proto, _, address in dict.fromkeys(found):
        sock = socket.socket(family, kind, proto)
        sockets.append(sock)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
        except OSError as exc:
            for opened in sockets:
                opened.close()
            ip = f"[{address[0]}]" if family == socket.AF_INET6 else address[0]
            fail(f"cannot listen on {ip}:{port}: {exc.strerror or exc}")
    return sockets
