"""The app behind a real TLS terminator, as a table that wants HTTPS runs it (docs/deployment.md):
TLS ends in front of the app, which is told the scheme and the client by X-Forwarded-* headers
(COMPANION_TRUSTED_PROXIES=1) and builds its links from COMPANION_PUBLIC_URL.

The terminator here is a few lines of asyncio with a certificate made by openssl: the handshake,
the certificate check and the encryption are real, as with Caddy or nginx.
"""

from __future__ import annotations

import asyncio
import http.client
import re
import shutil
import ssl
import subprocess
import threading
from urllib.parse import urlencode

import pytest

from tests.helpers import Server, free_port


def make_certificate(folder) -> tuple[str, str]:
    cert, key = str(folder / "cert.pem"), str(folder / "key.pem")
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            key,
            "-out",
            cert,
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


class Terminator:
    """Accepts TLS on a port and forwards each request over plain HTTP to the app, adding the
    headers a proxy adds (one request per connection: enough for a test client)."""

    def __init__(self, cert: str, key: str, upstream: int, port: int):
        self.port = port
        self.upstream = upstream
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.context.load_cert_chain(cert, key)
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()
        self.ready.wait(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(
            asyncio.start_server(self._serve, "127.0.0.1", self.port, ssl=self.context)
        )
        self.ready.set()
        self.loop.run_until_complete(server.serve_forever())

    async def _serve(self, reader, writer) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        length = re.search(rb"(?i)\r\ncontent-length:\s*(\d+)", head)
        body = await reader.readexactly(int(length.group(1))) if length else b""
        line, rest = head.split(b"\r\n", 1)
        head = (
            line
            + b"\r\nX-Forwarded-Proto: https\r\nX-Forwarded-For: 203.0.113.7\r\n"
            + rest.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n")
        )
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        up_writer.write(head + body)
        await up_writer.drain()
        writer.write(await up_reader.read())
        await writer.drain()
        writer.close()
        up_writer.close()


@pytest.fixture
def https(tmp_path):
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed: no certificate for the TLS test")
    cert, key = make_certificate(tmp_path)
    tls_port = free_port()
    server = Server(
        tmp_path / "tls.db",
        env={
            "COMPANION_TRUSTED_PROXIES": "1",
            "COMPANION_PUBLIC_URL": f"https://127.0.0.1:{tls_port}",
        },
    )
    server.start()
    terminator = Terminator(cert, key, server.port, tls_port)
    context = ssl.create_default_context(cafile=cert)
    yield terminator, context
    server.kill()


def request(terminator, context, method, path, cookies, body=None):
    conn = http.client.HTTPSConnection("127.0.0.1", terminator.port, context=context, timeout=10)
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
    data = None
    if body is not None:
        data = urlencode(body)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    text = response.read().decode()
    for name, value in response.getheaders():
        if name.lower() == "set-cookie":
            assert "Secure" in value, value  # every cookie is Secure over https
            cookies[value.split("=", 1)[0]] = value.split("=", 1)[1].split(";", 1)[0]
    return response, text


def test_a_table_works_over_https_with_secure_cookies_and_https_links(https):
    terminator, context = https
    cookies: dict = {}
    response, home = request(terminator, context, "GET", "/", cookies)
    assert response.status == 200
    token = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', home).group(1)
    response, _ = request(
        terminator,
        context,
        "POST",
        "/tables",
        cookies,
        {"csrf_token": token, "game": "pebbles", "players": 2},
    )
    assert response.status == 302, "the form is accepted over https (CSRF works without Referer)"
    code = re.search(r"/t/(\w+)/", response.getheader("Location")).group(1)
    response, page = request(terminator, context, "GET", f"/t/{code}/", cookies)
    assert response.status == 200
    assert re.search(rf'href="https://127\.0\.0\.1:\d+/t/{code}/join\?s=', page)
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    response, _ = request(
        terminator,
        context,
        "POST",
        f"/t/{code}/note",
        cookies,
        {"csrf_token": token, "text": "over TLS"},
    )
    assert response.status in (200, 302)
    _, page = request(terminator, context, "GET", f"/t/{code}/", cookies)
    assert "over TLS" in page
