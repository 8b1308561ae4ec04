"""Shared test settings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
RULES_MD = ROOT.parent / "shared" / "rules" / "RULES.md"

# CI runs a fixed, moderate number of examples; locally HYPOTHESIS_PROFILE=dev gives more.
settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "dev",
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` (long corpora, the 200 kills, big differential runs) run on
    demand: ``TRICTRAC_SLOW=1 python -m pytest -m slow``.  The default run stays inside CI's
    15 minutes."""
    if os.environ.get("TRICTRAC_SLOW"):
        return
    skip = pytest.mark.skip(reason="on demand: TRICTRAC_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
