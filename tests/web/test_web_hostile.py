"""Hostile and careless input: every body gets an answer below 500 (or a 503 for load),
with the reason; solved positions answer "no move left"; contradictory fields are refused.

The fuzzing is bounded: a fixed number of hypothesis examples over JSON bodies built from
the API's own field names and values chosen to reach deep into the handlers.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient

from webtest_helpers import KNOWN, error_of

from minesolver.web import Settings, create_app

SETTINGS = Settings(workers=1, budget=2.0, queue_wait=20.0)
HUGE_HEADER = "9" * 5000 + "x1x1"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(SETTINGS), raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize(
    "raw",
    [
        "[" * 30_000 + "]" * 30_000,
        '{"position": ' + "[" * 30_000 + "]" * 30_000 + "}",
        '{"position": ' + '{"a":' * 10_000 + "1" + "}" * 10_001,
    ],
    ids=["array", "in-a-field", "objects"],
)
def test_deeply_nested_json_is_a_400(client: TestClient, raw: str) -> None:
    r = client.post("/api/analyze", content=raw, headers={"Content-Type": "application/json"})
    assert "nested too deeply" in error_of(r, 400, "bad_json")


def test_a_header_of_thousands_of_digits_is_refused_naming_line_1(client: TestClient) -> None:
    r = client.post("/api/analyze", json={"position": HUGE_HEADER + "\nH\n"})
    detail = error_of(r, 422, "malformed_position")  # the characters of a position
    assert detail.startswith("line 1:") and "5000 digits" in detail
    assert len(detail) < 200


def test_a_level_of_thousands_of_digits_is_a_short_400(client: TestClient) -> None:
    r = client.post("/api/games", json={"level": HUGE_HEADER})
    detail = error_of(r, 400, "bad_level")
    assert "5004 characters" in detail and len(detail) < 200
    r = client.post("/api/games", json={"width": 10**30, "height": 1, "mines": 1})
    assert r.status_code == 400 or r.status_code == 422, r.text


def test_mines_and_density_together_are_refused(client: TestClient) -> None:
    r = client.post("/api/analyze", json={"position": KNOWN, "mines": 5, "density": "0.2"})
    assert "not both" in error_of(r, 400, "bad_field")


@pytest.mark.parametrize("text", ["1x1x0\n0\n", "2x1x1\nH1\n", "3x1x2\nF2H\n", "2x2x1\n11\nF1\n"])
def test_a_solved_position_has_no_move_left(client: TestClient, text: str) -> None:
    r = client.post("/api/analyze", json={"position": text})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["move"] is None
    assert body["no_move"].startswith("no move left")
    assert all(cell["p"] == "1" for cell in body["cells"])


def test_a_position_with_a_move_says_nothing_of_no_move(client: TestClient) -> None:
    body = client.post("/api/analyze", json={"position": KNOWN}).json()
    assert body["move"] is not None and "no_move" not in body
    unknown_total = client.post("/api/analyze", json={"position": "H1H\n", "density": "0.2"})
    assert unknown_total.json()["move"] is None and "no_move" not in unknown_total.json()


# -- fuzzing ------------------------------------------------------------------------------

_INTERESTING = [
    "1x1x0\n0",
    KNOWN,
    HUGE_HEADER,
    "9x9x99\nH",
    "open",
    "flag",
    "chord",
    "exact",
    "bp",
    "brute",
    "beginner",
    "2x2x9",
    "safe",
    "0.5",
    "1/0",
    "nan",
    "inf",
]
_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-(10**40), 10**40)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(_INTERESTING),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=5,
)
_KEYS = st.sampled_from(
    [
        "position",
        "mines",
        "density",
        "trust_flags",
        "engine",
        "level",
        "width",
        "height",
        "rule",
        "seed",
        "kind",
        "x",
        "y",
    ]
)
_BODIES = st.dictionaries(_KEYS, _VALUES, max_size=5).map(json.dumps) | st.sampled_from(
    ["", "null", "[]", "1e999999", '"\\ud800"', "{", "\xff", '{"position": 1e400}']
)


@pytest.fixture(scope="module")
def game_id(client: TestClient) -> str:
    return str(client.post("/api/games", json={"level": "beginner", "seed": 3}).json()["id"])


@pytest.mark.slow
def test_no_body_makes_a_server_error(client: TestClient, game_id: str) -> None:
    paths = [
        "/api/analyze",
        "/api/tile",
        "/api/games",
        f"/api/games/{game_id}/move",
        f"/api/games/{game_id}/ai",
    ]

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(paths), _BODIES)
    def post(path: str, raw: str) -> None:
        headers = {"Content-Type": "application/json"}
        r = client.post(path, content=raw.encode("utf-8", "surrogatepass"), headers=headers)
        assert r.status_code < 500 or r.status_code == 503, (path, raw, r.text)
        body = r.json()
        if r.status_code >= 400:
            where = set(body) - {"error", "detail"}  # a malformed position says where
            assert {"error", "detail"} <= set(body) and body["detail"]
            assert not where or (
                body["error"] == "malformed_position" and where <= {"line", "column"}
            )
            assert all(isinstance(body[k], int) and body[k] >= 1 for k in where)
            assert "Traceback" not in r.text

    post()


# -- games --------------------------------------------------------------------------------


def test_a_client_creating_many_games_evicts_only_its_own() -> None:
    app = create_app(Settings(workers=1, max_games=50, games_per_client=5))
    with (
        TestClient(app, client=("10.1.0.1", 4000)) as careful,
        TestClient(app, client=("10.1.0.2", 4000)) as greedy,
    ):
        mine = [careful.post("/api/games", json={}).json()["id"] for _ in range(5)]
        made = [greedy.post("/api/games", json={}) for _ in range(200)]
        assert all(r.status_code == 201 for r in made)
        for game_id in mine:
            assert careful.get(f"/api/games/{game_id}").status_code == 200
        assert greedy.get(f"/api/games/{made[-1].json()['id']}").status_code == 200
        error_of(greedy.get(f"/api/games/{made[0].json()['id']}"), 404, "game_not_found")
        assert app.state.api.games.owned("10.1.0.2") == 5
        seeded = careful.post("/api/games", json={"seed": 9}).json()
        assert seeded["seeded"] is True
        assert careful.post("/api/games", json={}).json()["seeded"] is False
