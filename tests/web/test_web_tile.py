"""``POST /api/tile``: one hidden cell's digit chances, opening and progress, exactly as
listing every layout gives them; bad cells and hostile requests refused with the reason.

The server runs in-process (Starlette's test client) with real worker processes.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from gen import Cut, ci_settings, game_positions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tile_oracle import layouts, tile_truth

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient

from webtest_helpers import KNOWN, error_of, hard_position

from minesolver.analysis import analyze
from minesolver.position import HIDDEN, Position
from minesolver.strategy.outcomes import tile_outcomes
from minesolver.web import Settings, create_app

SETTINGS = Settings(workers=1, budget=0.5, queue_wait=20.0)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(SETTINGS), raise_server_exceptions=False) as c:
        yield c


def tile(client: TestClient, text: str, x: int, y: int, **more: Any) -> dict[str, Any]:
    r = client.post("/api/tile", json={"position": text, "x": x, "y": y, **more})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def check_consistent(body: dict[str, Any]) -> None:
    """The answer's own arithmetic: digits add up to safe = 1 - p, the opening is the
    chance of a 0, progress is at most safe, the floats copy the fractions."""
    p, safe = Fraction(body["p"]), Fraction(body["safe"])
    digits = {int(d): Fraction(v) for d, v in body["digits"].items()}
    assert safe == 1 - p
    assert sum(digits.values(), Fraction(0)) == safe
    assert all(v > 0 for v in digits.values()) and set(digits) <= set(range(9))
    assert Fraction(body["opening"]) == digits.get(0, 0)
    assert 0 <= Fraction(body["progress"]) <= safe
    floats = body["floats"]
    for key in ("p", "safe", "opening", "progress"):
        assert floats[key] == float(Fraction(body[key]))
    assert floats["digits"] == {d: float(Fraction(v)) for d, v in body["digits"].items()}


@settings(
    ci_settings(25),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(game_positions(max_side=5, budget=1500, frontier=True))
def test_digits_equal_the_enumeration(client: TestClient, cut: Cut) -> None:
    position = cut.position
    text = position.to_text()
    every = layouts(position)
    hidden = [position.coords(i) for i, v in enumerate(position.cells) if v == HIDDEN]
    for cell in hidden[:: max(1, len(hidden) // 5)]:
        body = tile(client, text, *cell)
        truth = tile_truth(position, cell, every)
        check_consistent(body)
        assert (body["x"], body["y"]) == cell
        assert body["layouts"] == str(len(every))
        assert Fraction(body["p"]) == truth.mine, (cell, text)
        assert {int(d): Fraction(v) for d, v in body["digits"].items()} == truth.digits
        assert Fraction(body["progress"]) == truth.progress, (cell, text)


def test_the_design_example(client: TestClient) -> None:
    body = tile(client, KNOWN, 4, 0)
    check_consistent(body)
    assert body["p"] == "11/36" and body["layouts"] == "72"
    assert body["digits"] == {"0": "1/12", "1": "1/3", "2": "1/4", "3": "1/36"}
    assert body["opening"] == "1/12" and body["progress"] == "1/9"
    mine = tile(client, "3x1x1\n1HH\n", 1, 0)  # a certain mine shows nothing
    assert mine["p"] == "1" and mine["digits"] == {} and mine["progress"] == "0"
    # the engine and the mines field are read as in /api/analyze; the engine is ignored
    same = tile(client, KNOWN.split("\n", 1)[1], 4, 0, mines=5, engine="bp")
    assert same["digits"] == body["digits"] and same["progress"] == body["progress"]


def test_untrusted_flags_are_unknown_cells(client: TestClient) -> None:
    text = "4x2x2\nF2HH\nHHHH\n"
    body = tile(client, text, 0, 0, trust_flags=False)  # the flag itself may be asked about
    expected = tile_outcomes(analyze(Position.from_text("4x2x2\nH2HH\nHHHH\n")), (0, 0))
    assert Fraction(body["p"]) == expected.mine
    assert {int(d): Fraction(v) for d, v in body["digits"].items()} == dict(expected.digits)
    trusted = tile(client, text, 2, 0)
    check_consistent(trusted)


@pytest.mark.parametrize(
    ("fields", "code", "words"),
    [
        ({"x": 5, "y": 0}, "bad_cell", "cell (5, 0) is off the 5x5 board"),
        ({"x": 0, "y": -1}, "bad_cell", "cell (0, -1) is off the 5x5 board"),
        ({"x": 10**30, "y": 0}, "bad_cell", "is off the 5x5 board"),
        ({"x": 1, "y": 0}, "bad_cell", "cell (1, 0) is not hidden: it shows the digit 2"),
        ({"x": 0, "y": 4}, "bad_cell", "cell (0, 4) is not hidden: it shows the digit 0"),
        ({"y": 0}, "missing_field", "field 'x' is required"),
        ({"x": "1", "y": 0}, "bad_field", "field 'x' must be int"),
        ({"x": True, "y": 0}, "bad_field", "field 'x' must be int"),
    ],
)
def test_bad_cells_are_refused_with_the_reason(
    client: TestClient, fields: dict[str, Any], code: str, words: str
) -> None:
    r = client.post("/api/tile", json={"position": KNOWN, **fields})
    detail = error_of(r, 422 if code == "bad_cell" else 400, code)
    assert words in detail and len(detail) < 200


def test_a_flag_is_not_hidden(client: TestClient) -> None:
    r = client.post("/api/tile", json={"position": "3x1x1\n1FH\n", "x": 1, "y": 0})
    assert "it shows a flag" in error_of(r, 422, "bad_cell")


def test_a_density_gives_no_digit_chances(client: TestClient) -> None:
    r = client.post("/api/tile", json={"position": "1HH\nHHH\n", "density": "0.2", "x": 2, "y": 1})
    assert "need the total number of mines" in error_of(r, 422, "mines_unknown")


def test_hostile_sizes_are_refused_before_any_work(client: TestClient) -> None:
    wide = "101x1x1\n" + "H" * 101 + "\n"
    r = client.post("/api/tile", json={"position": wide, "x": 0, "y": 0})
    assert "limit of 100 per side" in error_of(r, 422, "board_too_large")
    many = "80x80x10\n" + ("H" * 80 + "\n") * 80
    r = client.post("/api/tile", json={"position": many, "x": 0, "y": 0})
    assert "6400 cells" in error_of(r, 422, "board_too_large")
    r = client.post("/api/tile", json={"position": "H" * 70_000, "x": 0, "y": 0})
    error_of(r, 413, "body_too_large")
    r = client.post("/api/tile", json={"position": KNOWN, "mines": 26, "x": 0, "y": 0})
    assert "do not fit" in error_of(r, 422, "inconsistent_position")


def test_a_hard_position_stops_at_the_budget(client: TestClient) -> None:
    text = hard_position()
    position = Position.from_text(text)
    x, y = position.coords(position.cells.index(HIDDEN))
    r = client.post("/api/tile", json={"position": text, "x": x, "y": y})
    # the server's budget stops it (503), or the native count refuses first for the
    # memory it would take (422), whichever comes first on this machine's load
    if r.status_code == 422:
        assert "in memory" in error_of(r, 422, "engine_limit_exceeded")
    else:
        assert "budget of 0.5 s" in error_of(r, 503, "compute_budget_exceeded")
    check_consistent(tile(client, KNOWN, 4, 4))  # the server goes on


def test_the_moves_of_an_analysis_say_why_in_plain_words(client: TestClient) -> None:
    # no certain cell and too many layouts for the endgame search: best weighs its guess
    guess = "8x8x12\n" + "HHHHHHHH\n" * 3 + "HHH2HHHH\n" + "HHHHHHHH\n" * 4
    r = client.post("/api/analyze", json={"position": guess})
    assert r.status_code == 200, r.text
    move = r.json()["move"]
    assert move["guess"] and "score" in move["reason"]  # the raw reason, for machines
    assert "score" not in move["why"] and "P(" not in move["why"]
    assert "%" in move["why"]


@settings(
    ci_settings(60),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    st.integers(-2, 6) | st.integers(-(10**40), 10**40),
    st.integers(-2, 6) | st.integers(-(10**40), 10**40),
)
def test_any_cell_is_answered_or_refused_naming_it(client: TestClient, x: int, y: int) -> None:
    r = client.post("/api/tile", json={"position": KNOWN, "x": x, "y": y})
    hidden = 0 <= x < 5 and 0 <= y < 5 and KNOWN.splitlines()[1 + y][x] == "H"
    if hidden:
        assert r.status_code == 200, r.text
        check_consistent(r.json())
    else:
        assert f"cell ({x}, {y}) is " in error_of(r, 422, "bad_cell")
