"""A marqué won after a refait is worth more (003 §226), and the partie's winner is read
from those values: the verifier must take the refait into the value it sums, not only into
the value it checks on the ``résultat`` line (a self-play partie once got a false
``result-mismatch``: ``Result "A 2-2"`` read as 12-12 instead of 14-12)."""

import re

from trictrac.bench.corpus import _game_text
from trictrac.replay.verifier.verify import verify_text


def test_value_after_a_refait_counts_in_the_partie_result() -> None:
    # a self-play partie with a refait followed by a decided marqué (found by scanning (1, i))
    text, _coups = _game_text((1, 159, "a-ecrire"))
    lines = re.findall(r"^résultat (refait|[AB]) .*?(?:valeur (\d+))?$", text, flags=re.M)
    kinds = [k for k, _v in lines]
    assert "refait" in kinds and kinds.index("refait") < len(kinds) - 1, "the case is gone: pick another game"
    (report,) = verify_text(text)
    assert [f.kind for f in report.findings] == []
    # the verifier's value of every decided marqué is the one the score sheet carries
    assert [m["value"] for m in report.marques if m["winner"]] == [int(v) for k, v in lines if k != "refait"]
    values = {"A": 0, "B": 0}
    for k, v in lines:
        if k != "refait":
            values[k] += int(v)
    head = re.search(r'^\[Result "([AB=]) ', text, flags=re.M)
    best = "=" if values["A"] == values["B"] else max(values, key=lambda s: values[s])
    assert head is not None and head.group(1) == best
