"""The join QR code: which address phones can reach, and the SVG that carries it."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

import ifaddr
import qrcode
import qrcode.image.svg


def svg(data: str) -> str:
    """An SVG QR code for data, black on white with a quiet zone (phones need the contrast)."""
    image = qrcode.make(
        data, image_factory=qrcode.image.svg.SvgPathFillImage, box_size=10, border=4
    )
    return image.to_string(encoding="unicode")


def is_loopback(host: str) -> bool:
    """Whether a Host header names this machine only (a phone could not reach it)."""
    name = host.strip("[]")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _interface_addresses() -> list[str]:
    """IPv4 addresses of this machine's interfaces, read from the system (no traffic sent).

    ifaddr works the same on Linux, macOS and Windows, so a laptop of any kind can be the host.
    """
    return [
        ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips if isinstance(ip.ip, str)
    ]  # IPv6 addresses come as tuples


def lan_address() -> str | None:
    """This machine's address on the local network, preferring private ranges; None if none."""
    candidates = [ipaddress.ip_address(a) for a in _interface_addresses()]
    usable = [a for a in candidates if not (a.is_loopback or a.is_link_local)]
    usable.sort(key=lambda a: not a.is_private)
    return str(usable[0]) if usable else None


def join_base(public_url: str, host_url: str) -> tuple[str, bool]:
    """The base URL to put in the QR code, and whether to warn that it is a guess.

    A configured public URL wins. Otherwise the address the host used, unless that is this
    machine only (localhost): then the machine's LAN address with the same port, and a warning.
    """
    if public_url:
        return public_url.rstrip("/"), False
    parts = urlsplit(host_url)
    if not is_loopback(parts.hostname or ""):
        return host_url.rstrip("/"), False
    lan = lan_address()
    if lan is None:
        return host_url.rstrip("/"), True
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{lan}{port}", True
