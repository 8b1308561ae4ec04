"""Write the schema-version-4 club databases the migration tests start from, with the code of
main at 42e2fd0 (schema 4), so that they are files today's main made, not imitations:

    cd /work/main && .venv/bin/python /path/to/tests/data/make_v4_fixtures.py /path/to/tests/data

Each database is VACUUMed and gzipped (``club_v4_*.db.gz``); ``club_helpers.v4_file`` unpacks
one into a test's directory.  Not run by the tests (the code that made them is gone)."""

from __future__ import annotations

import gzip
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tests/: club_helpers

from club_helpers import copy_record, selfplay_records, with_table_talk, write_archive  # noqa: E402

from trictrac.club.db import import_records  # noqa: E402  (main at 42e2fd0: schema 4)
from trictrac.club.schema import SCHEMA_VERSION  # noqa: E402

FIXTURES = HERE.parent.parent / "fixtures"


def _pack(db: Path, out: Path) -> None:
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute("VACUUM")
    conn.close()
    with open(db, "rb") as src, open(out, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as dst:
        shutil.copyfileobj(src, dst)


def main(out_dir: str) -> None:
    assert SCHEMA_VERSION == "4", SCHEMA_VERSION
    out = Path(out_dir)
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        # 1. "club": four games (two share date, players and round), an école and a comment, a
        #    correction (one history row), the findings fixtures, a club's own indexes
        recs = [copy_record(r, Date="2025.02.03", Round=str(i + 1)) for i, r in enumerate(selfplay_records(4, seed=5))]
        recs[2] = copy_record(recs[2], Round="3", Event="Championnat")
        recs[3] = copy_record(recs[3], Round="3", Event="Coupe")
        recs[0] = with_table_talk(recs[0], ecoles=[(1, "B", 2, "oubli du petit jan")], comments=[(3, "beau coup")])
        db = t / "club.db"
        rep = import_records(db, [write_archive(t / "a.trn", recs)], verify=False)
        assert rep.added == 4, rep
        fixed = copy_record(selfplay_records(4, seed=5)[1], Date="2025.02.03", Round="2")
        fixed = with_table_talk(fixed, comments=[(0, "vu")])
        rep = import_records(db, [write_archive(t / "b.trn", [fixed])], verify=False)
        assert rep.replaced == 1, rep
        names = (
            "e20-unclaimed-ecole",
            "e28-credited-ecole",
            "e41-fausse-ecole",
            "e44-bredouille-lost",
            "e58-illegal-move",
        )
        rep = import_records(db, [FIXTURES / "findings" / f"{n}.trn" for n in names])
        assert rep.imported == len(names) and not rep.failures, rep
        conn = sqlite3.connect(db)
        conn.execute("CREATE INDEX club_games_site ON games(site)")
        conn.execute("CREATE INDEX club_marks_token ON marks(token)")
        conn.execute("CREATE INDEX club_coups_moves ON coups(moves)")
        conn.commit()
        conn.close()
        _pack(db, out / "club_v4.db.gz")


if __name__ == "__main__":
    main(sys.argv[1])
