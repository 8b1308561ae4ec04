"""Every command speaks the user's language (issue 25 §1): with ``--lang fr`` (or
``LANG=fr_FR.UTF-8``) the output of ``check``, ``replay``, ``annotate``, ``stats``, the
``db`` commands and ``standings`` holds no English sentence of the catalogue, and with
``--lang en`` no French one.

The sentences are the catalogue's own: every literal run of three words or more of an
English ``msgstr`` (the text between its ``{fields}``) that no French ``msgstr``
holds, and the other way round.  A sentence a surface writes by hand instead of asking
the catalogue is not caught here; it is caught by the reader of the other language
(the surfaces' own tests), and should move into the catalogue."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from string import Formatter

import pytest
from click.testing import CliRunner, Result

from trictrac.cli.main import cli
from trictrac.notation.reader import iter_records
from trictrac.words import LANGS, words
from trictrac.words.build import load

ROOT = Path(__file__).resolve().parent.parent
FX = ROOT / "fixtures"
FINDINGS = sorted((FX / "findings").glob("*.trn"))
RECORDS = sorted((FX / "records").glob("*.trn"))
BOOKS = sorted((FX / "books").glob("*.trn"))
BROKEN = sorted((FX / "broken").glob("*.trn"))
READABLE_BROKEN = [p for p in BROKEN if p.name in ("broken_latin1.trn", "broken_order.trn", "broken_tokens.trn")]
#: the surfaces run again under LANG alone (every one with TRICTRAC_SLOW=1)
BY_LOCALE = {
    "check",
    "replay",
    "db import",
    "db show",
    "db stats",
    "standings",
    "usage: no such option",
    "db import failures",
}
CLEAN_ENV = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}
#: Click's English that a French surface must not show (its msgids, bound by ``cli.main``)
CLICK_ENGLISH = ("Usage:", "Try '", "Error:", "Missing argument", "No such", "Invalid value", "unreadable-file")


def _texts(message: object) -> list[str]:
    s = message.string  # type: ignore[attr-defined]
    return [t for t in (s if isinstance(s, (list, tuple)) else [s]) if t]


def _runs(template: str, least: int = 3) -> Iterator[str]:
    """The literal runs of a template of ``least`` words or more, trimmed of punctuation."""
    for literal, _field, _spec, _conv in Formatter().parse(template):
        run = literal.strip(" \t\n:;,.—–-()[]«»“”\"'…?!")
        if len(re.findall(r"[^\W\d_]+", run)) >= least and len(run) >= 5:
            yield run


@cache
def sentences(lang: str, least: int = 3) -> frozenset[str]:
    """The sentences of ``lang``'s catalogue (runs of ``least`` words or more) that the
    other language's never says."""
    other = next(x for x in LANGS if x != lang)
    theirs = " \x00 ".join(t for m in load(other) if m.id for t in _texts(m))
    # the kinds' names a help lists (``stay-after-leave``) are names, not the language's words
    theirs = re.sub(r"\b[a-z0-9]+(?:-[a-z0-9]+){2,}\b", " ", theirs)
    return frozenset(r for m in load(lang) if m.id for t in _texts(m) for r in _runs(t, least) if r not in theirs)


@cache
def _header_values() -> tuple[str, ...]:
    """The fixtures' header values (``Annotator`` notes the books' cases in English): the
    club's data, shown as written, not words of the toolkit."""
    out = {v for p in FINDINGS + RECORDS for pr in iter_records(p, file=str(p)) for v in pr.record.headers.values()}
    return tuple(sorted(out, key=len, reverse=True))


def _foreign(output: str, lang: str) -> list[str]:
    other = next(x for x in LANGS if x != lang)
    for v in _header_values():
        output = output.replace(v, "")
    return sorted(s for s in sentences(other) if s in output)


def _native(output: str, lang: str) -> bool:
    """Some words of ``lang``'s own (a word or more: a table's headings count)."""
    return any(s in output for s in sentences(lang, 1))


def test_the_sentences_are_many_and_each_is_one_language_s() -> None:
    en, fr = sentences("en"), sentences("fr")
    assert len(en) >= 200 and len(fr) >= 200
    assert "plays against the rules" in " ".join(en)
    assert not (en & fr)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("club") / "club.db"
    res = CliRunner().invoke(cli, ["db", "import", str(db), *map(str, FINDINGS + RECORDS)])
    assert res.exit_code == 0, res.output
    return db


def _game_with_findings(db: Path) -> str:
    import json

    res = CliRunner().invoke(cli, ["db", "games", str(db), "--json"])
    return next(g["id"] for g in json.loads(res.output) if g["n_findings"])


def _surfaces(db: Path, tmp: Path) -> list[tuple[str, list[str], tuple[int, ...]]]:
    """(name, arguments, the exit codes it may end with) of every surface, without --lang."""
    gid = _game_with_findings(db)
    d = str(db)
    every = tmp / "findings.trn"  # every finding fixture in one file, for annotate
    every.write_text("\n".join(p.read_text("utf-8") for p in FINDINGS), encoding="utf-8")
    fresh = tmp / "fresh.db"
    # an import's failures (a file missing, one without a game) and look-alike names
    (tmp / "empty.trn").write_text("{nothing but a comment}\n", encoding="utf-8")
    look = tmp / "look.trn"
    look.write_text(
        FINDINGS[0].read_text("utf-8").replace('[A "', '[A "Dup\u043ent').replace('[B "', '[B "Dupont'), "utf-8"
    )
    return [
        ("check", ["check", *map(str, FINDINGS + BROKEN), str(tmp / "no-such.trn")], (2,)),
        ("replay", ["replay", str(FX / "records" / "a_ecrire_two_marques.trn")], (0,)),
        ("annotate", ["annotate", str(every), "-o", "-"], (0,)),
        ("stats", ["stats", *map(str, RECORDS + BOOKS)], (0,)),
        ("db import", ["db", "import", str(fresh), *map(str, FINDINGS[:12] + READABLE_BROKEN + [look])], (0, 1)),
        ("db import failures", ["db", "import", str(fresh), str(tmp / "no-such.trn"), str(tmp / "empty.trn")], (2,)),
        ("db search", ["db", "search", d, "ecole"], (0,)),
        ("db ecoles", ["db", "ecoles", d], (0,)),
        ("db ecoles --found-by-verifier", ["db", "ecoles", d, "--found-by-verifier"], (0,)),
        ("db players", ["db", "players", d], (0,)),
        ("db players --player", ["db", "players", d, "--player", "A"], (0,)),
        ("db games", ["db", "games", d], (0,)),
        ("db stats", ["db", "stats", d, "--no-corpus"], (0,)),  # the corpus part is `stats`'s
        ("db show", ["db", "show", d, gid], (0,)),
        ("standings", ["standings", d], (0,)),
        # the club's refusals, and Click's own usage errors (its msgids are in the catalogue)
        ("db show unknown", ["db", "show", d, "zzzz"], (2,)),
        ("db players unknown", ["db", "players", d, "--player", "Nobody"], (2,)),
        ("db games not a database", ["db", "games", str(FINDINGS[0])], (2,)),
        ("db games missing", ["db", "games", str(tmp / "no-such.db")], (2,)),
        ("standings bad season", ["standings", d, "--season", "2024x"], (2,)),
        ("usage: no such command", ["chek"], (2,)),
        ("usage: no such option", ["check", "--nope"], (2,)),
        ("usage: missing argument", ["db", "import"], (2,)),
        ("usage: bad profile", ["check", "--profile", "xx", str(FINDINGS[0])], (2,)),
    ]


@pytest.mark.parametrize("how", ["--lang", "LANG"])
@pytest.mark.parametrize("lang", LANGS)
def test_every_command_speaks_one_language(club: Path, tmp_path: Path, lang: str, how: str) -> None:
    """No sentence of the other language's catalogue in any surface's output (stdout and
    stderr), and some of its own in each."""
    env = dict(CLEAN_ENV)
    extra: list[str] = []
    if how == "--lang":
        extra = ["--lang", lang]
    else:
        env["LANG"] = {"fr": "fr_FR.UTF-8", "en": "en_GB.UTF-8"}[lang]
    bad: dict[str, list[str]] = {}
    for name, args, codes in _surfaces(club, tmp_path):
        if how == "LANG" and name not in BY_LOCALE and not os.environ.get("TRICTRAC_SLOW"):
            continue  # the locale is read by one option for every command: a few suffice by default
        res: Result = CliRunner().invoke(cli, [*args, *extra], env=env)
        assert res.exit_code in codes, (name, res.output)
        out = res.output + (res.stderr if res.stderr_bytes is not None else "")
        if name == "db show":  # the game's text as stored ends it: the club's data, its comments as written
            out = out.split("\n\n[", 1)[0]
        if lang == "fr":  # Click's words too short for the catalogue's sentences
            foreign = _foreign(out, lang) + [w for w in CLICK_ENGLISH if w in out]
        else:
            foreign = _foreign(out, lang)
        if foreign or not _native(out, lang):
            bad[name] = foreign or ["(nothing of its own language)"]
    assert bad == {}


def test_every_diagnostic_code_of_the_fixtures_has_its_words() -> None:
    """Each code the reader gives on the fixtures (broken, hostile, fuzz seeds…), and each
    its source names in its tables, has ``diag.<code>`` in both languages: a French
    surface never falls back on the reader's English sentence."""
    codes: set[str] = set()
    for path in sorted(FX.rglob("*.trn")):
        for pr in iter_records(path, file=str(path)):
            codes |= {d.code for d in pr.diagnostics}
    src = "".join(p.read_text("utf-8") for p in (ROOT / "notation").glob("*.py"))
    codes |= set(re.findall(r'"\w+": \("([a-z]+(?:-[a-z]+)+)", "[^"]* [^"]*"\)', src))  # the reader's tables
    codes |= set(re.findall(r'msg, code = "[^"]*", "([a-z]+(?:-[a-z]+)+)"', src))
    codes |= set(re.findall(r'self\.err\(\s*"([a-z]+(?:-[a-z]+)+)"', src))  # the position reader
    assert {"move-outside-coup", "unknown-token", "position-lone-coin"} <= codes
    for lang in LANGS:
        assert sorted(c for c in codes if not words(lang).has(f"diag.{c}")) == [], lang


def test_more_findings_than_a_game_lists_are_counted_in_the_language() -> None:
    from trictrac.replay.verifier.verify import GameReport

    rep = GameReport([], None, [], [], "lelasseux-1852", 0, more_findings={"illegal-move": 3, "out-of-turn": 1})
    fr, en = rep.more_lines("fr"), rep.more_lines("en")
    assert fr[0].startswith("… 3 constats de plus") and "1 constat de plus" in fr[1]
    assert en[0].startswith("… 3 more findings") and "1 more finding of kind" in en[1]


def test_the_rows_speak_the_import_s_language_and_search_finds_both(tmp_path: Path) -> None:
    """``findings.message`` and ``import_failures.message`` are stored in the import's
    language (``--lang``; French when the locale names none, as the pages); the full-text
    index finds a finding by its kind's words in either language all the same."""
    import sqlite3

    counts = {}
    for lang in LANGS:
        db = tmp_path / f"{lang}.db"
        args = ["db", "import", str(db), *map(str, FINDINGS), str(tmp_path / "no-such.trn"), "--lang", lang]
        assert CliRunner().invoke(cli, args, env=CLEAN_ENV).exit_code == 2
        conn = sqlite3.connect(db)
        said = "\n".join(
            m
            for (m,) in conn.execute(
                "SELECT message FROM findings UNION ALL SELECT message FROM import_failures "
                "UNION ALL SELECT j.value FROM games, json_each(games.notes) j"
            )
        )
        conn.close()
        assert _foreign(said, lang) == [] and _native(said, lang), lang
        counts[lang] = {
            q: len(json.loads(CliRunner().invoke(cli, ["db", "search", str(db), q, "--json"]).output))
            for q in ("ecole", "école", "ecole par trop", "over-marked")
        }
        assert counts[lang]["ecole"] > 0 and counts[lang]["ecole par trop"] > 0
    assert counts["fr"] == counts["en"]
    # no --lang and a locale that names no language: French, the club's pages' language
    db = tmp_path / "default.db"
    assert CliRunner().invoke(cli, ["db", "import", str(db), str(FINDINGS[0])], env=CLEAN_ENV).exit_code == 0
    conn = sqlite3.connect(db)
    said = "\n".join(m for (m,) in conn.execute("SELECT message FROM findings"))
    assert said and _foreign(said, "fr") == []


@pytest.mark.parametrize("how", ["--lang", "LANG"])
def test_click_s_own_words_follow_the_language_and_leave_no_state_behind(how: str) -> None:
    """Click's usage errors in French (its msgids in the catalogue, bound while a command
    runs); after the command, gettext's domain and ``LANGUAGE`` are as they were."""
    import gettext

    env = dict(CLEAN_ENV)
    args = ["check", "--nope"]
    if how == "--lang":
        args += ["--lang", "fr"]
    else:
        env["LANG"] = "fr_FR.UTF-8"
    before = gettext.textdomain(), os.environ.get("LANGUAGE")
    res = CliRunner().invoke(cli, args, env=env)
    assert res.exit_code == 2
    assert "Usage : cli check" in res.output and "Erreur : Option inconnue : '--nope'." in res.output
    assert "Pour l'aide : « cli check --help »." in res.output
    assert (gettext.textdomain(), os.environ.get("LANGUAGE")) == before
    res = CliRunner().invoke(cli, ["chek", "--lang", "fr"], env=CLEAN_ENV)
    assert "Commande inconnue : 'chek'. Vouliez-vous dire 'check' ?" in res.output
    res = CliRunner().invoke(cli, ["check", "--nope"], env=CLEAN_ENV)  # no language named: Click's English
    assert "Error: No such option '--nope'." in res.output and "Try 'cli check --help' for help." in res.output


def _command_paths() -> list[list[str]]:
    """Every command of the tree, as the words that name it (``[]`` the root)."""
    from trictrac.cli.helptext import help_texts

    return sorted({tuple(path.split()[1:]) for path, _msgid in help_texts(cli)})  # type: ignore[misc]


_CITATION = re.compile(r"(\d+ \()?Lelasseux-Lafosse 1852, art\. [\d, -]+\)?")


def test_every_help_text_is_in_both_catalogues() -> None:
    """Each help text of the command tree (docstrings cut in paragraphs, options'
    help, epilogs: what :class:`trictrac.cli.helptext.Command` looks up) has its French,
    and its English is itself: the coverage test of the help."""
    from trictrac.cli.helptext import Command, help_texts

    texts = list(help_texts(cli))
    assert len(texts) >= 150 and len({p for p, _ in texts}) >= 25
    fr, en = words("fr"), words("en")
    assert sorted({f"{p}: {m!r}" for p, m in texts if not fr.has(m)}) == []
    assert sorted({f"{p}: {m!r}" for p, m in texts if en.get(m, "") != m}) == []
    # a citation of a treatise reads the same in both languages
    untranslated = {f"{p}: {m!r}" for p, m in texts if fr(m) == m and len(m.split()) > 2 and not _CITATION.fullmatch(m)}
    assert sorted(untranslated) == []
    # every command shows its help through the class that says it in the language
    groups = [cli]
    while groups:
        group = groups.pop()
        for sub in group.commands.values():  # type: ignore[attr-defined]
            assert isinstance(sub, Command), sub.name
            if hasattr(sub, "commands"):
                groups.append(sub)


@pytest.mark.parametrize("lang", LANGS)
def test_every_command_s_help_speaks_one_language(lang: str) -> None:
    """``--help`` of every command under a French locale holds no English sentence of the
    catalogue (the help texts' English is in it), under an English one no French; Click's
    headings follow, and the help is its own language's."""
    env = dict(CLEAN_ENV, LANG={"fr": "fr_FR.UTF-8", "en": "en_GB.UTF-8"}[lang])
    other = next(x for x in LANGS if x != lang)
    theirs = {" ".join(s.split()) for s in sentences(other)}
    bad: dict[str, list[str]] = {}
    paths = _command_paths()
    assert len(paths) >= 25
    for path in paths:
        res = CliRunner().invoke(cli, [*path, "--help"], env=env)
        assert res.exit_code == 0, (path, res.output)
        flat = " ".join(res.output.split())
        foreign = sorted(s for s in theirs if s in flat)
        if lang == "fr":
            foreign += [w for w in CLICK_ENGLISH if w in res.output]
        if foreign or not _native(res.output, lang):
            bad[" ".join(path) or "trictrac"] = foreign or ["(nothing of its own language)"]
    assert bad == {}
    fr = CliRunner().invoke(cli, ["db", "import", "--help"], env=dict(CLEAN_ENV, LANG="fr_FR.UTF-8")).output
    assert "Importer des fichiers de parties (.trn) dans BASE" in fr and "Exemples :" in fr
    assert "trictrac db import club.db archive/*.trn --profile rigueur --json" in fr  # the commands as written
    top = CliRunner().invoke(cli, ["--help"], env=dict(CLEAN_ENV, LANG="fr_FR.UTF-8")).output
    assert "Vérifier les parties écrites selon les règles" in top  # the short help of `check`
    assert "\nOptions :\n" in top and "\nCommandes :\n" in top  # the headings in French typography
    en = CliRunner().invoke(cli, ["--help"], env=dict(CLEAN_ENV, LANG="en_GB.UTF-8")).output
    assert "\nOptions:\n" in en and "\nCommands:\n" in en


def test_the_help_follows_lang_too() -> None:
    res = CliRunner().invoke(cli, ["check", "--help", "--lang", "fr"], env=dict(CLEAN_ENV, LANG="en_GB.UTF-8"))
    assert "Vérifier les parties écrites" in res.output and "Verify recorded" not in res.output
    res = CliRunner().invoke(cli, ["check", "--help", "--lang", "en"], env=dict(CLEAN_ENV, LANG="fr_FR.UTF-8"))
    assert "Verify recorded games" in res.output and "Vérifier" not in res.output


def _calls(src: str, name: str) -> list[str]:
    """The argument text of every ``raise name(...)`` of ``src``."""
    out = []
    for m in re.finditer(rf"raise {name}\(", src):
        depth, i = 1, m.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(src[i], 0)
            i += 1
        out.append(src[m.end() : i - 1])
    return out


def test_every_refusal_of_the_file_reader_and_writer_has_its_words() -> None:
    """Each ``OutputError`` and ``InputError`` that ``notation/textio.py`` raises names its
    catalogue code, and the code has words in both languages; the system's reasons are
    said by their errno (« écriture impossible : permission refusée »)."""
    import errno

    from trictrac.notation.textio import InputError, OutputError

    src = (ROOT / "notation" / "textio.py").read_text("utf-8")
    assert _calls(src, "OutputError") == [] and _calls(src, "InputError") == []  # each made by .of(code)
    outputs = re.findall(r"raise OutputError\.of\(([^\n]*)", src)
    found = [re.search(r'^[^,]+,\s*"([a-z-]+)"', c) for c in outputs]
    codes = {"cannot-write"} | {m.group(1) if m else "" for m in found}
    assert "" not in codes and len(codes) >= 6, codes
    inputs = re.findall(r"raise InputError\.of\(([^\n]*)", src)
    assert all(re.search(r'^\s*(?:"[a-z-]+"|why\[1\])', c) for c in inputs), inputs
    in_codes = {m for c in inputs for m in re.findall(r'^\s*"([a-z-]+)"', c)}
    in_codes |= set(re.findall(r'return (?:\(\s*)?f?"[^"]*",\s*"([a-z-]+)"', src))  # the text's refusals
    assert {"missing", "directory", "cannot-read", "empty", "controls", "not-text"} <= in_codes
    for lang in LANGS:
        W = words(lang)
        assert sorted(c for c in codes if not W.has(f"cli.output.{c}")) == [], lang
        assert sorted(c for c in in_codes if not W.has(f"dbcli.input.{c}")) == [], lang
    e = OutputError.cannot_write("site/x.html", PermissionError(errno.EACCES, "Permission denied"))
    assert str(e) == e.say("en") == "site/x.html: cannot write: Permission denied"
    assert e.say("fr") == "site/x.html : écriture impossible : permission refusée"
    from trictrac.notation.textio import OSReason

    e = InputError.of("cannot-read", "x.trn", reason=OSReason("Is a directory", errno.EISDIR))
    assert str(e) == "x.trn: cannot read: Is a directory" and e.code == "cannot-read" and e.name == "x.trn"
    assert e.say("fr") == "x.trn : illisible : c'est un dossier" and e.why("en") == "cannot read: Is a directory"
    odd = OutputError.cannot_write("x", OSError(errno.EXFULL, "Exchange full"))  # no words for it: the system's
    assert odd.say("fr") == "x : écriture impossible : Exchange full"


@pytest.mark.parametrize("lang", LANGS)
def test_the_writing_commands_refusals_speak_one_language(tmp_path: Path, lang: str) -> None:
    """board, annotate, fmt, selfplay, publish, record and bench refuse in the user's language
    (the locale: most of them have no ``--lang``): a bad position, an output that cannot
    be written, a missing input, options that do not go together."""
    env = dict(CLEAN_ENV, LANG={"fr": "fr_FR.UTF-8", "en": "en_GB.UTF-8"}[lang])
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    nowhere = tmp_path / "afile" / "sub"  # under a file: ENOTDIR
    game = str(FINDINGS[0])
    few = tmp_path / "few.txt"
    few.write_text("Dupont\nMartin\n", encoding="utf-8")
    bad = tmp_path / "bad.trn"
    bad.write_text('[A "x"]\n1. A 6-5 zz\n', encoding="utf-8")
    cases = {
        "board bad position": ["board", "A{1:15} Bx", "-o", "-"],
        "board cannot write": ["board", "A{1:15} B{1:15}", "-o", str(nowhere / "x.svg")],
        "annotate cannot write": ["annotate", game, "-o", str(nowhere / "x.trn")],
        "fmt missing, directory, bad token": ["fmt", str(tmp_path / "none.trn"), str(tmp_path), str(bad)],
        "selfplay marques": ["selfplay", "-n", "1", "--kind", "a-tourner", "--marques", "4"],
        "selfplay few players": ["selfplay", "-n", "1", "--players", str(few)],
        "selfplay missing players": ["selfplay", "-n", "1", "--players", str(tmp_path / "none.txt")],
        "selfplay inject": ["selfplay", "-n", "1", "--inject", "1"],
        "selfplay kinds": ["selfplay", "-n", "1", "--inject", "1", "--kinds", "zz", "-o", str(tmp_path / "o.trn")],
        "selfplay cannot write": ["selfplay", "-n", "1", "-o", str(nowhere / "o.trn")],
        "publish nothing": ["publish", "-o", str(tmp_path / "site")],
        "publish selection": ["publish", game, "--season", "2024", "-o", str(tmp_path / "site")],
        "publish cannot write": ["publish", game, "-o", str(nowhere / "site")],
        "record exists": ["record", game],
        "record file or resume": ["record", str(tmp_path / "new.trn"), "--resume", game],
        "bench unknown step": ["bench", "--only", "check,zz"],
        "bench sizes": ["bench", "--memory-sizes", "5,x"],
        "bench missing": ["bench", str(tmp_path / "none.trn")],
    }
    bad_out: dict[str, list[str]] = {}
    for name, args in cases.items():
        res = CliRunner().invoke(cli, args, env=env)
        assert res.exit_code == 2, (name, res.output)
        out = res.output
        foreign = _foreign(out, lang) + ([w for w in CLICK_ENGLISH if w in out] if lang == "fr" else [])
        if foreign or not _native(out, lang):
            bad_out[name] = foreign or ["(nothing of its own language)"]
    assert bad_out == {}
    if lang == "fr":
        res = CliRunner().invoke(cli, cases["board cannot write"], env=env)
        assert "écriture impossible : un élément du chemin n'est pas un dossier" in res.output
        res = CliRunner().invoke(cli, cases["fmt missing, directory, bad token"], env=env)
        assert "none.trn : erreur : illisible : fichier introuvable" in res.output
        assert "erreur: unknown-token: ni coup" in res.output and "3 fichiers (2 illisibles)" in res.output
