"""The verifier's findings in the page's language: French in the game's own words.

The verifier writes each :class:`~trictrac.replay.findings.Finding` with an English
``message`` and ``consequence``.  A French page says the same thing again from the
finding's structured fields only: ``kind`` (one template table per kind of
:data:`~trictrac.replay.findings.FINDING_KINDS`), ``detail`` (a variant of the
kind: the sub-reason of an illegal play, a remedy refused, how a leave was lost),
``who``, ``entitled``, ``marked``, ``alternatives``, ``releve`` and ``marque``.
Nothing is parsed out of the English text and no rule is judged here: a French
sentence says what the verifier found and what RULES.md (and the treatises it
cites) gives at the table.  An English page keeps the verifier's own text.

A template is a ``str.format`` string; its fields are those of :func:`_fields`.  A
kind's templates are looked up by ``detail``, then by ``"zero"`` (a claim or mark
entitled to nothing), then ``None`` (the kind's default); when a field the
template needs is unknown (``None``), the kind's ``""`` template, which names no
number, is used instead.  The caller escapes the result.
"""

from __future__ import annotations

from string import Formatter
from typing import Any

from ..replay.moves import VIOLATIONS
from .i18n import Labels, labels

#: a template, or templates tried in turn (the first whose fields are all known)
Template = str | tuple[str, ...]

__all__ = [
    "KIND_NAMES_FR",
    "MESSAGES_FR",
    "CONSEQUENCES_FR",
    "WHY_FR",
    "finding_kind_name",
    "finding_message",
    "finding_consequence",
    "finding_rule",
    "seat_names",
    "templates_of",
]

#: kind -> its name at the table.
KIND_NAMES_FR: dict[str, str] = {
    "ecole-par-moins": "école par moins",
    "ecole-par-trop": "école par trop",
    "unclaimed-ecole": "école non relevée",
    "ecole-claimed-wrongly": "fausse école",
    "ecole-partial": "école réclamée en partie",
    "ecole-too-late": "école réclamée trop tard",
    "ecole-impossible": "école impossible",
    "ecole-deux-jetons": "école des deux jetons",
    "ecole-plein-not-made": "plein marqué et non fait",
    "bredouille-lost": "bredouille mal marquée",
    "hole-mismatch": "trous mal marqués",
    "illegal-move": "jeu contre la règle",
    "must-fill": "plein non rempli",
    "must-conserve": "plein non conservé",
    "unplayed-number": "nombre non joué",
    "remedy-not-allowed": "coup rejoué contre la règle",
    "missing-checker": "dame absente",
    "out-of-turn": "dés jetés hors de son tour",
    "leave-without-right": "s'en aller sans droit",
    "stay-after-leave": "tenir après « je m'en vais »",
    "leave-at-sortie": "s'en aller à la sortie sans trou",
    "releve-without-leave": "relevé sans départ",
    "marque-result-mismatch": "marqué mal écrit",
    "play-after-end": "coups après la fin",
    "result-mismatch": "résultat mal écrit",
}

#: detail (a sub-reason: a violation of the movement laws, RULES.md §3, or a remedy
#: refused, §9.5) -> its words, for ``{why}``.
WHY_FR: dict[str, str] = {
    # moves.VIOLATIONS (RULES.md §3)
    "lands-on-opponent": "une dame posée sur une flèche que tient l'adversaire",
    "opponent-coin": "une dame posée dans le coin de l'adversaire",
    "lone-coin": "une dame seule dans son coin, qui se prend et se quitte à deux dames",
    "closed-table": "une dame posée dans une table où l'adversaire peut encore faire son plein",
    "no-repos": "un tout d'une sans repos libre",
    "bear-off-too-early": "une dame levée avant que les quinze soient dans la dernière table",
    "bear-off-not-rearmost": "un nombre excédant lève la dame la plus reculée",
    "sortant-must-bear-off": "le nombre sortant devait lever sa dame",
    "defaillant-rearmost": "le nombre défaillant se joue dans la table",
    "wrong-distance": "les dames ne vont pas où les portent les dés",
    "no-checker": "aucune dame sur la flèche de départ",
    "both-numbers": "les deux nombres pouvaient se jouer",
    "larger-number": "le plus grand nombre pouvait se jouer",
    "must-fill": "il pouvait remplir",
    "must-conserve": "il pouvait conserver",
    "puissance-when-direct": "coin pris par puissance quand il pouvait le prendre directement",
    "puissance-opponent-coin": "coin pris par puissance quand l'adversaire tient le sien",
    "puissance-coin-held": "coin pris par puissance quand il tient déjà le sien",
    # remedies.remedy_problems and the play judge (RULES.md §9.5)
    "coin": "après avoir pris son coin par puissance quand il pouvait le prendre directement, "
    "il ne le prend pas de ce coup",
    "designation": "les dames à rejouer ne sont pas celles que la règle désigne",
    "first-number": "le premier nombre était bien joué et reste ; seule la dame mal posée se reprend",
    "illegal": "le jeu demandé est lui-même contre la règle",
    "no-fault": "le jeu écrit suivait la règle : rien à reprendre (dame touchée, dame jouée)",
    "other-checkers": "seules les dames mal jouées se rejouent",
    "self-correction": "il ne peut plus reprendre son jeu lui-même",
    "touched-checker": "dame touchée, dame jouée",
    "tout-d-une": "ce tout d'une ne peut être demandé",
    "not-executable": "le jeu demandé ne peut se faire",
    "force": "une demande ne fait passer qu'une dame de sa deuxième table dans sa première",
    "right-to-leave": "un trou gagné par son propre coup donne le droit de s'en aller",
}

# The mistake of a wrong mark, whether claimed or not (RULES.md §7.1-7.3).
_WRONG_MARK: dict[str | None, Template] = {
    "par-moins": "{who} ne marque {m_only} quand il lui revient {e} : {under} de moins",
    "par-trop": "{who} marque {m} quand il ne lui revient {e_only} : {over} de trop",
    "credited": "{who} ne marque {m_only} sur les {e} points qu'on lui donne",
    "fait-marquer": "{who} ne marque {m_only} sur les {e} points qu'on lui donne",
    "ne-marque-pas": "{who} dit « je ne marque pas » quand ses {e} points lui font son trou",
    "nmp": "{who} dit « je ne marque pas » quand ses {e} points lui font son trou",
    "induced": "{who} marque {m} pour {e} donnés : le trou qu'un avertissement à tort lui annonçait",
    "after-leave": "{who} marque {m} d'un coup après lequel l'adversaire s'en va",
    "": "{who} ne marque pas ce que le coup lui donne",
}

#: kind -> {detail or variant: French template of the message}.
MESSAGES_FR: dict[str, dict[str | None, Template]] = {
    "ecole-par-moins": {**_WRONG_MARK, None: _WRONG_MARK["par-moins"]},
    "ecole-par-trop": {**_WRONG_MARK, None: _WRONG_MARK["par-trop"]},
    "unclaimed-ecole": {**_WRONG_MARK, None: _WRONG_MARK[""]},
    "ecole-claimed-wrongly": {
        None: "{who} réclame {m} pour une école de {e}",
        "zero": "{who} réclame une école de {m} qui n'a pas été faite",
        "ecole-impossible": "{who} réclame {m} pour une école impossible (coup qui ne pouvait se jouer)",
        "": "{who} réclame une école qui n'a pas été faite",
    },
    "ecole-partial": {
        None: "{who} ne réclame que {m} d'une école de {e}",
        "": "{who} ne réclame qu'une partie de l'école",
    },
    "ecole-too-late": {
        None: "{who} réclame une école de {m} après avoir jeté ses dés",
        "": "{who} réclame une école après avoir jeté ses dés",
    },
    "ecole-impossible": {
        None: "{who} ne marque {m_only} de ses {e} points sur un coup qu'il ne peut jouer",
        "": "{who} ne marque pas tous ses points sur un coup qu'il ne peut jouer",
    },
    "ecole-deux-jetons": {
        None: "l'adversaire met {who} à l'école des deux jetons pour {m}",
        "": "l'adversaire met {who} à l'école des deux jetons",
    },
    "ecole-plein-not-made": {
        None: "{who} marque {m}, dont les points d'un plein, puis joue sans faire ce plein",
        "": "{who} marque les points d'un plein, puis joue sans faire ce plein",
    },
    "bredouille-lost": {
        None: "{who} marque la bredouille sans y avoir droit, ou l'oublie quand elle lui est due",
        "double-hole-marked-simple": "{who} marque simple son trou double",
        "pavillon-not-due": "{who} prend le pavillon, mais ses trous n'ont pas été pris sans interruption",
        "pavillon": "{who} ne prend pas à temps le pavillon que son trou lui donnait",
    },
    "hole-mismatch": {
        None: "{who} avance son fichet de {m_holes} ; ses points lui en donnent {e}",
        "left": "{who} marque {m_holes} et s'en va ; son coup lui en donnait {e}",
        "": "{who} avance son fichet d'un autre nombre de trous que ses points n'en font",
    },
    "illegal-move": {
        None: ("{who} joue contre la règle : {why} (RULES.md {law})", "{who} joue contre la règle : {why}"),
        "did-you-mean": (
            "{who} : le jeu écrit ne peut se faire ; erreur d'écriture, sans doute {alt}",
            "{who} : le jeu écrit ne peut se faire ; erreur d'écriture",
        ),
        "": "{who} joue contre la règle",
    },
    "must-fill": {
        None: "{who} pouvait remplir un plein ({e} points) et a joué autrement",
        "": "{who} pouvait remplir un plein et a joué autrement",
    },
    "must-conserve": {
        None: "{who} pouvait conserver un plein ({e} points) et l'a rompu",
        "": "{who} pouvait conserver un plein et l'a rompu",
    },
    "unplayed-number": {
        None: (
            "{who} laisse un nombre sans le jouer : {why} (RULES.md {law})",
            "{who} laisse un nombre sans le jouer : {why}",
        ),
        "larger-number": "{who} joue le petit nombre quand le grand pouvait se jouer (RULES.md {law})",
        "": "{who} laisse un nombre sans le jouer alors que tout le coup pouvait se jouer",
    },
    "remedy-not-allowed": {
        None: "{who} rejoue ou fait rejouer le coup d'une façon que la règle ne donne pas : {why}",
        "fait-marquer": "{who} oblige l'adversaire à marquer {m} qui ne lui sont pas dus",
        "right-to-leave": "{who} fait tenir l'adversaire et choisit son jeu, mais l'adversaire avait gagné un trou "
        "par son propre coup : il avait le droit de s'en aller",
        "force": "{who} force le jeu d'une dame : {why}",
        "not-executable": "{who} rejoue ou fait rejouer le coup par un jeu qui ne peut se faire",
        "illegal": "{who} fait tenir l'adversaire et lui fait jouer un jeu contre la règle",
        "": "{who} rejoue ou fait rejouer le coup d'une façon que la règle ne donne pas",
    },
    "missing-checker": {
        None: "{who} joue une dame d'une flèche où il n'en a pas : la notation ne peut se suivre",
        "did-you-mean": (
            "{who} joue une dame d'une flèche où il n'en a pas ; erreur d'écriture, sans doute {alt}",
            "{who} joue une dame d'une flèche où il n'en a pas ; erreur d'écriture",
        ),
    },
    "out-of-turn": {
        None: "{who} jette les dés alors que ce n'est pas à lui (alternance ou primauté)",
        "missing-coup": "{who} jette les dés hors de son tour : un coup de l'adversaire semble manquer avant celui-ci",
        "did-you-mean": (
            "le coup est écrit au nom de l'autre joueur ; erreur d'écriture, sans doute {alt_who}",
            "le coup est écrit au nom de l'autre joueur ; erreur d'écriture",
        ),
    },
    "leave-without-right": {
        None: "{who} s'en va sans avoir gagné de trou par son propre coup (gain de {e})",
        "over-marked": "{who} s'en va après avoir marqué {m} pour un gain de {e} : "
        "marquer trop de trous lui ôte le droit de s'en aller",
        "not-roller": "{who} s'en va dans le coup de l'adversaire : seul celui qui a jeté les dés "
        "s'en va, sur un trou de son propre coup",
        "said-reste": "{who} s'en va après avoir dit « je reste » : il doit tenir",
        "touched": "{who} s'en va après avoir joué ses dames : il doit tenir",
        "reste-marked": "{who} s'en va après avoir marqué ses points de reste : il doit tenir",
        "": "{who} s'en va sans avoir gagné de trou par son propre coup",
    },
    "stay-after-leave": {
        None: "{who} dit « je m'en vais », puis joue ses dames",
    },
    "leave-at-sortie": {
        None: "{who} s'en va à la sortie des dames sans achever de trou par ce coup (gain de {e})",
        "": "{who} s'en va à la sortie des dames sans achever de trou par ce coup",
    },
    "releve-without-leave": {
        None: "un nouveau relevé commence après le relevé {releve} alors que personne ne s'en est allé "
        "ni n'a sorti ses dames",
        "": "un relevé commence alors que personne ne s'en est allé ni n'a sorti ses dames",
    },
    "marque-result-mismatch": {
        None: "le résultat écrit du marqué {marque} ne suit pas les trous de la partie",
        "": "le résultat écrit d'un marqué ne suit pas les trous de la partie",
    },
    "play-after-end": {
        None: "le jeu continue après la fin",
        "partie": "le jeu continue après la fin de la partie (douze trous)",
        "marque": "le jeu continue après la fin du marqué (on s'en est allé avec six trous)",
    },
    "result-mismatch": {
        None: "le résultat écrit en tête (Result) ne suit pas les trous ou les marqués de la partie",
    },
}

# An unclaimed wrong mark (RULES.md §7.3): points forgotten are lost; points marked
# too many stay or go back, as the profile says (RULES.md §10 D26).
_UNCLAIMED_MOINS: Template = (
    "l'adversaire ne l'a pas relevée avant de jeter ses dés : les {under} points oubliés sont perdus ; "
    "pas d'école d'école (003 §182 ; 001 r.43)",
    "l'adversaire ne l'a pas relevée avant de jeter ses dés : les points oubliés sont perdus ; "
    "pas d'école d'école (003 §182 ; 001 r.43)",
)
_UNCLAIMED_TROP: Template = (
    "l'adversaire ne l'a pas relevée avant de jeter ses dés : pas d'école d'école ; selon le profil, "
    "les points marqués de trop restent (003 §167 ; 001 r.47) ou sont rendus (001 III sur r.47)"
)

#: kind -> {detail or variant: French template of the consequence}.  Where the
#: English consequence depends on what happened after (claimed or not, the profile),
#: the French one says what the rules give, without the points the claimant took.
CONSEQUENCES_FR: dict[str, dict[str | None, Template]] = {
    "ecole-par-moins": {
        None: "l'adversaire l'a relevée : il marque l'école pour lui (003 §164-167)",
        "fait-marquer": "l'adversaire l'oblige à marquer les {e} points (003 §186)",
    },
    "ecole-par-trop": {
        None: "l'adversaire l'a relevée : il marque l'école pour lui et les points de trop sont effacés (003 §164-167)",
        "induced": "les points de trop sont effacés sans école (003 §187 ; 001 r.56)",
    },
    "unclaimed-ecole": {
        None: "l'adversaire ne l'a pas relevée avant de jeter ses dés : la faute reste ; pas d'école d'école "
        "(003 §167, §182 ; 001 r.43)",
        "par-trop": _UNCLAIMED_TROP,
        "induced": _UNCLAIMED_TROP,
        "par-moins": _UNCLAIMED_MOINS,
        "credited": _UNCLAIMED_MOINS,
        "fait-marquer": _UNCLAIMED_MOINS,
        "ne-marque-pas": _UNCLAIMED_MOINS,
        "nmp": _UNCLAIMED_MOINS,
        "after-leave": "non relevée ; en s'en allant on reprend tous les jetons : ces points ne restent pas "
        "(003 §155, §157)",
    },
    "ecole-claimed-wrongly": {
        None: "une fausse école est elle-même une école, que l'adversaire peut marquer (003 §183 ; 001 r.60)",
    },
    "ecole-partial": {
        None: "une école est entière : l'adversaire peut l'obliger à marquer les {e} points (003 §187 ; 001 r.46)",
        "": "une école est entière : l'adversaire peut l'obliger à la marquer tout entière (003 §187 ; 001 r.46)",
    },
    "ecole-too-late": {
        None: "une école ne se reçoit plus après qu'on a jeté ses dés ; réclamée à tort, elle est "
        "elle-même une école (003 §167, §186 ; 001 r.34)",
    },
    "ecole-impossible": {
        None: "pas d'école : il peut encore marquer les {under} points jusqu'à ce qu'il rejette les dés (001 r.62)",
        "": "pas d'école : il peut encore marquer ses points jusqu'à ce qu'il rejette les dés (001 r.62)",
    },
    "ecole-deux-jetons": {
        None: "école des points abandonnés (001 r.65 ; 000 ~l.758)",
        "zero": "pas d'école sous ce profil : l'adversaire ôte seulement une marque (003 §195 ; 001 III sur r.65)",
    },
    "ecole-plein-not-made": {
        None: "école des points du plein, que l'adversaire peut marquer (003 §192)",
        "double": "école double des points du plein, que l'adversaire peut marquer (001 r.59)",
    },
    "bredouille-lost": {
        None: "la bredouille est remise en règle, sans école (003 §144)",
        "double-hole-marked-simple": "la bredouille est perdue dès qu'il joue ou jette les dés, sans école "
        "(003 §145, §191 ; en bonne compagnie on la rétablit, 001 III sur r.48)",
        "pavillon-not-due": "le pavillon est ôté, sans école (RULES.md §5.4 ; 003 §223)",
        "pavillon": "le pavillon est perdu, sans école (001 r.58)",
    },
    "hole-mismatch": {
        None: "les trous sont remis en règle, sans école (003 §184 ; 001 r.51)",
        "left": "pas d'école : il perd seulement les trous qu'il n'a pas marqués (003 §173, §191)",
    },
    "illegal-move": {
        None: "le jeu reste, à moins que l'adversaire ne l'ait fait rejouer (RULES.md §9.5 ; 003 §211-216)",
        "did-you-mean": (
            "erreur de la notation : la vérification continue avec {alt}, le jeu permis le plus proche de ce "
            "qui est écrit",
            "erreur de la notation : la vérification continue avec le jeu permis le plus proche de ce qui est écrit",
        ),
    },
    "must-fill": {
        None: "école des points du plein, que l'adversaire peut marquer (003 §192)",
    },
    "must-conserve": {
        None: "école des points de la conservation, que l'adversaire peut marquer (003 §192, §196)",
    },
    "unplayed-number": {
        None: "le jeu reste, à moins que l'adversaire ne l'ait fait rejouer (RULES.md §9.5 ; 003 §211-216)",
    },
    "remedy-not-allowed": {
        None: "la partie continue du coup tel que la table l'a rejoué (RULES.md §9.5)",
        "fait-marquer": "la partie continue des marques telles que la table les a faites (RULES.md §7.3)",
        "right-to-leave": "la partie continue telle que la table l'a jouée (RULES.md §6.1 ; 003 §155)",
        "force": "le jeu est jugé tel qu'il est écrit, sans la demande (RULES.md §3.8 P5 ; 003 §213)",
        "not-executable": "le jeu écrit d'abord reste (RULES.md §9.5)",
        "illegal": "la partie continue du jeu tel que la table l'a fait (RULES.md §9.5)",
    },
    "missing-checker": {
        None: "la vérification de cette partie s'arrête ici (RULES.md §9.6)",
        "did-you-mean": (
            "erreur de la notation : la vérification continue avec {alt}, le jeu permis le plus proche "
            "de ce qui est écrit (RULES.md §9.6)",
            "erreur de la notation : la vérification continue avec le jeu permis le plus proche de ce qui "
            "est écrit (RULES.md §9.6)",
        ),
    },
    "out-of-turn": {
        None: "la vérification suit le coup tel qu'il est écrit (RULES.md §9.3, §8.3)",
        "missing-coup": (
            "erreur de la notation : la vérification continue comme si l'adversaire avait joué {alt}, "
            "le jeu après lequel les coups suivants sont permis tels qu'écrits",
            "erreur de la notation : la vérification continue comme si l'adversaire avait joué ce coup manquant",
        ),
        "did-you-mean": (
            "erreur de la notation : le coup est à {alt_who} ; la vérification continue avec lui",
            "erreur de la notation : la vérification continue avec le joueur qui avait le dé",
        ),
    },
    "leave-without-right": {
        None: "école dès qu'il lève une dame ; l'adversaire peut le faire tenir et jouer les dames levées "
        "(003 §170 ; 001 r.25)",
        "over-marked": "l'adversaire peut le faire tenir et marquer l'école du trop (003 §173 ; 001 r.54)",
        "not-roller": "il tient : les points que donne le coup de l'adversaire ne donnent pas le droit de "
        "s'en aller (003 §186, §217)",
        "said-reste": "on lui refuse de s'en aller : il tient et garde ses points de reste (003 §156 ; 001 r.36, r.40)",
        "touched": "on lui refuse de s'en aller : il tient et garde ses points de reste (003 §156 ; 001 r.36, r.40)",
        "reste-marked": "on lui refuse de s'en aller : il tient et garde ses points de reste "
        "(003 §156 ; 001 r.36, r.40)",
    },
    "stay-after-leave": {
        None: "la parole engage : l'adversaire peut l'obliger à s'en aller (003 §156 ; 001 r.36)",
    },
    "leave-at-sortie": {
        None: "école dès qu'il lève une dame ; l'adversaire peut le faire tenir et jouer les dames levées "
        "(003 §163, §170 ; 001 r.25, r.73)",
    },
    "releve-without-leave": {
        None: "les dames devraient être encore en jeu (RULES.md §6.1)",
    },
    "marque-result-mismatch": {
        None: "la feuille de marque doit suivre les trous de la partie (RULES.md §8.2)",
    },
    "play-after-end": {
        None: "les coups joués après la fin ne comptent pas (RULES.md §8.1, §8.2)",
        "partie": "le premier à douze trous gagne ; les coups suivants ne comptent pas (RULES.md §8.1)",
    },
    "result-mismatch": {
        None: "le résultat écrit en tête doit suivre la partie (RULES.md §8.1-8.2)",
    },
}

_FORMATTER = Formatter()


def _holes(n: int | None) -> str | None:
    if n is None:
        return None
    return "aucun trou" if n == 0 else f"{n} trou" + ("s" if n > 1 else "")


def _fields(f: Any, names: dict[str, str] | None) -> dict[str, Any]:
    """The values a template may name, all from the finding's fields."""

    def name(letter: str | None) -> str | None:
        if not letter:
            return None
        return (names or {}).get(letter) or letter

    e, m = getattr(f, "entitled", None), getattr(f, "marked", None)
    alts = tuple(getattr(f, "alternatives", ()) or ())
    detail = getattr(f, "detail", None)
    return {
        "who": name(getattr(f, "who", None)) or "un joueur",
        "e": e,
        "m": m,
        "over": None if e is None or m is None else m - e,
        "under": None if e is None or m is None else e - m,
        "e_only": None if e is None else ("rien" if e == 0 else f"que {e}"),
        "m_only": None if m is None else ("rien" if m == 0 else f"que {m}"),
        "m_holes": _holes(m),
        "why": WHY_FR.get(detail or ""),
        "law": VIOLATIONS.get(detail or ""),
        "alt": alts[0] if alts else None,
        "alt_who": name(alts[0]) if alts else None,
        "releve": getattr(f, "releve", 0) or None,
        "marque": getattr(f, "marque", 0) or None,
    }


def templates_of(entry: Template | None) -> tuple[str, ...]:
    return () if entry is None else (entry,) if isinstance(entry, str) else entry


def _render(table: dict[str | None, Template], f: Any, names: dict[str, str] | None) -> str:
    """The first template of ``table`` for ``f`` whose fields are all known."""
    values = _fields(f, names)
    detail = getattr(f, "detail", None)
    keys: list[str | None] = [detail] if detail is not None and detail in table else []
    if getattr(f, "entitled", None) == 0:
        keys.append("zero")
    keys += [None, ""]
    for key in keys:
        for template in templates_of(table.get(key)):
            needed = [fld for _lit, fld, _spec, _conv in _FORMATTER.parse(template) if fld]
            if all(values.get(fld) is not None for fld in needed):
                return template.format(**values)
    return ""


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def finding_kind_name(f: Any, lang: str | Labels = "fr") -> str:
    """The kind's name in the page's language (English: the stable id itself)."""
    if labels(lang).lang == "en":
        return str(f.kind)
    return KIND_NAMES_FR.get(f.kind, str(f.kind))


def finding_message(f: Any, lang: str | Labels = "fr", names: dict[str, str] | None = None) -> str:
    """What the verifier found, in the page's language; ``names``: letter -> player's name."""
    if labels(lang).lang == "en" or f.kind not in MESSAGES_FR:
        return str(f.message)
    return _sentence(_render(MESSAGES_FR[f.kind], f, names))


def seat_names(record: Any) -> dict[str, str]:
    """Seat letter -> the player's name from the record's tags (the letter itself when
    the tag is missing): the names the findings are said with."""
    return {s: record.headers.get(s, "") or s for s in ("A", "B", "C", "D")}


def finding_rule(f: Any, lang: str | Labels = "fr") -> str:
    """The RULES.md sections the finding's kind cites, in the page's language (the
    illegal play's "§3 (see the sub-reason)" sends to the sub-reason said beside it)."""
    rule = str(getattr(f, "rule", "") or "")
    return rule.replace("(see the sub-reason)", labels(lang)("rule_see_detail"))


def finding_consequence(f: Any, lang: str | Labels = "fr", names: dict[str, str] | None = None) -> str:
    """What follows at the table, in the page's language ("" when the verifier said none)."""
    text = str(getattr(f, "consequence", "") or "")
    if not text or labels(lang).lang == "en" or f.kind not in CONSEQUENCES_FR:
        return text
    return _render(CONSEQUENCES_FR[f.kind], f, names)
