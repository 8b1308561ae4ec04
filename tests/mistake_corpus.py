"""Records with the table's mistakes and the record's typos, for the differential tests
of the verifier's fast paths (issue 17): self-played parties (douze trous and à écrire)
with ``replay/generate/inject.py``'s mistakes, half of them with a typo of ``bench/typo_bench.py``
too, and the profiles to verify them under besides their own."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from trictrac.bench.typo_bench import KINDS as TYPO_KINDS
from trictrac.bench.typo_bench import make_typo
from trictrac.notation.reader import parse_text
from trictrac.notation.record import Record
from trictrac.notation.writer import write_record
from trictrac.replay.generate.inject import inject
from trictrac.replay.generate.selfplay import play_partie
from trictrac.replay.rules.profiles import DEFAULT_PROFILE, Profile, find_profile

#: profiles the records are verified under besides their own (other movement laws)
OTHER_PROFILES: tuple[Profile | None, ...] = (
    None,  # the record's own (its Profile header)
    replace(DEFAULT_PROFILE, rest_on_own_empty_coin=True),
    replace(DEFAULT_PROFILE, sortant_must_bear_off=True, defaillant_rearmost=True),
    find_profile("lebrun-1828"),
)


def mistaken_records(parties: int, seed: int) -> Iterator[tuple[Record, str]]:
    """(record, how) pairs: each partie with injected mistakes, half of them with a typo too."""
    for i in range(parties):
        rng = random.Random(seed + i)
        rec = play_partie(rng, "a-ecrire" if i % 2 else "douze-trous")
        bad, done = inject(rec, 8, rng)
        how = f"partie {i}: {len(done)} injected"
        if i % 2:
            kind = TYPO_KINDS[(i // 2) % len(TYPO_KINDS)]
            typo = make_typo(write_record(bad), kind, rng)
            if typo is not None:
                records, _diags = parse_text(typo[0])
                if records:
                    bad, how = records[0], f"{how}, typo {kind} on line {typo[1].line}"
        yield bad, how
