"""The largest number each field of a record may hold (issue 18: cost bounded by the input).

Every number a record holds is checked against one of these bounds where it is read
(``notation.reader``, ``notation.position``), with a diagnostic naming the bound, so no
token can make the replayer loop or allocate in proportion to a number it wrote.  The
bounds follow what the game allows, with room for a player's wrong mark (the verifier
must still see a wrong mark to judge it).  docs/resilience.md states the guarantee.
"""

from __future__ import annotations

__all__ = [
    "MAX_MARK_POINTS",
    "MAX_MARK_HOLES",
    "MAX_ECOLE_POINTS",
    "MAX_CORRECTION_POINTS",
    "MAX_CORRECTION_HOLES",
    "MAX_COUP_NUMBER",
    "MAX_RELEVE",
    "MAX_MARQUES",
    "MAX_HOLES",
    "MAX_RESULT_VALUE",
    "MAX_GLYPH",
    "MAX_MOVES",
    "MAX_CANNOT",
]

#: One throw scores under 230 points: hits on at most 15 lone checkers at 12 points each
#: (3 ways x 4, or 2 x 6, RULES.md §4.3 B3-B5) = 180, one plein filled at most 12 (two
#: pleins need 24 checkers, §4.5 F5), the jans, the coin and the sortie 34 (§4.2).  250
#: leaves room for a wrong mark, which the verifier judges.
MAX_MARK_POINTS = 250
#: holes one mark can move: 250 points on 11 make 21 holes, all double (RULES.md §5.2).
MAX_MARK_HOLES = 2 * ((11 + MAX_MARK_POINTS) // 12)
#: an école is the points wrongly (un)marked, holes counted as 12 (RULES.md §7.1, §7.5),
#: plus a fausse école re-marked on top (003 §194): at most two marks' worth.
MAX_ECOLE_POINTS = 2 * MAX_MARK_POINTS
#: an agreed correction puts right at most one mark and one école.
MAX_CORRECTION_POINTS = MAX_ECOLE_POINTS
MAX_CORRECTION_HOLES = 99
#: coups of one relevé: a relevé of real play runs to about 120 (fixtures); each side's
#: checkers travel at most 15 x 24 pips, so the number stays far below 1000.
MAX_COUP_NUMBER = 999
#: relevés of one partie or marqué, and the ``coups=`` of a position.
MAX_RELEVE = 999
#: marqués of a partie à écrire: 4 to 12 in the sources (RULES.md §8.2), 15 à tourner (§8.3).
MAX_MARQUES = 99
#: holes of one player in a marqué or a partie (no upper limit in the rules, RULES.md
#: §8.2, but the fichet's rail has 12 and a marqué ends at the first leave past 6).
MAX_HOLES = 99
#: a marqué's value: 4 x (99 + 2 x 100 refaits) is far below this (RULES.md §8.2).
MAX_RESULT_VALUE = 99_999
#: numbered annotation glyphs ``$n`` (as in PGN's NAGs).
MAX_GLYPH = 255
#: a throw is two numbers (RULES.md §3.1), so a right record has at most two moves or
#: cannot-plays; a coup may hold four of each (room for a doublet wrongly played four
#: times, the verifier judges it), no more.
MAX_MOVES = 4
MAX_CANNOT = 4
#: findings listed per game: a game of 100,000 wrong coups would print 45 MB and publish
#: 45 MB of HTML; past this many the verifier only counts them by kind, and every output
#: says "... N more findings of kind K" (issue 27 row 2).  Real games hold under 60.
MAX_FINDINGS = 200
#: findings judged per game: at this many the game's verification stops (``stopped``,
#: with a note saying how many coups are left unverified), so a record wrong on every
#: coup costs no more than a real one; the findings past ``MAX_FINDINGS`` are counted.
MAX_FINDINGS_JUDGED = 5 * MAX_FINDINGS
#: the typo recovery's budget ("did you mean"), in coups judged: each recovery walks a
#: few candidates up to 40 coups ahead on copies of the game, and a coup left out tries
#: every play of the 21 throws against the coups that follow, so a record wrong on every
#: coup cost minutes for 3 KB (issue 27's fuzzing).  The budget is proportional to the
#: game's clean coups, the evidence a typo needs (a typo is one slip in a record that
#: agrees with itself): ``RECOVERY_COUPS_PER_COUP`` for each clean coup walked (one that
#: needed no recovery) and for each coup a recovery's own trials found clean ahead of it
#: (the coups that follow a typo of the first coups agree with the candidate the writer
#: meant: they earn before they are walked), plus ``RECOVERY_START`` coups for any game.
#: A coup that needed a recovery earns nothing, and a finding takes back five coups'
#: earning, so a record wrong on every coup has ``RECOVERY_START`` and no more (issue 27:
#: a junk game of 0.5 KB spent 0.3 s on the start's earning of 60 coups for each of its
#: first 40).  A recovery that would spend more than is left is abandoned, and the coup
#: read as written (as with --strict), with a note.  Coups, never seconds: the same file
#: always gives the same findings.
RECOVERY_COUPS_PER_COUP = 60
RECOVERY_START = 30
