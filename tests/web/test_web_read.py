"""``POST /api/read``: a screenshot read as a board in a worker, its unsure cells listed,
a lost game or a picture with no board answered with the reason, the size limit kept."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("PIL")

with warnings.catch_warnings():  # starlette's notice about httpx versions
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient

from webtest_helpers import error_of

from minesolver.web import Settings, create_app

DATA = Path(__file__).resolve().parents[1] / "data" / "vision"
SETTINGS = Settings(
    workers=1, fast_workers=1, read_budget=600.0, queue_wait=30.0, max_image=400_000
)
"""A read's safety deadline far above any read's time on a loaded machine: what load can
change is never asserted."""


def truth(name: str) -> tuple[str | None, list[str]]:
    lines = (DATA / f"{name}.txt").read_text().split()
    head = lines[0] if "x" in lines[0] and lines[0][0].isdigit() else None
    return head, lines[1:] if head else lines


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(SETTINGS)) as c:
        yield c


def test_a_screenshot_of_our_page_is_read(client: TestClient) -> None:
    head, rows = truth("web-every-b")
    r = client.post("/api/read", content=(DATA / "web-every-b.png").read_bytes())
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["skin"] == "web" and body["rows"] == rows and body["unsure"] == []
    assert (body["width"], body["height"], body["mines"], body["mines_from"]) == (
        16,
        16,
        40,
        "level",
    )
    assert body["problem"] is None and body["position"].split() == [head, *rows]


def test_a_lost_game_is_read_with_the_reason(client: TestClient) -> None:
    _, rows = truth("web-beginner-lost-15")
    r = client.post("/api/read", content=(DATA / "web-beginner-lost-15.png").read_bytes())
    body = r.json()
    assert body["rows"] == rows and body["lost"] is True and body["position"] is None
    assert body["problem"].startswith("the game is lost")


def test_the_total_given_and_a_bad_total(client: TestClient) -> None:
    data = (DATA / "web-every-b.png").read_bytes()
    assert client.post("/api/read?mines=41", content=data).json()["mines_from"] == "given"
    error_of(client.post("/api/read?mines=many", content=data), 400, "bad_field")


def test_what_is_no_board_is_a_422_with_the_reason(client: TestClient) -> None:
    detail = error_of(client.post("/api/read", content=b"not an image"), 422, "unreadable_image")
    assert "not an image" in detail
    error_of(client.post("/api/read", content=b""), 422, "unreadable_image")
    from io import BytesIO

    from PIL import Image

    buffer = BytesIO()
    Image.new("RGB", (300, 200), (40, 90, 160)).save(buffer, "PNG")
    detail = error_of(client.post("/api/read", content=buffer.getvalue()), 422, "unreadable_image")
    assert detail.startswith("no board found")


def test_a_decompression_bomb_is_a_422_with_the_reason(client: TestClient) -> None:
    """A 20000x20000 PNG of 50 kB: refused from its header, in the worker, not decoded."""
    from io import BytesIO

    from PIL import Image

    buffer = BytesIO()
    Image.new("1", (20000, 20000)).save(buffer, "PNG")
    bomb = buffer.getvalue()
    assert len(bomb) < 400_000
    detail = error_of(client.post("/api/read", content=bomb), 422, "unreadable_image")
    assert "exceeds the limit of 40000000 pixels" in detail


def test_an_image_over_the_limit_is_a_413(client: TestClient) -> None:
    error_of(client.post("/api/read", content=b"\0" * 400_001), 413, "body_too_large")
    assert client.get("/api/levels").json()["limits"]["max_image"] == 400_000


def test_the_document_declares_it(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    op = document["paths"]["/api/read"]["post"]
    assert "application/octet-stream" in op["requestBody"]["content"]
    assert set(op["responses"]) == {"200", "400", "413", "422", "429", "503"}
    assert "unreadable_image" in json.dumps(document)


def test_a_read_is_held_to_the_read_budget_not_the_analyses() -> None:
    """A server whose analyses may take a millisecond still reads a screenshot: a read's
    work is bounded by the reader itself, and its budget (``read_budget``) is a safety
    deadline far above it, so the page never refuses an image the command line reads."""
    assert Settings().read_budget > Settings().budget  # the defaults
    settings = Settings(workers=1, fast_workers=1, budget=0.001, read_budget=600.0)
    with TestClient(create_app(settings)) as c:
        r = c.post("/api/read", content=(DATA / "web-every-b.png").read_bytes())
    assert r.status_code == 200, r.text
    assert r.json()["rows"] == truth("web-every-b")[1]
