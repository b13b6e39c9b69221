"""felt-floor bench (host_tools/bench/floor.py, issue 23, item 6), small: a few tables
replayed on a real broker, every event stored, the figures in one JSON line."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools.floorlink import records
from host_tools.bench.floor import record


def test_the_recorded_rounds_each_end_with_the_tables_end_event_and_its_public_record():
    rounds, pages = record(rounds=3)
    assert len(rounds) == len(pages) == 3
    for frames, said in zip(rounds, pages):
        ends = [p for kind, p in frames if kind == "evt" and p["e"] == "end"]
        assert len(ends) == 1, ends
        # The board's answers for the round's record: that round's, page by page.
        assert said[0]["format"] == "phh" and said[0]["hand"] == ends[0]["hand"]
        assert {said[start]["hand"] for start in said} == {ends[0]["hand"]}
        # Many tables replay it: its record the same each time.
        texts = {records.of_round(lambda k, start: said[start], ends[0]["hand"])
                 for _ in range(2)}
        assert len(texts) == 1


@pytest.mark.slow       # half a minute
def test_a_few_tables_replayed_lose_nothing_and_say_their_figures():
    felt_floor = Path(sys.executable).with_name("felt-floor")
    r = subprocess.run([str(felt_floor), "bench", "--tables", "6", "--minutes", "0.25",
                        "--round-s", "5"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    figures = json.loads(r.stdout)
    assert figures["tables"] == 6 and figures["lost"] == 0 and figures["left_in_spools"] == 0
    assert figures["events_stored"] == figures["events_published"] > 500
    assert figures["rounds"] >= 12 and figures["db_bytes_per_1000_rounds"] > 0
    assert figures["records"] == figures["rounds"]      # each round with its record
    assert 0 < figures["stored_p50_s"] <= figures["stored_p99_s"]
    assert 0 < figures["page_p50_s"] <= figures["page_p99_s"]
