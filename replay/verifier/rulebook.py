"""The rules reference for players: one rule per anchor, in French and English, each
quoting the treatise (issue 25 item 6).

What users read cites the books, never RULES.md: a finding names its rule
(:func:`rule_for_kind`), the terminal says the citation (« Lelasseux-Lafosse 1852,
art. 164-167 »), a published page links ``regles.html#<anchor>``.  The reference is
data: ``docs/rules-reference.md``, ``docs/reference-des-regles.md`` and the site's
rules page are rendered from :data:`RULES` (:func:`render_markdown`; the pages by
:mod:`trictrac.publish.rules_page`).

Each passage is the treatise's own text (the public-domain transcriptions of
RULES.md §0), cut with « […] » and with the transcription's OCR slips put right
(:data:`OCR_FIXES`, each one checked against the transcription by the tests).

Lepeintre's rules are numbered as in his book: our transcription merged his rules 31
and 32 into one item, so from his rule 33 on its printed number is one less (RULES.md
§0, which cites the printed number; :func:`lepeintre`).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Citation",
    "Passage",
    "Rule",
    "RULES",
    "TREATISES",
    "KIND_RULES",
    "OCR_FIXES",
    "rule",
    "rule_for_kind",
    "rule_for_finding",
    "cite_all",
    "render_markdown",
]

#: citation key (RULES.md §0) -> (how users name the treatise, its full title)
TREATISES: dict[str, tuple[str, str]] = {
    "003": ("Lelasseux-Lafosse 1852", "Lelasseux-Lafosse, Le jeu de trictrac rendu facile, 1852"),
    "001": ("Lepeintre 1818", "Lepeintre (des Roches), Cours complet de trictrac, 1818, « Des règles du jeu »"),
    "002": ("Guiton", "Guiton, Traité du trictrac, chapitre VIII"),
    "000": ("Lebrun 1828", "Lebrun, Manuel des jeux, 1828, « Jeu de trictrac »"),
}

_LANGS = ("fr", "en")


@dataclass(frozen=True, slots=True)
class Citation:
    """A place in a treatise: ``key`` of :data:`TREATISES` and ``where``, an article
    (« 164 », « 164-167 ») of Lelasseux-Lafosse, a rule number of Lepeintre (his own
    numbering), or a section heading of Guiton."""

    key: str
    where: str

    def text(self, lang: str = "fr") -> str:
        """« Lelasseux-Lafosse 1852, art. 164 », "Lepeintre 1818, rule 48"."""
        name = TREATISES[self.key][0]
        if self.key == "003":
            return f"{name}, art. {self.where}"
        if self.key == "001":
            return f"{name}, {'règle' if lang == 'fr' else 'rule'} {self.where}"
        return f"{name}, « {self.where} »" if lang == "fr" else f'{name}, "{self.where}"'


def cite_all(citations: tuple[Citation, ...] | list[Citation], lang: str = "fr") -> str:
    """Citations said together: each treatise once (Lelasseux-Lafosse first), its places in order."""
    places: dict[str, list[str]] = {}
    for c in citations:
        places.setdefault(c.key, []).append(c.where)
    parts = []
    for key in sorted(places, key=list(TREATISES).index):  # Lelasseux-Lafosse first, as the profiles
        wheres = sorted(places[key], key=_first_number)
        name = TREATISES[key][0]
        if key == "003":
            parts.append(f"{name}, art. {', '.join(wheres)}")
        elif key == "001":
            word = ("règle" if lang == "fr" else "rule") + ("s" if len(wheres) > 1 else "")
            parts.append(f"{name}, {word} {', '.join(wheres)}")
        else:
            parts.append("; ".join(Citation(key, w).text(lang) for w in wheres))
    return (" ; " if lang == "fr" else "; ").join(parts)


def _first_number(where: str) -> tuple[int, str]:
    head = where.split("-")[0]
    return (int(head), where) if head.isdigit() else (0, where)


def art(where: str) -> Citation:
    """An article of Lelasseux-Lafosse 1852 (003)."""
    return Citation("003", where)


def lepeintre(printed: int) -> Citation:
    """Lepeintre's rule numbered ``printed`` in our transcription, cited by his own
    number (one more from the printed 32 on: RULES.md §0, the numbering trap)."""
    return Citation("001", str(printed + 1 if printed >= 32 else printed))


@dataclass(frozen=True, slots=True)
class Passage:
    """The treatise's words (French, as printed), and where they are."""

    citation: Citation
    text: str


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of the reference: a stable ``anchor`` (never renamed: pages link it),
    its title and statement for players in French and English, the places it cites and
    the passages it quotes."""

    anchor: str
    title_fr: str
    title_en: str
    statement_fr: str
    statement_en: str
    citations: tuple[Citation, ...]
    passages: tuple[Passage, ...]

    def title(self, lang: str = "fr") -> str:
        return self.title_fr if lang == "fr" else self.title_en

    def statement(self, lang: str = "fr") -> str:
        return self.statement_fr if lang == "fr" else self.statement_en

    def cite(self, lang: str = "fr") -> str:
        """The citations, each treatise named once: « Lelasseux-Lafosse 1852, art.
        170, 173 ; Lepeintre 1818, règles 25, 55 »."""
        return cite_all(self.citations, lang)


def _rule(
    anchor: str,
    title: tuple[str, str],
    statement: tuple[str, str],
    citations: tuple[Citation, ...],
    *passages: tuple[Citation, str],
) -> Rule:
    return Rule(
        anchor, title[0], title[1], statement[0], statement[1], citations, tuple(Passage(c, t) for c, t in passages)
    )


#: The transcription's OCR slips in the quoted passages: (as transcribed, as quoted).
OCR_FIXES: tuple[tuple[str, str], ...] = (
    ("’ II n’y en a pas", "Il n’y en a pas"),
    (
        "?cmettre toutes ses dames au talon, et obliger Vadversaire",
        "remettre toutes ses dames au talon, et obliger l’adversaire",
    ),
    ("puis on joue son conp avec ses dames", "puis on joue son coup avec ses dames"),
    (
        "croyant que l’on fait une école,la marque, il est mis à l’écdle",
        "croyant que l’on fait une école, la marque, il est mis à l’école",
    ),
    (
        "l’adversaire marque autant de points qu’on aurak dû en marquer",
        "l’adversaire marque autant de points qu’on aurait dû en marquer",
    ),
    ("les points que l’où gagne", "les points que l’on gagne"),
    ("L’adversaire alors inarque ce que", "L’adversaire alors marque ce que"),
    (
        "On bat toujours à vrai si l’on hat par l’un des deux nombres__",
        "On bat toujours à vrai si l’on bat par l’un des deux nombres",
    ),
    ("_On bat toujours", "On bat toujours"),
    ("la punition de l’école en marquant mal-à- propos", "la punition de l’école en marquant mal-à-propos"),
    ("quoique marqués à tort, et cela parla raison", "quoique marqués à tort, et cela par la raison"),
    ("Si l’adversaire , croyant", "Si l’adversaire, croyant"),
    ("Si après avoir fait une fan sse case", "Si après avoir fait une fausse case"),
    (
        "Lorsque l’un des deux joueurs ne s’aperçoit pas qu’ii a déjà",
        "Lorsque l’un des deux joueurs ne s’aperçoit pas qu’il a déjà",
    ),
    ("Si c’est une école par trop , et qu’on", "Si c’est une école par trop, et qu’on"),
    ("vous ne pouvez non plus. vous y reposer", "vous ne pouvez non plus vous y reposer"),
    ("À votre onzième fléche vous", "À votre onzième flèche vous"),
    ("Il n’y a pas d’école sijfon s’en va.", "Il n’y a pas d’école si l’on s’en va."),
    (
        "Celui-ci , à son tour, démarque vos points , et ajoute à la première école les points marqués parla deuxième",
        "Celui-ci, à son tour, démarque vos points, et ajoute à la première école les points marqués par la deuxième",
    ),
    (
        "Lorsqu’on amène un coup qui donne un trou à l’adversaire , si l’on a intérêt à l’obliger de marquer ce trou , on",
        "Lorsqu’on amène un coup qui donne un trou à l’adversaire, si l’on a intérêt à l’obliger de marquer ce trou, on",
    ),
    ("on ne peut profiler d’une erreur", "on ne peut profiter d’une erreur"),
    ("où était d’a bord le fichet", "où était d’abord le fichet"),
    ("cela se manifest par l’enlèvement", "cela se manifeste par l’enlèvement"),
    ("C’est L’école dite des deux jetons", "C’est l’école dite des deux jetons"),
    (
        "d’avancer deux dames d’autant de fléches qu’il y a d’unités dans chaque nombre, ou une dame d’autant de flèches qu’il y a d unités",
        "d’avancer deux dames d’autant de flèches qu’il y a d’unités dans chaque nombre, ou une dame d’autant de flèches qu’il y a d’unités",
    ),
    ("le trou double le marque simple , il", "le trou double le marque simple, il"),
    ("on n’y est plus reçu , et le premier", "on n’y est plus reçu, et le premier"),
    ("À la onzième flèche de L’adversaire", "À la onzième flèche de l’adversaire"),
    ("sur une flèche ou l’adversaire a une ou plusieurs", "sur une flèche où l’adversaire a une ou plusieurs"),
    ("Dans tous les cas; la rentrée", "Dans tous les cas, la rentrée"),
)

# fmt: off
RULES: tuple[Rule, ...] = (
    # --- scoring -------------------------------------------------------------------
    _rule(
        "points-et-trous",
        ("Points et trous", "Points and holes"),
        ("Ce que l'on gagne se marque en points, toujours en nombre pair. Douze points font un trou. "
         "Qui marque un ou plusieurs trous efface les points de l'adversaire et garde avec un jeton "
         "les points qui passent le trou (les points de reste).",
         "What a throw wins is marked in points, always an even number. Twelve points make a hole. "
         "Whoever marks one or more holes erases the opponent's points and keeps, with one jeton, the "
         "points beyond the hole (the points de reste)."),
        (art("140"), art("148")),
        (art("140"), "Ce que l’on gagne se nomme des points. Leur nombre est toujours pair : 2, 4, 6, 8, 10, 12, 14. "
                     "La réunion de douze points s’appelle un trou ; douze trous font la partie ordinaire."),
        (art("148"), "Lorsque vous marquez un ou plusieurs trous, les points au delà de douze, vingt-quatre, trente-six, "
                     "sont des points de reste ; vous les marquez avec un jeton. Vous effacez les points qu’a "
                     "l’adversaire, en remettant au talon son jeton ou ses deux jetons, et les vôtres s’il ne vous "
                     "reste rien."),
    ),
    _rule(
        "ordre-de-la-marque",
        ("L'ordre de la marque", "The order of marking"),
        ("Qui a jeté les dés marque ce qu'il gagne, puis joue ses dames ; l'adversaire marque ensuite ce "
         "que ce coup lui donne (dames battues à faux, nombres non joués), avant de jeter les dés à son tour. "
         "Les points gagnés se marquent avant les points donnés.",
         "The player who threw marks what he wins, then plays his checkers; the opponent then marks what "
         "that throw gives him (checkers hit à faux, numbers not played) before he throws in turn. Points "
         "won are marked before points given."),
        (art("149"), art("207")),
        (art("149"), "Si c’est vous qui avez jeté les dés, vous marquez ce que vous gagnez, soit pour remplir ou "
                     "conserver, soit pour battre à vrai. Vous jouez ensuite votre coup avec une ou deux dames. "
                     "L’adversaire alors marque ce que vous lui avez donné, soit en le battant à faux, soit pour les "
                     "nombres que vous ne pouvez jouer. Puis il jette les dés à son tour."),
        (art("207"), "Les points gagnés se marquent avant les points donnés."),
    ),
    _rule(
        "valeur-des-coups",
        ("Ce que vaut un coup", "What a throw is worth"),
        ("Le jan de trois coups vaut 4 points. Le jan de deux tables, le jan de mézéas, battre le coin, "
         "remplir ou conserver un plein, et la sortie valent 4 points par coup simple, 6 par doublet ; "
         "remplir de deux ou trois façons vaut deux ou trois fois autant. Une dame battue à vrai vaut 4 "
         "(6 par doublet) dans la première table, 2 (4 par doublet) dans la deuxième, par façon. Les "
         "contre-jans, les dames battues à faux et chaque nombre non joué (2 points) sont pour l'adversaire.",
         "The jan de trois coups is worth 4 points. The jan de deux tables, the jan de mézéas, hitting the "
         "coin, filling or keeping a plein, and the sortie are worth 4 points on a simple throw, 6 on a "
         "doublet; filling two or three ways is worth two or three times as much. A checker hit à vrai is "
         "worth 4 (6 on a doublet) in the first table, 2 (4 on a doublet) in the second, per way. The "
         "contre-jans, checkers hit à faux and each number not played (2 points) go to the opponent."),
        (art("152"), art("153")),
        (art("152"), "Le jan de trois coups vaut quatre points. Le jan des deux coins, le jan de mézéas, battre le "
                     "coin, valent quatre points si le coup est simple, six points si c’est un doublet. Un plein "
                     "quelconque que l’on fait ou refait, ou que l’on conserve, vaut, pour chaque coup, quatre points "
                     "pour un coup simple, six pour un doublet. […] Pour achever de lever le premier au jan de retour, "
                     "on gagne quatre points si le dernier coup est simple, six points quand c’est un doublet."),
        (art("153"), "Le contre-jan des deux coins et celui de mézéas valent quatre points et six par doublet. Chaque "
                     "nombre non joué vaut deux points; le doublet ne change rien. Les dames battues à faux valent "
                     "autant que les dames battues à vrai."),
    ),
    _rule(
        "battre",
        ("Battre à vrai, battre à faux", "Hitting à vrai and à faux"),
        ("Une dame seule de l'adversaire est battue quand un nombre ou la somme des deux nombres y porte "
         "une de vos dames ; la dame qui bat ne bouge pas. On bat toujours à vrai par l'un des deux nombres ; "
         "par la somme, on bat à faux quand les deux repos sont des cases de l'adversaire, et c'est "
         "l'adversaire qui marque ce que vaut le coup.",
         "A lone checker of the opponent is hit when one number, or the sum of both, carries one of your "
         "checkers onto it; the hitting checker does not move. A hit by one number is always à vrai; by the "
         "sum, it is à faux when both resting points are the opponent's cases (two checkers or more), and "
         "then the opponent marks what the hit is worth."),
        (art("129"), art("135-138"), art("153")),
        (art("129"), "Si une dame de l’adversaire est seule sur une flèche à lui ou à vous, et si votre coup porte une "
                     "de vos dames sur cette dame découverte, soit par un des deux nombres, soit par leur somme, on "
                     "dit que vous la battez, et cela vous donne un gain."),
        (art("138"), "On bat toujours à vrai si l’on bat par l’un des deux nombres"),
    ),
    _rule(
        "bredouille",
        ("La bredouille", "The bredouille"),
        ("Douze points pris sans que l'adversaire en marque entre-temps font un trou double ; sinon le trou "
         "est simple. Le second joueur à marquer des points les marque avec deux jetons (il a la bredouille) "
         "et en ôte un dès que l'autre marque de nouveau.",
         "Twelve points taken without the opponent marking any in between make a double hole; otherwise the "
         "hole is simple. The second player to mark points marks them with two jetons (he has the "
         "bredouille) and removes one as soon as the other marks again."),
        (art("143-147"),),
        (art("143"), "Si, par les points que l’on gagne ou que l’on reçoit, on arrive à douze sans être interrompu par "
                     "des points de l’adversaire, on marque comme si ces douze points étaient doublés, on avance le "
                     "fichet de deux trous au lieu d’un. Au contraire, le trou est simple, le fichet n’avance que "
                     "d’un trou, si l’adversaire a interrompu par des points les douze qui le font trou du premier "
                     "joueur."),
        (art("144"), "Celui qui marque des points en premier les marque avec un seul jeton, et il est en bredouille. "
                     "Celui qui en prend le deuxième les marque avec deux jetons, pour faire voir qu’il a la "
                     "bredouille"),
    ),
    _rule(
        "bredouille-perdue",
        ("Bredouille oubliée ou perdue", "A bredouille forgotten or lost"),
        ("Le second jeton oublié se reprend tant qu'on n'a pas joué ses dames (ou jeté les dés, pour des "
         "points reçus) ; ensuite la bredouille est perdue, sans que l'adversaire en profite. Un trou double "
         "marqué simple ne se corrige plus dès qu'on a joué. Des points d'école ne se marquent pas en "
         "bredouille avec ceux du coup suivant.",
         "A forgotten second jeton may be added until the player has played his checkers (or thrown, for "
         "points received); after that the bredouille is lost, without the opponent gaining from it. A double "
         "hole marked simple can no longer be put right once he has played. Points of an école are not "
         "marked in bredouille with those of the next throw."),
        (art("145"), art("200"), lepeintre(48), lepeintre(64)),
        (art("145"), "Lorsque celui qui doit marquer ses points avec deux jetons ne les marque qu’avec un, il peut "
                     "prendre le deuxième jeton, s’il s’en aperçoit, tant qu’il n’a pas joué ses dames, s’il marque "
                     "en premier, ou tant qu’il n’a pas jeté les dés, s’il marque le deuxième. Dans le cas contraire, "
                     "il perd le droit de la bredouille, mais l’adversaire n’en peut profiter. Si celui qui gagne le "
                     "trou double le marque simple, il n’est plus reçu à le marquer double dès qu’il a joué."),
        (art("200"), "A-t-il le droit de marquer ces huit points en bredouille ? Non, car ces points sont composés de "
                     "deux parties, et n’ont pas été acquis simultanément."),
    ),
    _rule(
        "trous-mal-marques",
        ("Trous mal marqués", "Holes marked wrong"),
        ("Un trou simple marqué double, ou double marqué simple, se corrige sans école : l'un et l'autre "
         "représentent douze points. Les trous marqués de trop ou oubliés se remettent comme les points les "
         "font ; l'école ne compte que les points (un trou pour douze).",
         "A simple hole marked double, or a double hole marked simple, is put right without an école: both "
         "stand for twelve points. Holes marked too many or forgotten are set as the points make them; an "
         "école counts only points (a hole for twelve)."),
        (art("184"), art("173-174"), lepeintre(51)),
        (art("184"), "Il n’y en a pas si, ayant le trou simple, on le marque double, ou bien, l’ayant double, on le "
                     "marque simple: car un trou double, comme un simple, est la représentation de douze points"),
        (art("173"), "si l’on a amené un coup qui donne réellement trois trous, et que, croyant n’avoir que "
                     "vingt-deux points, on se contente de marquer un trou, puis de s’en aller, l’adversaire ne peut "
                     "forcer à rester et mettre à l’école; on perd seulement les deux trous qu’on a oublié de "
                     "marquer."),
        (lepeintre(51), "On ne peut mettre à l’école des trous : c’est-à-dire que si votre adversaire marque un trou "
                        "au lieu de deux, vous ne pouvez marquer un trou d’école : s’il marque trop, vous le "
                        "rectifiez simplement."),
    ),
    _rule(
        "je-ne-marque-pas",
        ("« Je ne marque pas »", '"Je ne marque pas"'),
        ("Qui gagne des points par un coup qui donne en même temps le trou à l'adversaire dit « je ne marque "
         "pas » au lieu de marquer : l'annonce vaut la marque et ôte à l'adversaire sa bredouille. S'il se "
         "trompe et prend lui-même le trou, il fait une école par moins.",
         "A player whose throw wins him points but gives the opponent his hole says \"je ne marque pas\" "
         "instead of marking: the announcement counts as marking and takes the opponent's bredouille. If he "
         "is wrong and takes the hole himself, it is an école par moins."),
        (art("150"), art("176")),
        (art("150"), "Il y a un cas où l’usage est de ne pas marquer les points que l’on gagne : c’est lorsque, par le "
                     "même coup, on donne ou complète le trou à l’adversaire, et alors on doit dire : Je ne marque "
                     "pas."),
        (art("176"), "Cet avertissement suffit pour priver l’adversaire de la bredouille des jetons, s’il l’a, et "
                     "alors il ne peut marquer que le trou simple."),
    ),
    _rule(
        "pavillon",
        ("Le pavillon", "The pavillon"),
        ("Les trous ont leur bredouille comme les points : le second joueur à prendre des trous, tant que "
         "l'autre n'en reprend pas, le montre par le pavillon, qu'il doit prendre avant que le trou suivant "
         "soit marqué. Elle double (petite bredouille) ou quadruple (grande bredouille) la valeur d'un "
         "marqué.",
         "Holes have their bredouille as points do: the second player to take holes, as long as the other "
         "takes none again, shows it with the pavillon, which he must take before the next hole is marked. It "
         "doubles (petite bredouille) or quadruples (grande bredouille) the value of a marqué."),
        (art("223-225"), lepeintre(58), Citation("002", "Partie en douze trous")),
        (art("223"), "On indique la non-interruption des trous au moyen du pavillon placé dans le trou où était "
                     "d’abord le fichet; lorsque le pavillon est au milieu de la bande, cela signifie qu’un seul "
                     "joueur a des trous ou bien que les deux joueurs sont débredouillés."),
        (lepeintre(58), "Au Trictrac à écrire, on doit prendre le pavillon avant que le trou qui suit celui où il a "
                        "été acquis soit pris à l’un des joueurs : après ce trou on n’a plus le droit de le "
                        "revendiquer."),
    ),
    # --- s'en aller / tenir --------------------------------------------------------
    _rule(
        "s-en-aller",
        ("S'en aller", "Leaving (s'en aller)"),
        ("Qui gagne un ou plusieurs trous dont les derniers points viennent de son propre coup peut s'en "
         "aller : il marque ses trous, dit « je m'en vais », efface ses points de reste et ceux de "
         "l'adversaire, et les deux joueurs relèvent leurs dames ; il a la primauté du nouveau relevé. Il "
         "perd ce droit s'il a marqué ses points de reste, touché une dame ou dit « je reste ».",
         "A player who wins one or more holes whose last points come from his own throw may leave: he marks "
         "his holes, says \"je m'en vais\", erases his points de reste and the opponent's, and both players "
         "take up their checkers; he has the primauté of the new relevé. He loses that right once he has "
         "marked his points de reste, touched a checker or said \"je reste\"."),
        (art("155-157"),),
        (art("155"), "Le joueur qui gagne un ou plusieurs trous dont les deux derniers points proviennent de son coup "
                     "peut s’en aller, c’est-à-dire remettre toutes ses dames au talon, et obliger l’adversaire à en "
                     "faire autant, quelque beau que soit son jeu, pour recommencer à abattre du bois, en effaçant "
                     "ses points de reste et ceux que l’adversaire marquerait si l’on ne s’en allait pas."),
        (art("156"), "Pour avoir le droit de s’en aller, il faut achever le trou de son coup, n’avoir pas marqué les "
                     "points de reste, n’avoir pas touché ses dames, et ne pas avoir dit : Je reste ou Je ne m’en "
                     "vais pas."),
    ),
    _rule(
        "tenir",
        ("Tenir (rester)", "Staying (tenir)"),
        ("Qui ne s'en va pas tient : il marque ses trous et ses points de reste, efface ceux de l'adversaire "
         "et joue son coup. Qui a marqué ses points de reste doit tenir.",
         "A player who does not leave stays: he marks his holes and points de reste, erases the opponent's "
         "points and plays his throw. Once he has marked his points de reste he must stay."),
        (art("158"), lepeintre(40)),
        (art("158"), "Quand on reste, ce qui a lieu le plus ordinairement, on marque ses trous et ses points de reste, "
                     "en effaçant les points qu’avait l’adversaire; puis on joue son coup avec ses dames."),
        (lepeintre(40), "Quand on a marqué les points qu’on a de reste, on est obligé de rester."),
    ),
    _rule(
        "s-en-aller-sans-droit",
        ("S'en aller sans en avoir le droit", "Leaving without the right"),
        ("Qui s'en va sans avoir gagné le trou par son coup, ou en marquant plus de trous que son coup n'en "
         "donne, est à l'école dès qu'il lève ses dames : l'adversaire peut le faire tenir, lui faire jouer "
         "les dames levées et marquer ce qu'il a marqué de trop.",
         "A player who leaves without having won the hole by his throw, or marking more holes than his throw "
         "gives, is at école as soon as he lifts his checkers: the opponent may make him stay, play the "
         "lifted checkers and mark what he over-marked."),
        (art("170"), art("173"), lepeintre(25), lepeintre(54)),
        (art("170"), "Si l’on s’en va en marquant le trou n’ayant pas assez de points, on est à l’école dès que l’on a "
                     "commencé à lever ses dames. L’adversaire peut forcer de remettre les dames comme elles étaient, "
                     "et de jouer à son désavantage les dames levées pour s’en aller."),
        (art("173"), "Ayant dix points, on amène un coup qui en donne douze; par erreur, croyant en gagner quatorze, "
                     "on marque trois trous, et l’on rompt le jeu pour s’en aller : l’adversaire a le droit "
                     "d’obliger à rester, de remettre à dix points en faisant effacer deux trous, et de marquer "
                     "l’école de deux points."),
    ),
    _rule(
        "la-parole-engage",
        ("La parole engage", "Words bind"),
        ("Qui a dit « je m'en vais » doit s'en aller, et l'adversaire peut l'y forcer ; qui a dit « je "
         "reste » doit tenir.",
         "A player who said \"je m'en vais\" must leave, and the opponent may force him to; one who said "
         "\"je reste\" must stay."),
        (art("156"), lepeintre(36)),
        (lepeintre(36), "On n’est pas obligé de dire qu’on s’en va quand on ne veut pas tenir : cela se manifeste par "
                        "l’enlèvement des dames ; mais on est forcé de rester, si l’on a dit qu’on restait, ou de "
                        "s’en aller, si on a dit qu’on s’en allait."),
        (art("156"), "Quand on a dit : Je m’en vais, l’adversaire peut forcer à s’en aller."),
    ),
    _rule(
        "la-sortie",
        ("La sortie", "Bearing off (la sortie)"),
        ("Le premier qui lève toutes ses dames gagne 4 points (6 par doublet) et a la primauté du relevé "
         "suivant ; son dernier coup ne lui sert de premier coup que s'il a dit « je joue pour tout ». Celui "
         "qui, en levant ses deux dernières dames, arrive à douze points peut s'en aller ou tenir ; sans trou "
         "gagné par ce coup, il ne peut s'en aller.",
         "The first player to bear off all his checkers wins 4 points (6 on a doublet) and has the primauté "
         "of the next relevé; his last throw serves as his first only if he said \"je joue pour tout\". A "
         "player who reaches twelve points by bearing off his last two checkers may leave or stay; without a "
         "hole won by that throw he may not leave."),
        (art("118"), art("163"), lepeintre(73)),
        (art("118"), "Celui qui parvient à sortir le premier toutes ses dames gagne quelque chose pour le dernier "
                     "coup; il marque ce gain avant de toucher ses dames. Il a la primauté pour le relevé, et joue "
                     "ainsi deux coups de suite."),
        (art("163"), "Au jan de retour, celui qui lève ses deux dernières dames, et qui arrive à douze points par ce "
                     "coup, a le droit de s’en aller, ou de rester, après avoir jeté les dés."),
        (lepeintre(73), "Le dernier coup qui se joue pour la sortie au Jan de retour ne sert pour le premier coup du "
                        "relevé suivant, que quand on a dit : Je joue pour tout."),
    ),
    _rule(
        "le-releve",
        ("Le relevé", "The relevé"),
        ("Un relevé dure jusqu'à ce qu'un joueur s'en aille ou que le premier sortant ait levé toutes ses "
         "dames ; alors seulement les dames reviennent aux talons pour un nouveau relevé.",
         "A relevé lasts until a player leaves or the first player to bear off has taken off all his "
         "checkers; only then do the checkers go back to the talons for a new relevé."),
        (art("162"), art("118"), art("155")),
        (art("162"), "Un relevé a lieu quand, après avoir marqué un ou plusieurs trous et s’en être allé, on "
                     "recommence à garnir le tablier pour gagner des trous, jusqu’à ce qu’un joueur s’en aille ou "
                     "achève les douze trous."),
    ),
    # --- écoles --------------------------------------------------------------------
    _rule(
        "ecole",
        ("L'école", "The école"),
        ("Qui marque plus ou moins qu'il ne doit fait une école ; l'adversaire marque pour lui la différence. "
         "L'école vaut les points marqués de trop (école par trop) ou oubliés (école par moins).",
         "A player who marks more or less than is due makes an école; the opponent marks the difference for "
         "himself. The école is worth the points marked too many (école par trop) or forgotten (école par "
         "moins)."),
        (art("164-166"),),
        (art("164"), "On fait une école si l’on marque plus ou moins qu’on ne doit marquer. L’adversaire marque pour "
                     "lui ce qu’il y a de trop ou de trop peu ; il met à l’école, il envoie à l’école, il marque "
                     "l’école. Il y a l’école par trop et l’école par moins."),
        (art("165"), "Les écoles sont égales aux points qu’on a marqués de trop ou qu’on a oublié de marquer."),
    ),
    _rule(
        "ecole-par-trop",
        ("École par trop", "École par trop (over-marking)"),
        ("Marquer plus que son coup ne donne : l'école est faite dès qu'on a quitté son jeton, car un jeton "
         "ne recule pas. L'adversaire efface le trop et le marque pour lui, avant de jeter ses dés.",
         "Marking more than the throw gives: the école is made once the jeton is let go, for a jeton never "
         "moves back. The opponent erases the excess and marks it for himself, before he throws."),
        (art("164-167"), art("172")),
        (art("167"), "L’école par trop est faite quand on a quitté son jeton, parce qu’on ne peut le reculer. Il faut "
                     "la marquer avant de jeter ses dés, sans quoi on n’y est plus reçu, et le premier joueur garde "
                     "les points et les trous qu’il a marqués de trop."),
        (art("172"), "Si l’on dit : Je gagne six points, et que l’on en marque huit, on peut être mis à l’école de "
                     "deux points, quand on a lâché son jeton."),
    ),
    _rule(
        "ecole-par-moins",
        ("École par moins", "École par moins (under-marking)"),
        ("Oublier de marquer ce que l'on gagne : l'école est faite dès qu'on touche une dame (ou, pour des "
         "points reçus, dès qu'on jette les dés). L'adversaire marque pour lui les points oubliés.",
         "Forgetting to mark what one wins: the école is made as soon as a checker is touched (or, for points "
         "received, as soon as the dice are thrown). The opponent marks the forgotten points for himself."),
        (art("164-167"),),
        (art("167"), "L’école par moins est faite dès que l’on a touché une dame (cf. n° 46); elle l’est aussi quand "
                     "on a jeté les dés, si elle vient d’un coup de l’adversaire."),
        (art("166"), "La deuxième est plus préjudiciable que la première."),
    ),
    _rule(
        "temps-de-l-ecole",
        ("Le temps de marquer l'école", "When an école may be claimed"),
        ("Une école se marque avant de jeter ses propres dés ; après, on n'y est plus reçu.",
         "An école must be claimed before one throws one's own dice; after that the claim is not received."),
        (art("167"), art("186"), lepeintre(34)),
        (lepeintre(34), "On ne peut plus rectifier les fausses cases de son adversaire ni marquer ses écoles, quand on "
                        "a lancé les dés."),
        (art("186"), "Tout cela doit se faire avant de jouer un autre coup."),
    ),
    _rule(
        "ecole-non-marquee",
        ("L'école qu'on ne marque pas", "An école not claimed"),
        ("L'adversaire n'est pas obligé de marquer une école. S'il ne la marque pas à temps, la faute reste : "
         "qui a marqué de trop garde ses points. On ne met pas à l'école de l'école.",
         "The opponent need not claim an école. If he does not claim it in time the mistake stands: the "
         "player who over-marked keeps his points. There is no école for failing to claim an école."),
        (lepeintre(47), lepeintre(43), art("167"), art("182")),
        (lepeintre(47), "Si votre adversaire marque mal-à-propos des points et que vous ne l’ayez pas mis à l’école, "
                        "il a le droit de conserver ces points, quoique marqués à tort, et cela par la raison qu’il "
                        "encourrait la punition de l’école en marquant mal-à-propos."),
        (art("182"), "Elle n’a point lieu. Si l’adversaire fait une école, et si vous ne la marquez pas, il ne peut "
                     "vous mettre à l’école pour cela."),
    ),
    _rule(
        "fausse-ecole",
        ("Fausse école", "Fausse école (a wrong claim)"),
        ("Marquer une école que l'adversaire n'a pas faite est soi-même une école, que l'adversaire peut "
         "marquer.",
         "Claiming an école the opponent did not make is itself an école, which the opponent may claim."),
        (art("183"), lepeintre(60)),
        (art("183"), "1° Si l’adversaire, croyant que l’on fait une école, la marque, il est mis à l’école."),
        (lepeintre(60), "Vous pouvez mettre votre adversaire à l’école, s’il vous y a mis lui-même mal-à-propos: il a "
                        "fait ce qu’on appelle une fausse école."),
    ),
    _rule(
        "ecole-entiere",
        ("L'école est indivisible", "An école is indivisible"),
        ("Qui marque une école la marque entière : il ne peut en prendre une partie seulement. Une école par "
         "trop qu'on ne veut pas marquer, on se contente d'en effacer le trop.",
         "An école is claimed whole: the claimant may not take part of it only. An école par trop one does "
         "not want to claim, one simply erases the excess."),
        (art("187"), lepeintre(46)),
        (art("187"), "Si l’adversaire fait une école, on n’est pas obligé de la marquer ; mais on ne peut le faire "
                     "partiellement, on est contraint de la marquer dans sa totalité. Si c’est une école par trop, "
                     "et qu’on ne juge pas à propos de la marquer, on se contente d’effacer les points qui ont été "
                     "marqués de trop."),
        (lepeintre(46), "Une école n’est pas divisible, et vous n’avez pas le droit de ne marquer que les points que "
                        "vous voulez."),
    ),
    _rule(
        "ecole-impossible",
        ("École impossible", "École impossible"),
        ("Un coup qui ne peut se jouer ne touche aucune dame : l'omission n'y est pas consommée, et l'on peut "
         "encore marquer ses points tant qu'on n'a pas jeté les dés de nouveau. Aucune école ne se marque "
         "pour elle.",
         "A throw that cannot be played touches no checker: an omission on it is not consummated, and the "
         "player may still mark his points until he throws again. No école can be claimed for it."),
        (lepeintre(62), art("197")),
        (lepeintre(62), "Lorsqu’on amène des dés qu’on ne peut jouer par impuissance, on ne peut être envoyé à l’école "
                        "des points qu’ils produisent et que l’on a oublié de marquer."),
        (art("197"), "Pour que l’école par omission soit consommée, il faut que celui qui la fait ait jeté les dés, ou "
                     "qu’il ait touché ses dames sans avoir dit : J’adoube."),
    ),
    _rule(
        "ecole-des-deux-jetons",
        ("École des deux jetons", "École des deux jetons (two jetons)"),
        ("Qui marque ses nouveaux points avec un autre jeton en oubliant les anciens : selon Lelasseux-Lafosse "
         "l'adversaire ôte seulement l'une des deux marques, sans école ; selon les règles de rigueur de "
         "Lepeintre, il efface les anciens points et en marque l'école. Le profil de la partie dit laquelle "
         "s'applique.",
         "Marking new points with another jeton and forgetting the old ones: according to Lelasseux-Lafosse "
         "the opponent only removes one of the two marks, without école; under Lepeintre's strict rules he "
         "erases the old points and claims them as an école. The game's profile says which applies."),
        (art("195"), lepeintre(65)),
        (art("195"), "On a huit ou dix points, on amène un coup qui en donne quatre; on oublie ceux qu’on a déjà, et "
                     "on prend pour les marquer un des jetons de la bande : l’adversaire a le droit d’ôter l’une des "
                     "deux marques, mais il ne peut pour cela marquer l’école."),
        (lepeintre(65), "Lorsque l’un des deux joueurs ne s’aperçoit pas qu’il a déjà marqué des points et prend un "
                        "autre jeton pour en marquer de nouveaux, l’autre joueur a le droit d’effacer les points "
                        "marqués par le premier jeton, et de mettre son joueur à l’école du montant de ces anciens "
                        "points, ou de lui faire marquer tous ses points. C’est l’école dite des deux jetons."),
    ),
    _rule(
        "effacer-ses-points",
        ("Effacer ses points", "Erasing one's own points"),
        ("Qui achève un trou efface les points qu'il avait avant le coup ; s'il les laisse marqués, "
         "l'adversaire en marque l'école (seulement le trop, s'il avait des points de reste). Il n'y a pas "
         "d'école quand on s'en va : les jetons sont ôtés de toute façon.",
         "A player who completes a hole erases the points he had before the throw; if he leaves them marked, "
         "the opponent claims them as an école (only the excess, if he had points de reste). There is no école "
         "when he leaves: the jetons are taken off anyway."),
        (art("169"), lepeintre(44), lepeintre(45)),
        (art("169"), "Une erreur plus fréquente, c’est d’oublier d’effacer les points que l’on avait avant le coup, "
                     "de ne point remettre le jeton au talon, lorsque le coup complète un ou deux trous, et qu’il ne "
                     "reste rien : alors l’adversaire met à l’école et prend pour lui les points que l’on avait "
                     "laissés marqués. […] Il n’y a pas d’école si l’on s’en va."),
        (lepeintre(45), "Il n’y a pas d’école pour les points qu’on n’a pas effacés en s’en allant : l’un ou l’autre "
                        "des joueurs doit ôter les jetons."),
    ),
    _rule(
        "effacer-l-adversaire",
        ("Effacer les points de l'adversaire", "Erasing the opponent's points"),
        ("Qui efface par erreur les points de l'adversaire, croyant qu'il a fait une école : selon "
         "Lelasseux-Lafosse, ce n'est pas une école ; selon les règles de rigueur de Lepeintre, c'est une "
         "école de tous les points dont il l'a privé. Le profil de la partie dit laquelle s'applique.",
         "Erasing the opponent's points by mistake, believing he made an école: according to "
         "Lelasseux-Lafosse, no école; under Lepeintre's strict rules, an école of all the points he was "
         "deprived of. The game's profile says which applies."),
        (art("181"), lepeintre(67)),
        (art("181"), "Si, croyant que l’adversaire fait école, on efface ses points, sans les marquer, on ne fait pas "
                     "école."),
        (lepeintre(67), "Si vous effacez mal-à-propos votre adversaire, ou que vous tiriez son jeton pour marquer vos "
                        "points, en ne lui en laissant pas, vous êtes à l’école de tous les points dont vous l’avez "
                        "privé."),
    ),
    _rule(
        "erreur-occasionnee",
        ("L'erreur qu'on a occasionnée", "A mistake one caused"),
        ("Qui a induit l'adversaire en erreur (par un avertissement faux) ne peut lui en marquer l'école ; "
         "il peut seulement faire corriger la marque.",
         "A player who led the opponent into a mistake (by a wrong warning) cannot claim it as an école; he "
         "may only have the mark put right."),
        (art("177"), lepeintre(57)),
        (art("177"), "Si le joueur averti qu’il a le trou ne l’a pas, mais le marque néanmoins, l’adversaire peut, "
                     "s’il s’en aperçoit à temps, le lui faire effacer en le réduisant aux points qu’il avait; mais "
                     "il ne peut marquer l’école : on ne peut profiter d’une erreur qu’on a occasionnée."),
        (lepeintre(57), "Celui qui induit l’autre en erreur ne peut le mettre à l’école par suite de cette erreur"),
    ),
    _rule(
        "augmentation-d-ecole",
        ("Augmentation d'école", "Augmentation d'école"),
        ("Qui démarque une juste école, la croyant fausse, et la marque pour lui fait une augmentation "
         "d'école : l'adversaire remet son école et y ajoute les points ainsi marqués.",
         "A player who takes back a correct école, believing it wrong, and marks it for himself makes an "
         "augmentation d'école: the opponent restores his école and adds the points so marked to it."),
        (art("194"),),
        (art("194"), "Cela a lieu quand on a fait une véritable école que l’adversaire a marquée. On croit que "
                     "l’adversaire s’est trompé, on la démarque et on la marque à son profit. Celui-ci, à son tour, "
                     "démarque vos points, et ajoute à la première école les points marqués par la deuxième, en "
                     "vous donnant l’explication de l’erreur."),
    ),
    _rule(
        "obliger-a-marquer",
        ("Obliger à marquer", "Making the opponent mark"),
        ("Au lieu de marquer l'école, l'adversaire peut obliger le joueur à marquer les points ou le trou "
         "oubliés (par exemple pour qu'il ne puisse plus s'en aller), pourvu qu'il le demande avant que les "
         "dés soient jetés pour le coup suivant.",
         "Instead of claiming the école, the opponent may oblige the player to mark the forgotten points or "
         "hole (for instance so that he can no longer leave), provided he asks before the dice are thrown "
         "for the next throw."),
        (art("185-186"),),
        (art("185"), "Lorsqu’on amène un coup qui donne un trou à l’adversaire, si l’on a intérêt à l’obliger de "
                     "marquer ce trou, on doit l’avertir et lui imposer cette obligation avant que les dés soient "
                     "jetés pour le coup suivant."),
        (art("186"), "On est maître de marquer ou de ne pas marquer l’école, d’obliger à marquer les points omis, ou "
                     "d’effacer ceux qui ont été marqués de trop. Tout cela doit se faire avant de jouer un autre "
                     "coup."),
    ),
    _rule(
        "ecole-des-pleins",
        ("Écoles sur les pleins", "Écoles about pleins"),
        ("Marquer les points d'un plein qu'on ne fait pas, ou les marquer puis jouer une dame qui empêche "
         "de remplir ou fait rompre, est une école des points marqués (double école selon les règles de "
         "rigueur de Lepeintre). Jouez d'abord la dame qui remplit.",
         "Marking the points of a plein one does not make, or marking them and then playing a checker that "
         "prevents the fill or breaks it, is an école of the points marked (a double école under Lepeintre's "
         "strict rules). Play the filling checker first."),
        (art("192"), art("57"), lepeintre(59)),
        (art("192"), "Si l’on marque des points croyant remplir ou conserver, quoiqu’on ne remplisse pas ou qu’on ne "
                     "conserve pas, on fait école des points marqués. […] Si, ayant bien reconnu que l’on remplit ou "
                     "conserve, on marque les points qui sont acquis, et si par erreur on lève une dame qui mette dans "
                     "l’impossibilité de remplir ou force de rompre, on fait école : l’adversaire efface les points "
                     "et les marque à son profit."),
        (lepeintre(59), "Si, ayant marqué les points du plein, on ne le fait pas, ou qu’on prenne des dames qui ne le "
                        "font pas, on fait école."),
    ),
    # --- the play ------------------------------------------------------------------
    _rule(
        "remplir-et-conserver",
        ("Remplir et conserver", "Filling and keeping a plein"),
        ("On est obligé de remplir un plein quand le coup le permet, et de le conserver tant qu'on le peut. "
         "Qui pouvait remplir ou conserver et ne l'a pas fait donne à l'adversaire les points qu'il aurait "
         "dû marquer.",
         "A player must fill a plein when the throw allows it, and keep it as long as he can. One who could "
         "fill or keep it and did not gives the opponent the points he should have marked."),
        (art("57"), art("60"), art("192")),
        (art("57"), "Vous êtes obligé de remplir, si c’est possible."),
        (art("60"), "Il faut donc conserver aussi long-temps qu’il est possible."),
        (art("192"), "Si, pouvant remplir, on ne remplit pas, ou, pouvant conserver, on ne conserve pas, l’adversaire "
                     "marque autant de points qu’on aurait dû en marquer."),
    ),
    _rule(
        "tout-jouer",
        ("Jouer tout son coup", "Playing the whole throw"),
        ("On doit jouer les deux nombres du coup quand c'est possible ; si un seul peut se jouer, on joue le "
         "plus grand. Chaque nombre qui ne peut se jouer vaut 2 points à l'adversaire.",
         "Both numbers of the throw must be played when possible; if only one can be played, the larger. Each "
         "number that cannot be played gives the opponent 2 points."),
        (art("34"), art("83"), art("153")),
        (art("34"), "A chaque fois que vous jetez les dés vous êtes forcé de tout jouer, c’est-à-dire d’avancer deux "
                    "dames d’autant de flèches qu’il y a d’unités dans chaque nombre, ou une dame d’autant de flèches "
                    "qu’il y a d’unités dans la somme des deux nombres."),
        (art("83"), "Si des deux nombres amenés on n’en peut jouer qu’un, on est forcé de jouer le plus grand, quand "
                    "cela se peut."),
    ),
    _rule(
        "marche-des-dames",
        ("La marche des dames", "How the checkers move"),
        ("Chaque nombre avance une dame d'autant de flèches, ou la somme une seule dame (tout d'une) en se "
         "reposant sur la flèche d'un des nombres. On ne pose ni ne repose une dame sur une flèche où "
         "l'adversaire a des dames, ni dans son coin ; on ne laisse pas une dame seule dans son propre coin. "
         "Les dames ne reculent jamais.",
         "Each number moves one checker that many points, or the sum moves one checker (tout d'une), resting "
         "on the point of one of the numbers. No checker lands or rests on a point the opponent holds, nor in "
         "his coin; no checker stands alone in one's own coin. Checkers never move back."),
        (art("29-33"), art("42")),
        (art("30"), "Lorsque vous jouez tout d’une, vous êtes censé vous reposer sur la flèche qui répond à l’un des "
                    "deux nombres"),
        (art("42"), "Vous ne pouvez placer ni une dame, ni deux, sur une flèche où l’adversaire a une ou plusieurs "
                    "dames, même si cette flèche est dans votre jeu; vous ne pouvez non plus vous y reposer. […] "
                    "Deuxième loi : À la onzième flèche de l’adversaire vous ne pouvez placer ni une dame, ni deux ; "
                    "vous pouvez vous y reposer. Troisième loi : À votre onzième flèche vous ne pouvez avoir une "
                    "dame seule."),
    ),
    _rule(
        "le-coin",
        ("Le coin", "The coin"),
        ("Le coin se prend avec deux dames à la fois. On le prend par puissance (chaque nombre diminué d'un) "
         "seulement quand l'adversaire n'a pas le sien et qu'on ne peut pas le prendre directement.",
         "The coin is taken with two checkers at once. It is taken by puissance (each number less one) only "
         "when the opponent does not hold his own and it cannot be taken directly."),
        (art("43-44"),),
        (art("44"), "Si l’adversaire n’a pas son coin, et si votre coup y porte deux dames, vous prenez le vôtre par "
                    "puissance, par la puissance de diminuer chaque nombre d’une unité. […] Il y a une règle : "
                    "Lorsqu’on peut prendre son coin directement, il n’est pas permis de le prendre par puissance. "
                    "Cette règle est sans exception."),
    ),
    _rule(
        "dame-touchee",
        ("Dame touchée, dame jouée", "Touched checker, played checker"),
        ("Une dame touchée doit être jouée si elle peut l'être, à moins qu'on ait dit « j'adoube » avant de "
         "la toucher.",
         "A checker touched must be played if it can be, unless the player said \"j'adoube\" before touching "
         "it."),
        (art("46"), lepeintre(17)),
        (art("46"), "Dame touchée, dame jouée ; cela veut dire : Toute dame touchée doit être jouée, si c’est "
                    "possible, à moins qu’avant de la toucher on ait dit: J’adoube."),
    ),
    _rule(
        "coup-mal-joue",
        ("Coup mal joué", "A misplayed throw"),
        ("Une dame mal posée est à la discrétion de l'adversaire : il la laisse, la remet à sa vraie place ou, "
         "si elle a passé le plus fort nombre, fait jouer le coup tout d'une. Le joueur ne peut plus rejouer "
         "lui-même, et une dame bien jouée d'abord reste où elle est.",
         "A checker set on the wrong point is at the opponent's discretion: he leaves it, puts it right or, if "
         "it went beyond the larger number, has the throw played tout d'une. The player may no longer replay it "
         "himself, and a checker correctly played first stays where it is."),
        (art("211"), art("201"), art("216"), lepeintre(24)),
        (art("211"), "Lorsqu’on abandonne une dame sur une flèche autre que celle où le nombre doit aboutir, soit en "
                     "deçà, soit au delà, cette dame reste entièrement à la discrétion de l’adversaire."),
        (art("201"), "Quand une dame a été bien jouée, une deuxième dame mal jouée n’a aucune influence sur la "
                     "première."),
        (lepeintre(24), "Si après avoir fait une fausse case, ou joué inexactement, vous voulez jouer exactement, vous "
                        "ne le pouvez plus. Votre adversaire a le droit de trouver bien joué ce que vous avez joué."),
    ),
    _rule(
        "dame-de-moins",
        ("Une dame de moins", "A checker short"),
        ("Les coups joués avec une dame de moins restent bons ; la quinzième rentre dès qu'on s'en aperçoit, "
         "jamais à l'avantage de son joueur.",
         "Throws played with a checker short stand; the fifteenth comes back as soon as it is noticed, never "
         "to its owner's advantage."),
        (lepeintre(32), art("214")),
        (lepeintre(32), "Lorsque l’on a joué avec une ou plusieurs dames de moins, les coups qui se sont passés, "
                        "jusqu’au moment où l’on s’en est aperçu, n’en sont pas moins bons"),
        (art("214"), "Dans tous les cas, la rentrée de cette dame ne peut être profitable au joueur à qui elle "
                     "appartient."),
    ),
    _rule(
        "primaute",
        ("La primauté et le tour", "The primauté and the turn"),
        ("Le premier coup est à celui des deux dont le plus grand nombre est le plus près ; ensuite les "
         "joueurs jettent les dés chacun à leur tour, jusqu'à la fin.",
         "The first throw belongs to the player nearer whom the larger number lies; after that the players "
         "throw in turn, to the end."),
        (art("28"),),
        (art("28"), "L’adversaire prend ensuite les dés et les jette en frappant votre bande ou vos dames; il joue son "
                    "coup avec ses dames. Vous jetez les dés à votre tour, et chacun des deux joueurs joue ainsi "
                    "alternativement jusqu’à la fin."),
        (art("28"), "La primauté, ou le droit de jouer le premier coup avec ses dames, appartient à celui des deux "
                    "joueurs qui a le plus grand nombre plus près de lui que le plus petit."),
    ),
    # --- the partie ----------------------------------------------------------------
    _rule(
        "partie-en-douze-trous",
        ("La partie en douze trous", "The twelve-hole game"),
        ("La partie est gagnée par le premier qui arrive à douze trous, en un ou plusieurs relevés ; le "
         "douzième trou peut venir des points que donne l'adversaire. Jouée avec la bredouille, elle vaut "
         "davantage quand le gagnant a pris ses trous sans interruption.",
         "The game is won by the first player to reach twelve holes, in one relevé or several; the twelfth "
         "hole may come from points the opponent gives. Played with the bredouille, it is worth more when the "
         "winner took his holes without interruption."),
        (art("218"), art("217"), Citation("002", "Partie en douze trous")),
        (art("218"), "La manière la plus simple est celle où la partie est terminée et le prix convenu acquis à celui "
                     "qui arrive le premier à douze trous."),
        (art("217"), "La partie en douze trous peut se gagner et se terminer par les points que l’adversaire donne en "
                     "battant à faux; ce qui n’arrive pas à la partie à écrire, où l’on ne peut s’en aller que "
                     "lorsque l’on gagne le trou par un de ses coups."),
    ),
    _rule(
        "partie-a-ecrire",
        ("La partie à écrire", "The written game (partie à écrire)"),
        ("La partie à écrire se joue en un nombre convenu de marqués. Un marqué finit quand un joueur s'en va "
         "alors que l'un ou l'autre a au moins six trous ; il vaut les trous du gagnant plus deux (la "
         "consolation), moins les trous du perdant, doublé ou quadruplé avec le pavillon.",
         "The written game is played in an agreed number of marqués. A marqué ends when a player leaves while "
         "one or the other has at least six holes; it is worth the winner's holes plus two (the consolation) "
         "less the loser's holes, doubled or quadrupled with the pavillon."),
        (art("220-224"),),
        (art("221"), "Chaque marqué est terminé toutes les fois qu’un joueur s’en va, et que l’un ou l’autre joueur a "
                     "au moins six trous. Celui qui a alors le plus de trous a l’avantage, et l’on dit qu’il marque, "
                     "qu’il gagne le marqué."),
        (art("222"), "Au nombre de trous du gagnant on ajoute 2, ce qu’on nomme la consolation; de cette somme on "
                     "retranche le nombre de trous du perdant : le reste est la valeur du marqué."),
    ),
    _rule(
        "fin-de-la-partie",
        ("La fin de la partie", "The end of the game"),
        ("La partie finit quand un joueur complète douze trous ; un marqué, quand un joueur s'en va avec six "
         "trous ou plus d'un côté. Les coups écrits après ne comptent pas, et le résultat écrit doit suivre "
         "les trous de la partie.",
         "The game ends when a player completes twelve holes; a marqué, when a player leaves with six or more "
         "holes on either side. Coups written after that do not count, and the written result must follow "
         "the holes of the game."),
        (art("162"), art("218"), art("221")),
        (art("162"), "La partie est tout ce qui se fait depuis le commencement jusqu’à ce qu’un joueur complète douze "
                     "trous."),
        (art("221"), "Chaque marqué est terminé toutes les fois qu’un joueur s’en va, et que l’un ou l’autre joueur a "
                     "au moins six trous."),
    ),
)
# fmt: on

_BY_ANCHOR: dict[str, Rule] = {r.anchor: r for r in RULES}

#: finding kind (``replay.verifier.findings.FINDING_KINDS``) -> the anchor of its rule.
KIND_RULES: dict[str, str] = {
    "ecole-par-moins": "ecole-par-moins",
    "ecole-par-trop": "ecole-par-trop",
    "unclaimed-ecole": "ecole-non-marquee",
    "ecole-claimed-wrongly": "fausse-ecole",
    "ecole-partial": "ecole-entiere",
    "ecole-too-late": "temps-de-l-ecole",
    "ecole-impossible": "ecole-impossible",
    "ecole-deux-jetons": "ecole-des-deux-jetons",
    "ecole-plein-not-made": "ecole-des-pleins",
    "bredouille-lost": "bredouille-perdue",
    "hole-mismatch": "trous-mal-marques",
    "illegal-move": "marche-des-dames",
    "must-fill": "remplir-et-conserver",
    "must-conserve": "remplir-et-conserver",
    "unplayed-number": "tout-jouer",
    "remedy-not-allowed": "coup-mal-joue",
    "missing-checker": "dame-de-moins",
    "out-of-turn": "primaute",
    "leave-without-right": "s-en-aller-sans-droit",
    "stay-after-leave": "la-parole-engage",
    "leave-at-sortie": "la-sortie",
    "releve-without-leave": "le-releve",
    "marque-result-mismatch": "partie-a-ecrire",
    "play-after-end": "fin-de-la-partie",
    "result-mismatch": "fin-de-la-partie",
}

#: (kind, detail) -> anchor, where a finding's sub-reason names a narrower rule than
#: its kind (the violations of ``replay.rules.moves``, the remedies refused).
_DETAIL_RULES: dict[tuple[str, str], str] = {
    ("illegal-move", "both-numbers"): "tout-jouer",
    ("illegal-move", "larger-number"): "tout-jouer",
    ("illegal-move", "must-fill"): "remplir-et-conserver",
    ("illegal-move", "must-conserve"): "remplir-et-conserver",
    ("illegal-move", "puissance-when-direct"): "le-coin",
    ("illegal-move", "puissance-opponent-coin"): "le-coin",
    ("illegal-move", "puissance-coin-held"): "le-coin",
    ("illegal-move", "lone-coin"): "le-coin",
    ("illegal-move", "opponent-coin"): "le-coin",
    ("remedy-not-allowed", "touched-checker"): "dame-touchee",
    ("remedy-not-allowed", "coin"): "le-coin",
    ("play-after-end", "partie"): "partie-en-douze-trous",
    ("ecole-par-moins", "fait-marquer"): "obliger-a-marquer",
    ("remedy-not-allowed", "fait-marquer"): "obliger-a-marquer",
    ("bredouille-lost", "pavillon"): "pavillon",
    ("bredouille-lost", "pavillon-not-due"): "pavillon",
    ("ecole-claimed-wrongly", "ecole-impossible"): "ecole-impossible",
    ("play-after-end", "marque"): "partie-a-ecrire",
    ("leave-without-right", "said-reste"): "la-parole-engage",
}


def rule(anchor: str) -> Rule:
    """The rule at ``anchor`` (KeyError names it when there is none)."""
    try:
        return _BY_ANCHOR[anchor]
    except KeyError:
        raise KeyError(f"no rule {anchor!r} in the rules reference") from None


def rule_for_kind(kind: str) -> Rule:
    """The rule a finding of ``kind`` applies (ValueError on a kind without one)."""
    try:
        return _BY_ANCHOR[KIND_RULES[kind]]
    except KeyError:
        raise ValueError(f"finding kind {kind!r} has no rule in the rules reference") from None


def rule_for_finding(kind: str, detail: str | None = None) -> Rule:
    """The rule of a finding: its sub-reason's when that names a narrower rule, else
    its kind's (:func:`rule_for_kind`)."""
    if detail is not None:
        anchor = _DETAIL_RULES.get((kind, detail))
        if anchor is not None:
            return _BY_ANCHOR[anchor]
    return rule_for_kind(kind)


# -- rendering ------------------------------------------------------------------------

_DOC: dict[str, dict[str, str]] = {
    "fr": {
        "title": "Référence des règles",
        "intro": (
            "Les règles du Grand Trictrac que le vérificateur applique, dites pour les joueurs, chacune "
            "avec le passage du traité qui la donne (texte original ; « […] » marque une coupure). "
            "Chaque constat de `trictrac check` et des pages publiées renvoie à l'une d'elles. "
            "Les traités : {treatises}. Les règles de Lepeintre sont citées sous son propre numéro."
        ),
        "other": "English version: [rules-reference.md](rules-reference.md).",
        "cites": "Références",
        "kinds": "Constats",
        "generated": "Ce fichier est produit par `python -m trictrac.replay.verifier.rulebook --write` ; ne pas l'éditer.",
    },
    "en": {
        "title": "Rules reference",
        "intro": (
            "The rules of Grand Trictrac that the verifier applies, told for players, each with the "
            "passage of the treatise that gives it (in the original French; « […] » marks a cut). "
            "Every finding of `trictrac check` and of the published pages points to one of them. "
            "The treatises: {treatises}. Lepeintre's rules are cited by his own numbers."
        ),
        "other": "Version française : [reference-des-regles.md](reference-des-regles.md).",
        "cites": "Cites",
        "kinds": "Findings",
        "generated": "This file is generated by `python -m trictrac.replay.verifier.rulebook --write`; do not edit it.",
    },
}

#: the docs files rendered from :data:`RULES`, by language
DOC_FILES: dict[str, str] = {"en": "docs/rules-reference.md", "fr": "docs/reference-des-regles.md"}


def words(lang: str) -> dict[str, str]:
    """The reference's own headings in ``lang`` ("fr" or "en")."""
    return _DOC["fr" if lang == "fr" else "en"]


def kinds_of(anchor: str) -> list[str]:
    """The finding kinds whose rule is ``anchor`` (sorted)."""
    return sorted(k for k, a in KIND_RULES.items() if a == anchor)


def treatise_list(lang: str) -> str:
    """The full titles of the treatises cited, for the reference's introduction."""
    used = {c.key for r in RULES for c in r.citations}
    return "; ".join(TREATISES[k][1] for k in TREATISES if k in used)


def render_markdown(lang: str) -> str:
    """The reference as Markdown (``docs/rules-reference.md`` in English,
    ``docs/reference-des-regles.md`` in French): one ``<a id>`` anchor per rule."""
    if lang not in _LANGS:
        raise ValueError(f"unknown language {lang!r} (fr, en)")
    w = words(lang)
    out = [
        f"# {w['title']}",
        "",
        f"<!-- {w['generated']} -->",
        "",
        w["intro"].format(treatises=treatise_list(lang)),
        "",
        w["other"],
        "",
    ]
    out += [f"- [{r.title(lang)}](#{r.anchor})" for r in RULES]
    for r in RULES:
        out += ["", f'<a id="{r.anchor}"></a>', "", f"## {r.title(lang)}", "", r.statement(lang), ""]
        out.append(f"*{w['cites']} :* {r.cite(lang)}" if lang == "fr" else f"*{w['cites']}:* {r.cite(lang)}")
        kinds = kinds_of(r.anchor)
        if kinds:
            sep = " : " if lang == "fr" else ": "
            out += ["", f"*{w['kinds']}{sep}*" + ", ".join(f"`{k}`" for k in kinds)]
        for p in r.passages:
            out += ["", f"> « {p.text} »", ">", f"> — {p.citation.text(lang)}"]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m trictrac.replay.verifier.rulebook [--write|--check] [ROOT]``: print, write or
    check the docs rendered from the reference (exit 1 when ``--check`` finds them stale)."""
    import sys
    from pathlib import Path

    args = list(sys.argv[1:] if argv is None else argv)
    mode = args.pop(0) if args and args[0].startswith("--") else "--print"
    root = Path(args[0]) if args else Path.cwd()
    stale = []
    for lang, rel in DOC_FILES.items():
        text = render_markdown(lang)
        target = root / rel
        if mode == "--write":
            from ...notation.textio import atomic_write_text

            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(target, text)
        elif mode == "--check":
            if not target.is_file() or target.read_text(encoding="utf-8") != text:
                stale.append(rel)
        else:
            sys.stdout.write(text)
    for rel in stale:
        print(f"{rel} is stale: run python -m trictrac.replay.verifier.rulebook --write", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
