"""``db import`` per-file report, ``db history``, ``db delete``, ``db ecoles
--found-by-verifier``, ``db search`` over findings and école reasons (cli/db.py)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from club_helpers import copy_record, selfplay_records, with_table_talk, write_archive

from trictrac.cli.main import cli

FIX = Path(__file__).resolve().parent.parent / "fixtures" / "findings"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_import_history_delete(tmp_path: Path) -> None:
    recs = [
        copy_record(r, A="Jean Dupont", B="Marie Martin", Date="2024.06.01", Round=str(i + 1))
        for i, r in enumerate(selfplay_records(2, seed=4))
    ]
    db = str(tmp_path / "c.db")
    first = write_archive(tmp_path / "soiree.trn", recs)
    res = run("db", "import", db, str(first))
    assert res.exit_code == 0 and f"{first}: 2 added, 0 replaced, 0 unchanged, 0 refused" in res.output
    fixed = write_archive(tmp_path / "corrige.trn", [with_table_talk(recs[0], ecoles=[(1, "B", 2, "oubli")]), recs[1]])
    broken = tmp_path / "broken.trn"
    broken.write_text('[Event "x"]\n[A "X"]\n[B "Y"]\n\n1. A 9-9 zz\n', encoding="utf-8")
    res = run("db", "import", db, str(fixed), str(broken), "--json")
    out = json.loads(res.output)
    assert res.exit_code == 1  # a game was refused
    assert out["per_file"][str(fixed)] == {"added": 0, "replaced": 1, "unchanged": 1, "refused": 0}
    assert out["per_file"][str(broken)]["refused"] == 1 and out["failures"][0]["reason"] == "parse-error"
    res = run("db", "history", db, "2024-06-01 Jean Dupont – Marie Martin, r. 1", "--json")
    assert res.exit_code == 0, res.output
    assert [v["action"] for v in json.loads(res.output)] == ["replaced", "current"]
    res = run("db", "delete", db, "2024-06-01 Jean Dupont – Marie Martin, r. 2")
    assert res.exit_code == 0 and "kept in game_history" in res.output
    games = json.loads(run("db", "games", db, "--json").output)
    assert [g["game"] for g in games] == ["2024-06-01 Jean Dupont – Marie Martin, r. 1"]
    res = run("db", "history", db, "2024-06-01 Jean Dupont – Marie Martin, r. 2", "--json")
    assert [v["action"] for v in json.loads(res.output)] == ["deleted"]
    res = run("db", "delete", db, "nothing-like-this")
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_ecoles_found_by_verifier_and_search(tmp_path: Path) -> None:
    db = str(tmp_path / "f.db")
    assert (
        run(
            "db",
            "import",
            db,
            str(FIX / "e20-unclaimed-ecole.trn"),
            str(FIX / "e28-credited-ecole.trn"),
            "--lang",
            "fr",
        ).exit_code
        == 0
    )
    res = run("db", "ecoles", db, "--found-by-verifier", "--json")
    kinds = [r["kind"] for r in json.loads(res.output)]
    assert "unclaimed-ecole" in kinds
    res = run("db", "ecoles", db, "--found-by-verifier")
    assert "unclaimed-ecole" in res.output
    # the messages are stored in the import's language (French) and said again in the
    # command's (English here)
    assert json.loads(run("db", "search", db, "marque", "--only", "player", "--only", "comment", "--json").output) == []
    hits = json.loads(run("db", "search", db, "marque", "--json").output)  # findings are searched by default
    assert hits and all(h["kind"] == "finding" and "marks" in h["text"] for h in hits)
    assert json.loads(run("db", "search", db, "marque", "--everywhere", "--json").output) == hits  # kept
