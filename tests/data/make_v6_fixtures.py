"""Write the schema-version-6 club database the migration test to 7 starts from, with the code of
main at 1a9fc4f (schema 6), so that it is a file today's main made, not an imitation:

    .venv/bin/python tests/data/make_v6_fixtures.py tests/data

Every record of ``fixtures/records`` (douze trous, à écrire, à quatre, chouette, compact, …), four
self-played games (one unfinished: its last coups cut), a correction (one history row) and a club's
own indexes (one on ``marks``, the table version 7 rebuilds); VACUUMed and gzipped
(``club_v6.db.gz``); ``tests/test_club_migration_v6.py`` unpacks it.  Not run by the tests (the
code that made it is gone)."""

from __future__ import annotations

import gzip
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tests/: club_helpers

from club_helpers import copy_record, selfplay_records, write_archive  # noqa: E402

from trictrac.club.importer import import_records  # noqa: E402  (main at fbe6afd: schema 5)
from trictrac.club.schema import SCHEMA_VERSION  # noqa: E402
from trictrac.notation.record import Coup, Record  # noqa: E402

FIXTURES = HERE.parent.parent / "fixtures"


def _pack(db: Path, out: Path) -> None:
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute("VACUUM")
    conn.close()
    with open(db, "rb") as src, open(out, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as dst:
        shutil.copyfileobj(src, dst)


def main(out_dir: str) -> None:
    assert SCHEMA_VERSION == "6", SCHEMA_VERSION
    out = Path(out_dir)
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        recs = [copy_record(r, Date="2025.02.03", Round=str(i + 1)) for i, r in enumerate(selfplay_records(4, seed=6))]
        cut = [i for i, e in enumerate(recs[3].elements) if isinstance(e, Coup)][-40]
        recs[3] = Record(headers={**recs[3].headers, "Result": "*"}, elements=list(recs[3].elements[:cut]))
        db = t / "club.db"
        rep = import_records(db, [write_archive(t / "a.trn", recs)])
        assert rep.added == 4, rep
        fixed = copy_record(recs[1], Site="Rouen")
        rep = import_records(db, [write_archive(t / "b.trn", [fixed])])
        assert rep.replaced == 1, rep
        rep = import_records(db, sorted((FIXTURES / "records").glob("*.trn")))
        assert rep.imported >= 10, rep
        conn = sqlite3.connect(db)
        conn.execute("CREATE INDEX club_games_site ON games(site)")
        conn.execute("CREATE INDEX club_marks_token ON marks(token)")  # on the table version 7 rebuilds
        conn.commit()
        conn.close()
        _pack(db, out / "club_v6.db.gz")


if __name__ == "__main__":
    main(sys.argv[1])
