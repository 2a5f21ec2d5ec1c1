"""Where sessions may go. http and https only; loopback, private, link-local and other internal
addresses are refused unless the operator lists the host in PLING_ALLOW_HOSTS. The service's own
demo pages are always allowed."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from urllib.parse import urlsplit

from .errors import NavigationRefused, PageUnreachable

__all__ = ["check_url"]


def _internal(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return not address.is_global or address.is_multicast


def _listed(host: str, port: int | None, allowed: tuple[str, ...]) -> bool:
    for entry in allowed:
        entry = entry.lower().strip()
        if entry == host or entry == f"{host}:{port}" or (entry.startswith("[") and entry == f"[{host}]:{port}"):
            return True
    return False


async def check_url(url: str, allow_hosts: tuple[str, ...] = (), own_origin: str | None = None) -> str:
    """Answer the URL to open, or raise NavigationRefused saying why not."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as error:
        raise NavigationRefused(f"Not a valid URL: {error}") from None
    if parts.scheme not in ("http", "https"):
        raise NavigationRefused(f"Only http and https pages can be opened, not {parts.scheme or 'a relative URL'}:")
    host = (parts.hostname or "").lower()
    if not host:
        raise NavigationRefused("The URL has no host")
    if own_origin and f"{parts.scheme}://{parts.netloc}".lower() == own_origin.lower() and parts.path.startswith("/demo/"):
        return url
    if _listed(host, port, allow_hosts):
        return url
    if host == "localhost" or host.endswith(".localhost"):
        raise NavigationRefused(f"{host} is a loopback name; list it in PLING_ALLOW_HOSTS to open it")
    try:
        infos = await asyncio.wait_for(asyncio.get_running_loop().getaddrinfo(
            host, port or (443 if parts.scheme == "https" else 80), proto=socket.IPPROTO_TCP), 10)
    except (socket.gaierror, asyncio.TimeoutError) as error:
        raise PageUnreachable(f"{host} could not be resolved: {getattr(error, 'strerror', None) or 'timed out'}") from None
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%")[0])
        if _internal(address) and not _listed(str(address), port, allow_hosts):
            raise NavigationRefused(f"{host} resolves to {address}, an internal address; list it in PLING_ALLOW_HOSTS to open it")
    return url
