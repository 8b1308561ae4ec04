"""One language everywhere (issue: the last words outside the catalogue): with
``trictrac --lang fr`` every command's help, Click's usage errors (their metavars
too: ``FICHIERS...``, ``[OPTIONS]``) and a bad input's one line are French, with
``--lang en`` English, and Click's English is unchanged.

The words looked for are a few of the commonest of the other language, as whole
words; the lines that are commands to type (``trictrac check game.trn``) are shown
as written and skipped, and so are the game terms English keeps in French (the
glossary's *partie*, *à la chouette*…: ``docs/glossary.md``)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from trictrac.cli.helptext import _COMMAND, help_texts, metavars
from trictrac.cli.main import cli
from trictrac.words import LANGS, words

ROOT = Path(__file__).resolve().parent.parent
CLEAN_ENV = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}
#: the other language's commonest words, which a surface in ``lang`` must not show
FOREIGN = {"fr": ("the", "of", "not", "file", "game", "error"), "en": ("le", "la", "des", "fichier")}


@cache
def _glossary_terms() -> tuple[str, ...]:
    text = (ROOT / "docs" / "glossary.md").read_text("utf-8")
    terms = set(re.findall(r"\*([^*\n]+)\*", text))
    terms |= {f"à la {t}" for t in terms}  # the variants' names: "à la chouette"
    return tuple(sorted(terms, key=len, reverse=True))


def foreign_words(output: str, lang: str) -> list[str]:
    """The other language's common words in ``output`` (command lines and, in English,
    the glossary's French game terms left out), with a little context each."""
    lines = [line for line in output.splitlines() if not _COMMAND.match(line)]
    text = "\n".join(lines)
    if lang == "en":
        for term in _glossary_terms():
            text = text.replace(term, " ")
    return [
        m.group(0)
        for w in FOREIGN[lang]
        for m in re.finditer(rf".{{0,25}}(?<![\w'-]){w}(?![\w'-]).{{0,25}}", text, re.IGNORECASE)
    ]


def _paths() -> list[tuple[str, ...]]:
    return sorted({tuple(path.split()[1:]) for path, _ in help_texts(cli)})


def _command(path: tuple[str, ...]) -> click.Command:
    cmd: click.Command = cli
    ctx = click.Context(cli)
    for name in path:
        got = cmd.get_command(ctx, name)  # type: ignore[attr-defined]
        assert got is not None, path
        cmd = got
    return cmd


def test_every_metavar_word_has_its_key() -> None:
    """Each word of a metavar the tree shows (``FILES...``, ``INTEGER RANGE``,
    ``[OPTIONS]``, ``COMMAND [ARGS]...``) is said through ``w6.metavar.<WORD>``, English
    itself, French its own."""
    found = {w for _p, m in metavars(cli) for w in re.findall(r"\b[A-Z][A-Z_]+\b", m)}
    assert {"FILE", "FILES", "OPTIONS", "COMMAND", "ARGS", "DATABASE", "INTEGER", "RANGE", "TEXT"} <= found
    fr, en = words("fr"), words("en")
    assert sorted(w for w in found if not fr.has(f"w6.metavar.{w}")) == []
    assert sorted(w for w in found if en.get(f"w6.metavar.{w}", "") != w) == []
    assert fr("w6.metavar.FILES") == "FICHIERS" and fr("w6.metavar.DATABASE") == "BASE"


@pytest.mark.parametrize("lang", LANGS)
def test_every_help_and_usage_error_speaks_one_language(lang: str) -> None:
    """``trictrac --lang L <command> --help``, an unknown option and missing arguments:
    exit 0, 2 and 2, and none of the other language's common words."""
    bad: dict[str, list[str]] = {}
    paths = _paths()
    assert len(paths) >= 25
    for path in paths:
        cmd = _command(path)
        runs = [(["--help"], 0), (["--nope"], 2)]
        if any(isinstance(p, click.Argument) and p.required for p in cmd.params):
            runs.append(([], 2))
        for extra, code in runs:
            res = CliRunner().invoke(cli, ["--lang", lang, *path, *extra], env=CLEAN_ENV)
            assert res.exit_code == code, (path, extra, res.output)
            found = foreign_words(res.output, lang)
            if found:
                bad[" ".join([*path, *extra])] = found
    assert bad == {}


def _bad_arguments(cmd: click.Command, under_a_file: Path) -> list[str]:
    """Arguments every command refuses at once: each path under a regular file (neither
    read nor written: a server or a recorder never starts), each other value nonsense."""
    out = []
    for p in cmd.params:
        if isinstance(p, click.Argument):
            path = isinstance(p.type, click.Path) or p.name in ("file", "files", "database")
            out.append(str(under_a_file / f"x{len(out)}.trn") if path else "zz")
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_command_s_bad_input_speaks_one_language(lang: str, tmp_path: Path) -> None:
    """Each command given arguments it refuses (a FILE or DATABASE that cannot be, a
    position, a roll, a number that is none): exit 2, one language."""
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    bad: dict[str, list[str]] = {}
    tried = 0
    for path in _paths():
        cmd = _command(path)
        args = _bad_arguments(cmd, tmp_path / "afile")
        if not args:
            continue
        tried += 1
        extra = ["-o", str(tmp_path / "out")] if any("--output" in getattr(o, "opts", ()) for o in cmd.params) else []
        res = CliRunner().invoke(cli, ["--lang", lang, *path, *args, *extra], env=CLEAN_ENV)
        assert res.exit_code == 2, (path, res.output)
        found = foreign_words(res.output, lang)
        if found:
            bad[" ".join(path)] = found
    assert tried >= 20
    assert bad == {}


def test_click_s_words_and_metavars_in_french_english_unchanged() -> None:
    run = CliRunner().invoke
    fr = run(cli, ["--lang", "fr", "db", "import"], env=CLEAN_ENV)
    assert fr.exit_code == 2
    assert "Usage : cli db import [OPTIONS] BASE FICHIERS..." in fr.output
    assert "Erreur : Il manque l'argument 'BASE'." in fr.output
    helped = run(cli, ["--lang", "fr", "check", "--help"], env=CLEAN_ENV).output
    assert "FICHIER « - » lit l'entrée standard" in helped and "--jobs ENTIER BORNÉ" in helped
    assert "Affiche cette aide et quitte." in helped
    en = run(cli, ["--lang", "en", "db", "import"], env=CLEAN_ENV)
    assert en.exit_code == 2
    assert "Usage: cli db import [OPTIONS] DATABASE FILES..." in en.output
    assert "Error: Missing argument 'DATABASE'." in en.output
    helped = run(cli, ["check", "--help"], env=CLEAN_ENV).output  # no language named: Click's English
    assert "Usage: cli check [OPTIONS] FILES..." in helped and "--jobs INTEGER RANGE" in helped
    assert "Show this message and exit." in helped
    top = run(cli, ["--lang", "fr", "--help"], env=CLEAN_ENV).output
    assert "Usage : cli [OPTIONS] COMMANDE [ARGUMENTS]..." in top
    # a number's name and a path's, said in the run's language (Click names them once)
    fr = run(cli, ["--lang", "fr", "score", "marque", "zz", "1"], env=CLEAN_ENV).output
    assert "Valeur refusée pour 'GAGNANT' : 'zz' n'est pas un entier valable." in fr
    en = run(cli, ["--lang", "en", "score", "marque", "zz", "1"], env=CLEAN_ENV).output
    assert "Invalid value for 'WINNER': 'zz' is not a valid integer." in en
    run(cli, ["--lang", "fr", "annotate", "--help"], env=CLEAN_ENV)  # its module made in French
    assert "Usage: cli annotate [OPTIONS] FILE" in run(cli, ["--lang", "en", "annotate", "--help"]).output


def test_the_group_s_lang_reaches_every_command() -> None:
    """``trictrac --lang fr board …`` (board has no ``--lang`` of its own) and a command's
    own ``--lang`` wins over the group's."""
    env = dict(CLEAN_ENV, LANG="en_GB.UTF-8")
    res = CliRunner().invoke(cli, ["--lang", "fr", "board", "zz", "-o", "-"], env=env)
    assert res.exit_code == 2 and "texte illisible dans la position" in res.output
    res = CliRunner().invoke(cli, ["--lang", "fr", "check", "/nonexistent/x.trn", "--lang", "en"], env=env)
    assert res.exit_code == 2 and "cannot read" in res.output and "illisible" not in res.output
    res = CliRunner().invoke(cli, ["--lang", "fr", "check", "/nonexistent/x.trn"], env=env)
    assert res.exit_code == 2 and "illisible : fichier introuvable" in res.output


def test_club_errors_and_import_failures_are_said_errors() -> None:
    """A club's error is a :class:`SaidError` (its key and fields; pickled whole, as a
    worker's error reaches the parent), and an import's failure made of such an error is
    said in the reader's language, its English message (the JSON's) unchanged."""
    import pickle

    from trictrac.club.db import GameNotFound
    from trictrac.club.report import ImportFailure
    from trictrac.words import SaidError

    e = GameNotFound("no_game", game="zz")
    assert isinstance(e, SaidError) and e.key == "club.err.no_game"
    again = pickle.loads(pickle.dumps(e))
    assert type(again) is GameNotFound and again.say("fr") == e.say("fr") != str(e)
    f = ImportFailure.of_error("x.trn", 0, 3, "store-error", e, None)
    assert f.message == f"GameNotFound: {e}" and f.as_dict()["message"] == f.message
    assert f.say("fr") == f"GameNotFound : {e.say('fr')}" and f.say("en") == f.message
    plain = ImportFailure.of_error("x.trn", 0, 3, "store-error", KeyError("k"), None)
    assert plain.message == "KeyError: 'k'" and plain.said is None
    g = ImportFailure.of("x.trn", None, None, "unreadable-file", "no_such_file")
    assert pickle.loads(pickle.dumps(g)) == g and g.say("fr") != g.say("en") == g.message


def test_a_file_that_is_not_a_record_is_said_by_its_kind(tmp_path: Path) -> None:
    """``open_file`` refuses a FIFO with its kind (``cli.notrecord.fifo``), said in the
    language by that kind, never found again by its English text."""
    import errno
    import os

    from trictrac.notation.textio import InputError, NotARecordFile, open_file, open_input, said_os_reason

    fifo = tmp_path / "pipe.trn"
    os.mkfifo(fifo)
    with pytest.raises(NotARecordFile) as got:
        open_file(fifo)
    assert got.value.kind == "fifo" and got.value.strerror == "a named pipe (FIFO), not a record file"
    with pytest.raises(InputError) as refused:
        open_input(str(fifo))
    assert str(refused.value) == f"{fifo}: cannot read: a named pipe (FIFO), not a record file"
    assert refused.value.say("fr") == f"{fifo} : illisible : {words('fr')('cli.notrecord.fifo')}"
    english = "a named pipe (FIFO), not a record file"
    assert said_os_reason(words("fr"), errno.EINVAL, english) == english  # no kind: no words looked up by text
    assert said_os_reason(words("fr"), errno.EINVAL, english, "fifo") == words("fr")("cli.notrecord.fifo")


def test_the_reader_s_the_writer_s_and_the_recorder_s_errors_are_said_errors(tmp_path: Path) -> None:
    """InputError, OutputError and RecordingError carry a key and fields (words.Said):
    pickled whole, their English unchanged, said in the reader's language."""
    import errno
    import pickle

    from trictrac.notation.textio import InputError, OutputError, open_input
    from trictrac.replay.recorder.recording import RecordingError
    from trictrac.words import Said, SaidError

    with pytest.raises(InputError) as got:
        open_input(str(tmp_path / "none.trn"))
    e = got.value
    assert isinstance(e, SaidError) and str(e) == f"{tmp_path / 'none.trn'}: cannot read: no such file"
    assert pickle.loads(pickle.dumps(e)).say("fr") == e.say("fr") != str(e)
    o = OutputError.cannot_write("out.html", OSError(errno.ENOSPC, "No space left on device"))
    assert isinstance(o, Said) and isinstance(o, OSError) and o.errno == errno.ENOSPC and o.filename == "out.html"
    back = pickle.loads(pickle.dumps(o))
    assert type(back) is OutputError and back.errno == errno.ENOSPC and str(back) == str(o)
    assert o.say("fr") == "out.html : écriture impossible : " + words("fr")("cli.oserror.ENOSPC")
    r = RecordingError.said(words("fr"), "rec.err.roll")
    assert (
        isinstance(r, SaidError)
        and str(r) == words("fr")("rec.err.roll")
        and r.say("en") == words("en")("rec.err.roll")
    )
    r2 = pickle.loads(pickle.dumps(r))
    assert str(r2) == str(r) and r2.lang == "fr"


def test_the_club_screen_s_errors_are_said_in_each_viewer_s_language() -> None:
    """The server keeps an evening's errors as data (an import's failure, an error with
    words) and says each in the viewer's language; Python's own errors as they are."""
    from trictrac.club.db import GameNotFound
    from trictrac.club.report import ImportFailure
    from trictrac.serve.words import error_said, said_in

    e = GameNotFound("no_game", game="zz")
    kept = error_said(e, "0123456789abcdef")
    assert said_in(kept, "en") == f"0123456789abcdef: GameNotFound: {e}"
    assert said_in(kept, "fr") == f"0123456789abcdef : GameNotFound : {e.say('fr')}"
    f = ImportFailure.of("x.trn", None, None, "unreadable-file", "no_such_file")
    assert said_in(f, "fr") == f.render("fr") != f.render("en") == said_in(f, "en")
    assert said_in(error_said(KeyError("k")), "fr") == "KeyError: 'k'"


def test_an_illegal_written_play_stops_the_review_in_the_catalogue_s_words() -> None:
    """The review's own refusal of a written play is the flow's key (``w5.flow.illegal``),
    said in each language (it was a sentence passed as a key: no words at all)."""
    from trictrac.analysis.review import analyse_record
    from trictrac.notation.reader import parse_text

    recs, _ = parse_text('[A "x"]\n[B "y"]\n1. A 6-5 1/3 1/6\n')
    result = analyse_record(recs[0])
    assert result["stopped"] == "coup 1: 1/3 1/6 is not a legal play of (6, 5)"
    err = result.stopped_error  # type: ignore[attr-defined]
    assert err.say("fr") == "coup 1 : 1/3 1/6 n'est pas un jeu permis de (6, 5)"


@pytest.mark.parametrize("lang", LANGS)
def test_check_and_annotate_with_analyse_speak_one_language(lang: str, tmp_path: Path) -> None:
    """``check --analyse`` (the review's text) and ``annotate --analyse`` (its comments):
    the command's language, its numbers written as the language writes them."""
    game = str(ROOT / "fixtures" / "records" / "a_ecrire_two_marques.trn")
    res = CliRunner().invoke(cli, ["--lang", lang, "check", "--analyse", game], env=CLEAN_ENV)
    assert res.exit_code in (0, 1), res.output
    review = [line for line in res.output.splitlines() if "%" in line]
    assert review and foreign_words(res.output, lang) == []
    assert (" partie 1 : " if lang == "fr" else " game 1: ") in review[0]
    assert re.search(r"\d,\d %" if lang == "fr" else r"\d\.\d %", review[0]), review[0]
    res = CliRunner().invoke(cli, ["--lang", lang, "annotate", "--analyse", game, "-o", "-"], env=CLEAN_ENV)
    assert res.exit_code == 0, res.output
    notes = re.findall(r"\{(analys(?:e|is) ?:[^}]*)\}", res.output)
    assert notes and all(n.startswith("analyse : " if lang == "fr" else "analysis: ") for n in notes), notes


@pytest.mark.parametrize("lang", LANGS)
def test_selfplay_s_refusals_and_last_line_speak_one_language(lang: str, tmp_path: Path) -> None:
    """The injector's refusal (``InjectError``, a SaidError) and selfplay's last line."""
    out = str(tmp_path / "x.trn")
    res = CliRunner().invoke(
        cli, ["--lang", lang, "selfplay", "-n", "1", "--kind", "chouette", "--inject", "1", "-o", out], env=CLEAN_ENV
    )
    assert res.exit_code == 2 and foreign_words(res.output, lang) == [], res.output
    assert ("pas chouette" if lang == "fr" else "not chouette") in res.output
    res = CliRunner().invoke(cli, ["--lang", lang, "selfplay", "-n", "2", "--inject", "1", "-o", out], env=CLEAN_ENV)
    assert res.exit_code == 0 and foreign_words(res.output, lang) == [], res.output
    assert ("2 parties -> " if lang == "fr" else "2 games -> ") in res.output


@pytest.mark.parametrize("lang", LANGS)
def test_a_players_file_that_is_not_utf8_is_refused_in_the_language(lang: str, tmp_path: Path) -> None:
    players = tmp_path / "players.txt"
    players.write_bytes(b"Dupont\n\xe9t\xe9\n")
    res = CliRunner().invoke(cli, ["--lang", lang, "selfplay", "-n", "1", "--players", str(players)], env=CLEAN_ENV)
    assert res.exit_code == 2 and "codec" not in res.output and foreign_words(res.output, lang) == [], res.output
    assert ("UTF-8 invalide (octet 7)" if lang == "fr" else "invalid UTF-8 (byte 7)") in res.output


def test_no_word_a_user_reads_cites_the_rules_reference() -> None:
    """What users read cites the treatises, never RULES.md (the code's reference)."""
    from trictrac.words.build import load

    for lang in LANGS:
        cited = [m.id for m in load(lang) if m.id and "RULES.md" in " ".join(t for t in _texts(m))]
        assert cited == [], (lang, cited)


def _texts(message: object) -> list[str]:
    s = message.string  # type: ignore[attr-defined]
    return [t for t in (s if isinstance(s, (list, tuple)) else [s]) if t]
