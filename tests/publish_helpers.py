"""Helpers for the publishing tests: generated games, an HTML5 structure checker,
and a headless Chromium driver (standard library only)."""

from __future__ import annotations

import os
import random
import shutil
import struct
import subprocess
import tempfile
import zlib
from html.parser import HTMLParser
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
XSS = "<script>alert(1)</script>"

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# SVG elements may be written with an end tag or self-closed; both parse the same.
SVG_TAGS = {"svg", "g", "defs", "use", "circle", "rect", "path", "line", "polyline", "text", "title", "desc", "marker"}


def selfplay_record(
    seed: int, kind: str = "douze-trous", *, names: tuple[str, str] = ("Bot A", "Bot B"), marques: int = 2
):
    """A whole generated partie (bots, RULES.md-legal) with the given player names."""
    from trictrac.replay.generate.selfplay import play_partie

    return play_partie(random.Random(seed), kind, marques=marques, headers={"A": names[0], "B": names[1]})


class Html5Checker(HTMLParser):
    """Structure checks of an HTML5 document (what a validator would reject first):
    doctype first, html[lang], one meta charset, balanced non-void elements, unique
    ids, no end tag for a void element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.errors: list[str] = []
        self.stack: list[str] = []
        self.ids: set[str] = set()
        self.doctype: str | None = None
        self.first_seen = False
        self.charset = 0
        self.lang = False
        self.tags: dict[str, int] = {}

    def handle_decl(self, decl: str) -> None:
        if self.first_seen:
            self.errors.append("doctype not first")
        self.doctype = decl

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.first_seen = True
        if "svg" not in self.stack:  # an SVG <title> is not the document's
            self.tags[tag] = self.tags.get(tag, 0) + 1
        a = dict(attrs)
        if tag == "html" and a.get("lang"):
            self.lang = True
        if tag == "meta" and "charset" in a:
            self.charset += 1
        if "id" in a:
            if a["id"] in self.ids:
                self.errors.append(f"duplicate id {a['id']!r}")
            self.ids.add(a["id"] or "")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            self.errors.append(f"end tag for void element {tag}")
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unbalanced </{tag}> (open: {self.stack[-3:]})")
            if tag in self.stack:
                while self.stack and self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()


def html5_problems(text: str) -> list[str]:
    c = Html5Checker()
    c.feed(text)
    c.close()
    out = list(c.errors)
    if (c.doctype or "").lower() != "doctype html":
        out.append(f"doctype is {c.doctype!r}")
    if not c.lang:
        out.append("html without lang")
    if c.charset != 1:
        out.append(f"{c.charset} meta charset")
    if c.stack:
        out.append(f"unclosed: {c.stack}")
    for t in ("title", "body", "head"):
        if c.tags.get(t, 0) != 1:
            out.append(f"{c.tags.get(t, 0)} <{t}>")
    return out


# --- headless Chromium ------------------------------------------------------------------


def chromium_args(user_dir: str) -> list[str]:
    return [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={user_dir}",
    ]


def run_chromium(extra: list[str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    user_dir = tempfile.mkdtemp(prefix="tt-chromium-")
    try:
        return subprocess.run(chromium_args(user_dir) + extra, capture_output=True, text=True, timeout=timeout)
    finally:
        shutil.rmtree(user_dir, ignore_errors=True)


def dump_dom(url: str) -> str:
    r = run_chromium(["--virtual-time-budget=3000", "--dump-dom", url])
    return r.stdout


def screenshot(url: str, out: Path, size: tuple[int, int] = (1200, 900)) -> Path:
    run_chromium([f"--window-size={size[0]},{size[1]}", f"--screenshot={out}", url])
    return out


def png_colours(path: Path, limit: int = 64) -> set[bytes]:
    """Distinct pixel values of a PNG (8-bit RGB/RGBA, non-interlaced), decoded with
    zlib; stops counting at ``limit``."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width, height, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos : pos + 8])
        chunk = data[pos + 8 : pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype, _c, _f, interlace = struct.unpack(">IIBBBBB", chunk)
            if depth != 8 or interlace or ctype not in (2, 6):
                raise ValueError("unsupported PNG")
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    colours: set[bytes] = set()
    i = 0
    for _y in range(height):
        f = raw[i]
        line = bytearray(raw[i + 1 : i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + ((a + b) >> 1)) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp * 7):
            colours.add(bytes(line[x : x + 3]))
        if len(colours) >= limit:
            break
        prev = line
    return colours


def have_chromium() -> bool:
    return os.path.exists(CHROMIUM)


def expand(el):
    """The elements a page board draws: its own and, through each ``<use>`` of a
    page definition (layers, stacks, score parts), the definition's."""
    ids = {e.get("id"): e for e in el.getroottree().iter() if isinstance(e.tag, str) and e.get("id")}

    def walk(node, seen):
        for e in node.iter():
            if not isinstance(e.tag, str):
                continue
            yield e
            href = (e.get("href") or "")[1:]
            if (
                href
                and href in ids
                and ids[href] is not e
                and href not in seen
                and href != "T"
                and not href.startswith("tt-tablier")
            ):
                yield from walk(ids[href], seen | {href})

    return list(walk(el, frozenset()))
