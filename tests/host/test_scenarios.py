"""Every rule scenario in tests/scenarios (docs/scenarios.md) through the firmware over
the emulated serial link: each must pass.  Steps marked as a known firmware bug must
still show the bug (so the mark comes off when the bug is fixed); each is reported as a
warning."""

import warnings
from pathlib import Path

import pytest

from host_tools.scenario import load, run_file

HERE = Path(__file__).resolve().parents[1] / "scenarios"
SCENARIOS = sorted(HERE.glob("*.json"))
# What no rule covers, the devices' failures such as a power cut.
DEVICE_SCENARIOS = sorted((HERE / "devices").glob("*.json"))


def test_there_is_a_scenario_per_rule_and_each_cites_its_section():
    assert len(SCENARIOS) >= 16
    for path in SCENARIOS:
        sc = load(path)
        assert ("13:47-" in sc["rule"] or "19:47-" in sc["rule"]
                or "13:69F-" in sc["rule"]), path.name


@pytest.mark.parametrize("path", SCENARIOS + DEVICE_SCENARIOS,
                         ids=[p.stem for p in SCENARIOS + DEVICE_SCENARIOS])
def test_scenario(path):
    result = run_file(path)
    for line in result.lines(path.name):
        if "known firmware bug" in line:
            warnings.warn(line)
    assert result.passed, "\n".join(result.lines(path.name, known=False))
