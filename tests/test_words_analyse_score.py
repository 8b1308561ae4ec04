"""``trictrac analyse`` and ``trictrac score`` speak the user's language (``--lang``, else
``LANG``): their text output and every refusal hold no sentence of the other language,
a refusal is one line and exit code 2 keeping its ``file:line:col`` place, and the JSON
(a public interface: keys and values are data) is the same in both languages.

Two detectors: the catalogue's sentences (``test_cli_words._foreign``), and, for words a
surface might write by hand, each language's small words that the other never uses
(``the``, ``with``… / ``le``, ``avec``…), the game's French terms (kept in both
languages) and the data (names, kinds, paths) set aside."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_cli_words import CLEAN_ENV, CLICK_ENGLISH, _foreign, _native

from trictrac.cli.main import cli
from trictrac.words import LANGS

ROOT = Path(__file__).resolve().parent.parent
FX = ROOT / "fixtures"
PARTIES = sorted((FX / "parties").glob("*.txt"))
START = "A{1:13,12:2} B{1:15} turn=A coups=1/1"
JSON_START = '{"mover": {"1": 13, "12": 2}, "other": {"1": 15}, "mover_off": 0, "other_off": 0, "mover_coups": 1, "other_coups": 1}'
#: records whose analysis classes a coup, weighs a decision to leave, or stops
GAMES = [
    FX / "records" / "compact.trn",
    FX / "records" / "douze_trous.trn",
    FX / "books" / "003-156-je-reste-puis-s-en-va.trn",
    FX / "books" / "003-180-trou-pris-par-erreur.trn",
]

#: small English words no French sentence of these commands holds, and French ones no
#: English sentence holds (the game's terms set aside first)
ENGLISH = set(
    "the is are has have with of to and not must give write cannot wins beats pays gets lost line ranked plays "
    "roller opponent holes hole best written loss equity stopped expected unknown nobody accounts winner game "
    "next share ways average reply out checkers whole number needs".split()
)
FRENCH = set(
    "le la les du est une avec sur aux ou gagne bat joueur trous trou ligne perdus comptes mise illisible joué "
    "meilleur perte donnez clé inconnue personne adversaire jeux classés équité arrêtée dames flèche entier "
    "façons moyenne réponse reçoit paie demande".split()
)
#: the French game terms both languages say, and what is data in the output
KEPT = (
    "je ne marque pas",
    "partie en douze trous",
    "queue des jetons",
    "s'en aller",
    "rester",
    "primauté",
    "marqués",
    "marqué",
    "bredouille",
    "pavillon",
    "refait",
    "postillons",
)


#: outputs of numbers and names, with no word of either language to look for
NUMBERS_ONLY = {"score marque", "score partie douze_guiton.txt"}


def _words(text: str) -> set[str]:
    for term in KEPT:
        text = text.replace(term, " ")
    text = re.sub(r"--[a-z-]+", " ", text)  # options (--holes)
    text = re.sub(r"\S*[/\\.]\S*", " ", text)  # paths, files, numbers
    text = re.sub(r"\b[a-z]+(?:-[a-z]+)+\b", " ", text)  # kinds' ids (jan-de-mezeas), options
    text = re.sub(r"'[^'\n]*'|«[^»\n]*»|\"[^\"\n]*\"", " ", text)  # quoted input, as the user wrote it
    return {w.lower() for w in re.findall(r"[^\W\d_]+", text)}


def _bad(out: str, lang: str) -> list[str]:
    """What of the other language ``out`` holds."""
    small = ENGLISH if lang == "fr" else FRENCH
    # names of the file's keys (jetons-per-marque) are data, as the kinds' ids
    foreign = _foreign(re.sub(r"\b[a-z]+(?:-[a-z]+){2,}\b", " ", out), lang) + sorted(_words(out) & small)
    if lang == "fr":
        foreign += [w for w in CLICK_ENGLISH if w in out]
    return foreign


def _env(lang: str, how: str) -> tuple[dict[str, str | None], list[str]]:
    if how == "--lang":
        return dict(CLEAN_ENV), ["--lang", lang]
    return dict(CLEAN_ENV, LANG={"fr": "fr_FR.UTF-8", "en": "en_GB.UTF-8"}[lang]), []


def _texts() -> dict[str, list[str]]:
    """(name: arguments) of the text outputs."""
    out = {
        "analyse": ["analyse", START],
        "analyse --roll": ["analyse", START, "--roll", "6-5"],
        "analyse --no-rank": ["analyse", "A{1:10,7:5} B{1:15} turn=A coups=3/3", "--no-rank"],
        "analyse --position-json": ["analyse", "--position-json", JSON_START, "--roll", "2-1"],
        "score events": ["score", "events", "A+4 B+4 A+16 A+12 A:nmp B+2 A:leave", "--holes", "A=11,B=0"],
        "score events from points": ["score", "events", "A+8", "--points", "A=6,B=2", "--bredouille", "A"],
        "score marque": ["score", "marque", "18", "6", "--bredouille", "grande"],
    }
    for g in GAMES:
        out[f"analyse --game {g.name}"] = ["analyse", "--game", str(g)]
    for p in PARTIES:
        out[f"score partie {p.name}"] = ["score", "partie", str(p)]
    return out


def _partie(tmp: Path, name: str, text: str) -> str:
    p = tmp / f"{name}.txt"
    p.write_text(text, encoding="utf-8")
    return str(p)


def _refusals(tmp: Path) -> dict[str, tuple[list[str], str]]:
    """(name: arguments, the place the refusal must name)."""
    pj = "--position-json"
    empty = tmp / "empty.trn"
    empty.write_text("\n", encoding="utf-8")
    two = "kind: ecrire\nplayers: A B\n"
    partie = {
        "unknown key": ("zz: 1\n", "1"),
        "header after": (two + "A 9-8\nqueue: 3\n", "4"),
        "empty": ("# nothing\n", ""),
        "not whole": ("marques: x\n", ""),
        "negative": (two + "A -1-3\n", ""),
        "unknown player": (two + "Z 9-8\n", "3"),
        "cannot read": (two + "A zz\n", "3"),
        "holes or value": (two + "A pavillon\n", "3"),
        "holes and value": (two + "A 9-8 =4\n", "3"),
        "pavillon needs holes": (two + "A =4 pavillon\n", "3"),
        "refait args": (two + "refait 6 6\n", "3"),
        "refait holes": (two + "refait 2\n", "3"),
        "equal holes": (two + "A 9-9\n", "3"),
        "marqué not over": (two + "A 3-1\n", "3"),
        "unknown kind": ("kind: zz\n", ""),
        "players": ("kind: ecrire\nplayers: A B C\nA 9-8\n", ""),
        "primauté": (two + "primaute: Z\nA 9-8\n", ""),
        "marqués multiple": ("kind: tourner\nplayers: A B C\nmarques: 4\nA 9-8\n", ""),
        "too many results": (two + "marques: 2\nA 9-8\nB 9-8\nA 9-8\n", "6"),
        "tourner needs holes": ("kind: tourner\nplayers: A B C\nmarques: 9\nA =12\n", "4"),
        "not in marqué": ("kind: tourner\nplayers: A B C\nmarques: 9\nA 9-8\nB 9-8\n", "5"),
        "poule line": ("kind: poule\nplayers: A B C\nA B\n", "3"),
        "poule not playing": ("kind: poule\nplayers: A B C\nC\n", "3"),
        "douze holes": ("kind: douze-trous\nA =3\n", "2"),
        "douze not over": ("kind: douze-trous\nA 9-3\n", "2"),
        "douze two": ("kind: douze-trous\nplayers: A B C\nA 12-3\n", ""),
        "multiplier": ("kind: douze-trous\nmultiplier: zz\nA 12-3\n", ""),
        "profile": ("profile: zz\nA 9-8\n", ""),
    }
    out: dict[str, tuple[list[str], str]] = {
        "analyse bad JSON": (["analyse", pj, '{"mover": 3'], f"{pj}:1:12"),
        "analyse JSON not an object": (["analyse", pj, "[1]"], f"{pj}:1:1"),
        "analyse JSON unknown key": (["analyse", pj, '{"zz": 1}'], f"{pj}:1:2"),
        "analyse JSON side": (["analyse", pj, '{"mover": 3}'], f"{pj}:1:2"),
        "analyse JSON point": (["analyse", pj, '{"mover": {"30": 15}}'], f"{pj}:1:2"),
        "analyse JSON count": (["analyse", pj, '{"mover": {"1": -1}}'], f"{pj}:1:2"),
        "analyse JSON whole": (["analyse", pj, JSON_START.replace('"mover_off": 0', '"mover_off": -1')], f"{pj}:1:"),
        "analyse JSON 15": (["analyse", pj, '{"mover": {"1": 14}, "other": {"1": 15}}'], f"{pj}:1:2"),
        "analyse JSON lone coin": (["analyse", pj, '{"mover": {"1": 14, "12": 1}, "other": {"1": 15}}'], f"{pj}:1:2"),
        "analyse JSON opponent's coin": (
            ["analyse", pj, '{"mover": {"1": 14, "13": 1}, "other": {"1": 15}}'],
            f"{pj}:1:2",
        ),
        "analyse JSON both": (
            ["analyse", pj, '{"mover": {"1": 14, "10": 1}, "other": {"1": 14, "15": 1}}'],
            f"{pj}:1:",
        ),
        "analyse position": (["analyse", "A{1:15} Bx"], "position:1:9"),
        "analyse neither": (["analyse"], ""),
        "analyse both": (["analyse", START, pj, JSON_START], ""),
        "analyse game and position": (["analyse", "--game", str(GAMES[0]), START], ""),
        "analyse roll": (["analyse", START, "--roll", "7-1"], ""),
        "analyse game missing": (["analyse", "--game", str(tmp / "none.trn")], ""),
        "analyse game empty": (["analyse", "--game", str(empty)], ""),
        "score events unreadable": (["score", "events", "A*4"], ""),
        "score events too big": (["score", "events", "A+9000"], ""),
        "score events odd": (["score", "events", "A+3"], ""),
        "score events holes": (["score", "events", "A+4", "--holes", "A3"], ""),
        "score events too many holes": (["score", "events", "A+4", "--holes", "A=999"], ""),
        "score events points": (["score", "events", "A+4", "--points", "A=12"], ""),
        "score events bredouille": (["score", "events", "A+4", "--bredouille", "zz"], ""),
        "score events bredouille no points": (["score", "events", "A+4", "--bredouille", "A"], ""),
        "score events pavillon": (["score", "events", "A+4", "--pavillon", "A"], ""),
        "score events pavillon none": (["score", "events", "A+4", "--holes", "A=2", "--pavillon", "none"], ""),
        "score marque petite": (["score", "marque", "12", "6", "--bredouille", "petite"], ""),
        "score marque grande": (["score", "marque", "11", "3", "--bredouille", "grande"], ""),
        "score marque not over": (["score", "marque", "5", "2"], ""),
        "score marque equal": (["score", "marque", "9", "9"], ""),
        "score partie missing": (["score", "partie", str(tmp / "none.txt")], ""),
    }
    for name, (text, line) in partie.items():
        path = _partie(tmp, name.replace(" ", "_"), text)
        out[f"score partie {name}"] = (["score", "partie", path], line)
    return out


@pytest.mark.parametrize("how", ["--lang", "LANG"])
@pytest.mark.parametrize("lang", LANGS)
def test_the_text_output_speaks_one_language(lang: str, how: str) -> None:
    env, extra = _env(lang, how)
    bad: dict[str, list[str]] = {}
    for name, args in _texts().items():
        res = CliRunner().invoke(cli, [*args, *extra], env=env)
        assert res.exit_code == 0, (name, res.output)
        foreign = _bad(res.output, lang)
        if foreign or (name not in NUMBERS_ONLY and not _native(res.output, lang)):
            bad[name] = foreign or ["(nothing of its own language)"]
    assert bad == {}


@pytest.mark.parametrize("how", ["--lang", "LANG"])
@pytest.mark.parametrize("lang", LANGS)
def test_every_refusal_is_one_line_of_one_language(tmp_path: Path, lang: str, how: str) -> None:
    env, extra = _env(lang, how)
    bad: dict[str, list[str]] = {}
    for name, (args, place) in _refusals(tmp_path).items():
        res = CliRunner().invoke(cli, [*args, *extra], env=env)
        out = res.output
        assert res.exit_code == 2 and "Traceback" not in out, (name, out)
        assert len(out.strip().splitlines()) == 1, (name, out)
        if place and name.startswith("score partie"):  # the file's line: « ligne 3 : », "line 3: "
            place = {"fr": f"ligne {place} : ", "en": f"line {place}: "}[lang]
        assert place in out, (name, place, out)
        foreign = _bad(out, lang)
        if foreign or not _native(out, lang):
            bad[name] = foreign or ["(nothing of its own language)"]
    assert bad == {}


def test_the_refusals_read_well() -> None:
    """A few refusals as the user reads them, in both languages."""
    env = dict(CLEAN_ENV)

    def said(*args: str) -> str:
        return CliRunner().invoke(cli, list(args), env=env).output.strip()

    pj = ["analyse", "--position-json", '{"mover": {"1": 14}, "other": {"1": 15}}']
    assert said(*pj, "--lang", "fr") == "Erreur : --position-json:1:2 : mover a 14 dames, pas 15"
    assert said(*pj, "--lang", "en") == "Error: --position-json:1:2: mover has 14 checkers, not 15"
    bad_json = ["analyse", "--position-json", '{"mover": 3']
    assert said(*bad_json, "--lang", "fr").endswith(":1:12 : JSON invalide : une virgule est attendue")
    assert said(*bad_json, "--lang", "en").endswith(":1:12: bad JSON: Expecting ',' delimiter")
    assert (
        said("score", "events", "A+3", "--lang", "fr")
        == "Erreur : les points sont toujours pairs (Lelasseux-Lafosse 1852, art. 140), pas 3"
    )
    assert (
        said("score", "events", "A+3", "--lang", "en")
        == "Error: points are always even (Lelasseux-Lafosse 1852, art. 140), not 3"
    )


def test_the_text_output_reads_well() -> None:
    env = dict(CLEAN_ENV)
    events = ["score", "events", "A+4 B+4 A+16 A+12", "--holes", "A=11,B=0"]
    fr = CliRunner().invoke(cli, [*events, "--lang", "fr"], env=env).output
    assert "A : 8 points en bredouille, 14 trous avec le pavillon" in fr and "B : 0 point, 0 trou" in fr
    assert "A gagne la partie en douze trous 14-0, mise ×1 (none)" in fr and "(trou double)" in fr
    en = CliRunner().invoke(cli, [*events, "--lang", "en"], env=env).output
    assert "A: 8 points in bredouille, 14 holes with the pavillon" in en and "B: 0 points, 0 holes" in en
    assert "A wins the partie en douze trous 14-0, stake ×1 (none)" in en and "(double hole)" in en
    # numbers: the French decimal comma, as the published pages write them
    fr = CliRunner().invoke(cli, ["analyse", START, "--roll", "6-5", "--lang", "fr"], env=env).output
    assert re.search(r"1/7 1/6 : \d+,\d %, [+-]\d,\d{3} \(sur le coup \+0, donne 0 ; sa réponse : ", fr), fr
    en = CliRunner().invoke(cli, ["analyse", START, "--roll", "6-5", "--lang", "en"], env=env).output
    assert re.search(r"1/7 1/6: \d+\.\d %, [+-]\d\.\d{3} \(now \+0, gives 0; his reply: ", en), en
    stop = ["analyse", "--game", str(GAMES[3])]
    fr = CliRunner().invoke(cli, [*stop, "--lang", "fr"], env=env).output
    assert "analyse arrêtée : A n'a pas le droit de s'en aller" in fr


def test_the_json_is_the_same_in_both_languages(tmp_path: Path) -> None:
    """The same bytes under --lang fr, --lang en and a French locale; the analysis's
    ``stopped`` keeps the English it always had (data, not words)."""
    cases = [
        ["analyse", START, "--json"],
        ["analyse", "--position-json", JSON_START, "--roll", "6-5", "--json"],
        ["analyse", "--game", str(GAMES[2]), "--json"],
        ["analyse", "--game", str(GAMES[3]), "--json"],
        ["score", "events", "A+4 B+4 A+16 A+12", "--holes", "A=11,B=0", "--json"],
        ["score", "marque", "18", "6", "--bredouille", "grande", "--json"],
        *(["score", "partie", str(p), "--json"] for p in PARTIES),
    ]
    for args in cases:
        outs = {
            CliRunner().invoke(cli, [*args, "--lang", "fr"], env=CLEAN_ENV).output,
            CliRunner().invoke(cli, [*args, "--lang", "en"], env=CLEAN_ENV).output,
            CliRunner().invoke(cli, args, env=dict(CLEAN_ENV, LANG="fr_FR.UTF-8")).output,
        }
        assert len(outs) == 1, args
        json.loads(outs.pop())
    out = CliRunner().invoke(cli, ["analyse", "--game", str(GAMES[3]), "--json", "--lang", "fr"], env=CLEAN_ENV)
    stopped = json.loads(out.output)[0]["stopped"]
    assert stopped == "A has no right to leave: his own gains completed no hole (Lelasseux-Lafosse 1852, art. 155-156)"


def test_an_error_said_by_its_key_pickles_and_says_itself() -> None:
    """``PartieError`` (and the flow's and ledger's errors) carry their catalogue key: a
    worker process's error reaches the parent whole, and says itself in either language."""
    import pickle

    from trictrac.replay.rules.partie import PartieError, settle_text

    with pytest.raises(PartieError) as info:
        settle_text("kind: ecrire\nplayers: A B\nA 9-9\n")
    e = pickle.loads(pickle.dumps(info.value))
    assert type(e) is PartieError and str(e) == str(info.value)
    assert str(e) == "line 3: equal holes (9-9): a refait, the marqué is void (Lelasseux-Lafosse 1852, art. 226)"
    assert (
        e.say("fr")
        == "ligne 3 : trous égaux (9-9) : c'est un refait, le marqué est nul (Lelasseux-Lafosse 1852, art. 226)"
    )
