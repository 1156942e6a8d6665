"""The QR codes: which address phones can reach, the SVG that carries the join link, and the
one of the BG Stats link."""

from __future__ import annotations

import ipaddress

import ifaddr
import qrcode
import qrcode.image.svg


def svg(data: str) -> str:
    """An SVG QR code for data, black on white with a quiet zone (phones need the contrast)."""
    image = qrcode.make(
        data, image_factory=qrcode.image.svg.SvgPathFillImage, box_size=10, border=4
    )
    return image.to_string(encoding="unicode")


def link_svg(data: str) -> str:
    """An SVG QR code for a long link (the BG Stats link): low error correction (a screen shows it
    crisp, and fewer, larger modules scan from further away), each row's dark runs as one path
    segment (a tenth of the size of a square per module), sized by its container."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_L, border=4)
    code.add_data(data)
    code.make(fit=True)
    matrix = code.get_matrix()  # with the quiet zone
    size = len(matrix)
    runs = []
    for y, row in enumerate(matrix):
        x = 0
        while x < size:
            if row[x]:
                start = x
                while x < size and row[x]:
                    x += 1
                runs.append(f"M{start} {y}h{x - start}v1h-{x - start}z")
            else:
                x += 1
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
        f'shape-rendering="crispEdges" aria-hidden="true">'
        f'<rect width="{size}" height="{size}" fill="#fff"/>'
        f'<path d="{"".join(runs)}" fill="#000"/></svg>'
    )


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


WILDCARDS = {"", "0.0.0.0", "::", "[::]"}


def join_base(public_url: str, bind_host: str, port: int | str | None) -> tuple[str, str | None]:
    """The base URL to put in the QR code and the join link, and a problem to show, if any.

    Never from the request's Host header (anyone can forge it): a configured public URL wins;
    otherwise an address this server listens on. A server bound to every interface offers this
    machine's LAN address; one bound to loopback only cannot be reached by phones at all, and
    says so ("loopback"); a LAN address that cannot be found is said too ("no-lan").
    """
    if public_url:
        return public_url.rstrip("/"), None
    suffix = f":{port}" if port and str(port) != "80" else ""
    host = bind_host.strip("[]")
    if host in WILDCARDS:
        lan = lan_address()
        if lan is None:
            return f"http://127.0.0.1{suffix}", "no-lan"
        return f"http://{lan}{suffix}", None
    if is_loopback(host):
        return f"http://{bind_host}{suffix}", "loopback"
    return f"http://{bind_host}{suffix}", None


def listening_addresses(public_url: str, bind_host: str, port: int) -> list[tuple[str, str]]:
    """What the start-up message offers: (address, who can use it) for every address phones or
    this computer can really reach, given where the server listens."""
    found = []
    if public_url:
        found.append((public_url, "public"))
    host = bind_host.strip("[]")
    if host in WILDCARDS:
        lan = lan_address()
        if lan:
            found.append((f"http://{lan}:{port}/", "lan"))
        found.append((f"http://localhost:{port}/", "local"))
    elif is_loopback(host):
        found.append((f"http://{bind_host}:{port}/", "local"))
    else:
        found.append((f"http://{bind_host}:{port}/", "lan"))
    return found
