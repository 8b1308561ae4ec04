"""``db search``'s table says a hit's kind in the reader's words; its JSON keeps the
kind's value (``club.queries.SEARCH_KINDS``, a public interface, what ``--only`` takes)."""

from __future__ import annotations

import json

from click.testing import CliRunner
from conftest import ROOT

from trictrac.cli.main import cli
from trictrac.club.queries import SEARCH_KINDS
from trictrac.words import words

RECORDS = sorted(str(p) for p in (ROOT / "fixtures" / "records").glob("*.trn"))


def test_search_kinds_said_in_the_table_kept_in_json(tmp_path) -> None:
    db = str(tmp_path / "club.db")
    run = CliRunner().invoke
    assert run(cli, ["db", "import", db, *RECORDS]).exit_code == 0
    hits = json.loads(run(cli, ["db", "search", db, "école", "--json"]).output)
    kinds = {h["kind"] for h in hits}
    assert {"comment", "finding", "ecole"} <= kinds <= set(SEARCH_KINDS)
    for lang in ("fr", "en"):
        W = words(lang)
        lines = run(cli, ["db", "search", db, "école", "--lang", lang]).output.splitlines()[2:]
        shown = [line.split("  ")[0] for line in lines]
        assert shown == [W(f"dbcli.kind.{h['kind']}") for h in hits], (lang, shown)
    assert words("fr")("dbcli.kind.finding") == "constat" and words("en")("dbcli.kind.ecole") == "école"
