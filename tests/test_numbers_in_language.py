"""Numbers as the reader's language writes them: the French decimal comma in every
French line (``stats``, the ``db import`` summary), the point in English (words
``Words.number``)."""

from __future__ import annotations

import re

from click.testing import CliRunner
from conftest import ROOT

from trictrac.cli.main import cli

RECORDS = sorted(str(p) for p in (ROOT / "fixtures" / "records").glob("*.trn"))
DECIMAL_POINT = re.compile(r"\d\.\d")
DECIMAL_COMMA = re.compile(r"\d,\d")


def _run(*args: str) -> str:
    r = CliRunner().invoke(cli, list(args))
    assert r.exit_code in (0, 1), r.output
    return r.output


def test_stats_decimals_in_the_language() -> None:
    fr = _run("stats", "--lang", "fr", *RECORDS)
    en = _run("stats", "--lang", "en", *RECORDS)
    assert DECIMAL_COMMA.search(fr) and not DECIMAL_POINT.search(fr), fr
    assert DECIMAL_POINT.search(en) and not DECIMAL_COMMA.search(en), en
    # the same figures, only the separator differs
    assert re.findall(r"\d+,\d+", fr) == [x.replace(".", ",") for x in re.findall(r"\d+\.\d+", en)]


def test_import_summary_seconds_in_the_language(tmp_path) -> None:
    fr = _run("db", "import", str(tmp_path / "fr.db"), "--lang", "fr", RECORDS[0]).splitlines()[-1]
    en = _run("db", "import", str(tmp_path / "en.db"), "--lang", "en", RECORDS[0]).splitlines()[-1]
    assert re.search(r"\d,\d\d s", fr) and not DECIMAL_POINT.search(fr), fr
    assert re.search(r"\d\.\d\d s", en), en
