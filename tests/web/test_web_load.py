"""Fairness under load, on a real server over loopback: greedy clients posting hard
positions on many connections at once get 429s or 503s; the easy clients, each on its own
address, get every answer. What is asserted is what fairness guarantees, never a time."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from loadtest import free_port, run_load, serve
from webtest_helpers import KNOWN, hard_position

EXPERT = (Path(__file__).parents[2] / "examples" / "expert-midgame.txt").read_text()


@pytest.mark.slow
def test_greedy_clients_get_refused_and_easy_clients_get_answers() -> None:
    port = free_port()
    server = serve(port, workers=2, budget=2.0)
    try:
        result = run_load(
            port,
            hard_position(60),
            [KNOWN, EXPERT],
            hard_clients=3,
            hard_streams=4,
            easy_clients=2,
            seconds=8.0,
        )
    finally:
        server.kill()
        server.wait(timeout=10)
    easy, hard = result.statuses("easy"), result.statuses("hard")
    assert sum(easy.values()) >= 10, easy
    assert set(easy) == {200}, easy  # every easy request answered
    # each greedy client sends 4 at once: one runs, two wait, the fourth is refused
    assert hard[429] >= 3, hard
    # refused by the gate (429), stopped at the budget (503), or refused by the engine as
    # beyond its memory bound (422)
    assert set(hard) <= {422, 429, 503}, hard
    refused = {r.client for r in result.of("hard") if r.status == 429}
    assert refused == {"127.0.0.2", "127.0.0.3", "127.0.0.4"}
