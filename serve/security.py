"""The club password, the signed session cookie and the CSRF token (stdlib ``hmac``).

Every visitor gets a session cookie ``tt`` = ``payload.signature`` (base64 JSON of a
random session id and whether the club password was given; HMAC-SHA256 with the
server's secret, kept in the games folder so that sessions outlive a restart).  The
CSRF token of a session is the HMAC of its id: every form carries it in a hidden field
``csrf``, every script request in the ``X-CSRF-Token`` header; a POST without it is
refused (403).  The cookie is ``HttpOnly`` and ``SameSite=Strict``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

__all__ = ["COOKIE", "Guard", "Visitor", "is_loopback", "load_secret"]

COOKIE = "tt"


def is_loopback(host: str) -> bool:
    """Is ``host`` a loopback address (or ``localhost``)?"""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def load_secret(folder: Path) -> bytes:
    """The server's signing key, made once per club folder (mode 0600)."""
    path = folder / ".secret"
    try:
        data = path.read_bytes()
        if len(data) >= 32:
            return data
    except FileNotFoundError:
        pass
    data = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return data


@dataclass(frozen=True, slots=True)
class Visitor:
    """Who is asking: the session id, whether he gave the password, his CSRF token, and
    whether his cookie must be (re)set."""

    sid: str
    authed: bool
    csrf: str
    fresh: bool


class Guard:
    """Signs and reads cookies; knows the password (None: loopback, no password)."""

    def __init__(self, secret: bytes, password: str | None) -> None:
        self.secret = secret
        self.password = password

    def _sign(self, data: bytes) -> str:
        return base64.urlsafe_b64encode(hmac.new(self.secret, data, hashlib.sha256).digest()).decode().rstrip("=")

    def cookie_value(self, sid: str, authed: bool) -> str:
        payload = base64.urlsafe_b64encode(json.dumps({"s": sid, "a": authed}).encode()).decode().rstrip("=")
        return f"{payload}.{self._sign(payload.encode())}"

    def csrf_of(self, sid: str) -> str:
        return self._sign(b"csrf:" + sid.encode())

    def visitor(self, cookie: str | None) -> Visitor:
        """The visitor of this cookie; a new anonymous one when it is missing or forged."""
        if cookie and "." in cookie:
            payload, sig = cookie.rsplit(".", 1)
            if hmac.compare_digest(sig, self._sign(payload.encode())):
                try:
                    data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
                    sid, authed = str(data["s"]), bool(data["a"])
                    return Visitor(sid, authed or self.password is None, self.csrf_of(sid), False)
                except (ValueError, KeyError, TypeError):
                    pass
        sid = secrets.token_urlsafe(18)
        return Visitor(sid, self.password is None, self.csrf_of(sid), True)

    def check_password(self, given: str) -> bool:
        if self.password is None:
            return True
        return hmac.compare_digest(given.encode("utf-8"), self.password.encode("utf-8"))

    def check_csrf(self, visitor: Visitor, token: str | None) -> bool:
        return bool(token) and not visitor.fresh and hmac.compare_digest(str(token), visitor.csrf)
