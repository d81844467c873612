"""The web app: a Starlette JSON API for analysis and games, and the static page.

Routes (described for machines by :mod:`minesolver.web.openapi` at ``/openapi.json``):

- ``POST /api/analyze``: probabilities, layout count, certain cells and the best move;
- ``POST /api/tile``: one hidden cell's exact digit chances, opening and progress;
- ``GET /api/levels``: presets, first-click rules and the server's limits;
- ``POST /api/games``, ``GET|DELETE /api/games/{id}``, ``POST /api/games/{id}/move``,
  ``GET /api/games/{id}/hint``, ``POST /api/games/{id}/ai``: games kept on the server;
- ``GET /api/games/{id}/replay`` and ``GET /api/games/{id}/review``: a finished game as
  an EVF file, and graded move by move;
- ``POST /api/replays``: a replay file graded move by move;
- ``POST /api/read``: a screenshot read as a board (:mod:`minesolver.vision`);
  ``POST /api/reads`` starts the same read in the background and ``GET /api/reads/{id}``
  tells its stage, then its answer (:mod:`minesolver.web.reads`: what the page uses, to
  show the board read before its analysis).

Every error is a JSON body ``{"error": CODE, "detail": MESSAGE}`` with a 4xx status (429
when a client exceeds its share of the workers, 503 when the compute budget is exceeded or
every worker is busy); no stack trace ever leaves the server. Analyses and players' moves
run in worker processes (:mod:`minesolver.web.compute`), cheap ones in a fast lane of
their own, shared fairly among clients (:mod:`minesolver.web.fairness`); screenshots are
read in workers of their own (:mod:`minesolver.web.reads`); games' own moves are cheap
and run on a thread. The limits are :class:`~minesolver.web.settings.Settings`.
"""

from __future__ import annotations

import base64
import json
import logging
import re
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from minesolver.engines import ENGINES
from minesolver.game import (
    FIRST_CLICK_RULES,
    PRESETS,
    GameError,
    Layout,
    Level,
    check_level,
    parse_level,
    read_mbf,
    write_mbf,
)
from minesolver.noguess import NoGuessError
from minesolver.position import Position, PositionFormatError
from minesolver.replay.efficiency import MIN_CLICKS_SECONDS
from minesolver.replay.evf_write import write_evf
from minesolver.strategy.outcomes import TileError, check_tile_cell
from minesolver.web import openapi as spec
from minesolver.web.compute import (
    BudgetExceeded,
    JobCrashed,
    JobError,
    MemoryExceeded,
    ServerBusy,
    WorkerPool,
)
from minesolver.web.errors import ApiError, choice, http_error
from minesolver.web.fairness import Cost, FairGate, TooManyRequests, estimate_cost
from minesolver.web.games import GameStore, StoredGame, game_state
from minesolver.web.reads import Reader, ReadJob, ReadJobs
from minesolver.web.settings import REPLAY_CLICKS_SHARE, Settings

__all__ = ["ApiError", "Settings", "create_app"]

log = logging.getLogger("minesolver.web")
STATIC = Path(__file__).parent / "static"

_MAX_LEVEL_TEXT = 64
"""Longest level text read (a level name or ``WxHxM`` is far shorter); longer is a 400."""
_LEVEL_TEXT = re.compile(spec.LEVEL_PATTERN)


def _player_name(request: Request) -> str:
    """The ``?player=`` name a game's replay carries (at most 100 characters)."""
    return request.query_params.get("player", "")[:100]


def _error_response(
    status: int, code: str, detail: str, where: dict[str, int] | None = None
) -> JSONResponse:
    headers = {"Retry-After": "5"} if code in ("busy", "too_many_requests") else None
    body: dict[str, object] = {"error": code, "detail": detail, **(where or {})}
    return JSONResponse(body, status_code=status, headers=headers)


def _library_error(exc: Exception) -> ApiError:
    """The answer to one of the library's errors, by its class (:mod:`.errors`): e.g. 400
    ``malformed_position`` with the ``line`` and ``column`` of the text it names."""
    status, code, where = http_error(exc)
    return ApiError(status, code, str(exc), where)


def _malformed(exc: PositionFormatError, text: str) -> ApiError:
    """``malformed_position``, with the ``line`` and ``column`` of the text it names: a
    422 when the text keeps to the OpenAPI document's pattern (its characters are right,
    its shape is not), else a 400."""
    status, code, where = http_error(exc)
    if re.fullmatch(spec.POSITION_PATTERN, text):
        status = 422
    return ApiError(status, code, str(exc), where)


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return _error_response(exc.status, exc.code, exc.detail, exc.where)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    response = _error_response(exc.status_code, code, str(exc.detail))
    response.headers.update(exc.headers or {})  # a 405 says which methods are allowed
    return response


async def _server_error(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return _error_response(500, "internal", "internal server error")


# -- request bodies -----------------------------------------------------------------------


async def _read_body(request: Request, limit: int) -> bytes:
    """The body's bytes, refused (413) past ``limit`` bytes before reading it all."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ApiError(413, "body_too_large", f"request body of {declared} bytes exceeds {limit}")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, "body_too_large", f"request body exceeds {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def _read_json(request: Request, limit: int) -> dict[str, Any]:
    """The body as a JSON object, refused (413) past ``limit`` bytes before reading it all."""
    raw = await _read_body(request, limit)
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError(400, "bad_json", f"request body is not valid JSON: {exc}") from None
    except RecursionError:
        raise ApiError(
            400, "bad_json", "request body is nested too deeply to read as JSON"
        ) from None
    if not isinstance(body, dict):
        raise ApiError(400, "bad_json", "request body must be a JSON object")
    return body


def _field(body: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any) -> Any:
    """``body[name]`` (or ``default`` when absent or null) checked against ``kind``."""
    value = body.get(name)
    if value is None:
        return default
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if int in kinds and isinstance(value, float) and value.is_integer():
        value = int(value)  # JSON has one number type: 3.0 is the integer 3
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        names = " or ".join("boolean" if k is bool else k.__name__ for k in kinds)
        raise ApiError(400, "bad_field", f"field {name!r} must be {names}")
    return value


def _required(body: dict[str, Any], name: str, kind: type) -> Any:
    """``body[name]``, which must be present and of type ``kind``."""
    if body.get(name) is None:
        raise ApiError(400, "missing_field", f"field {name!r} is required")
    return _field(body, name, kind, None)


def client_address(request: Request) -> str:
    """The client's address: the TCP peer's (a proxy in front should keep one address
    per user, or every user behind it shares one client's limits)."""
    return request.client.host if request.client is not None else "unknown"


def _check_size(width: int, height: int, settings: Settings, what: str) -> None:
    if width > settings.max_side or height > settings.max_side:
        raise ApiError(
            422,
            "board_too_large",
            f"{what} {width}x{height} exceeds this server's limit of {settings.max_side} per side",
        )
    if width * height > settings.max_cells:
        raise ApiError(
            422,
            "board_too_large",
            f"{what} {width}x{height} has {width * height} cells, more than this server's "
            f"limit of {settings.max_cells}",
        )


# -- the application ----------------------------------------------------------------------


@dataclass(frozen=True)
class _Lane:
    """Workers and the gate that shares them among clients."""

    pool: WorkerPool
    gate: FairGate

    async def run(
        self, client: str, job: str, kwargs: dict[str, Any], budget: float | None = None
    ) -> Any:
        async with self.gate.admit(client):
            return await self.pool.run(job, budget=budget, **kwargs)


class _Api:
    """The endpoints, sharing the settings, the worker pools and the game store."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pool = WorkerPool(
            settings.workers,
            settings.budget,
            settings.queue_wait,
            settings.memory_mb,
            nice=settings.heavy_nice,
        )
        """The expensive lane's workers."""
        self.fast_pool = WorkerPool(
            settings.fast_workers, settings.fast_budget, settings.queue_wait, settings.memory_mb
        )
        """The fast lane's workers (cheap requests only)."""
        self.heavy = _Lane(
            self.pool,
            FairGate(
                settings.workers, settings.client_jobs, settings.client_queue, settings.queue_wait
            ),
        )
        self.fast = _Lane(
            self.fast_pool,
            FairGate(
                settings.fast_workers,
                settings.client_jobs,
                settings.client_fast_queue,
                settings.queue_wait,
            ),
        )
        self.games = GameStore(
            settings.max_games, settings.game_ttl, per_owner=settings.games_per_client
        )
        self.reader = Reader(settings)
        """The screenshots' lane."""
        self.reads = ReadJobs(settings.max_reads, settings.client_reads, settings.read_ttl)
        """The reads started in the background (``/api/reads``)."""

    def _check_share(self, request: Request) -> None:
        """A 429 at once, before any work, for a client whose expensive share is full."""
        try:
            self.heavy.gate.refuse_if_full(client_address(request))
        except TooManyRequests as exc:
            raise ApiError(429, "too_many_requests", str(exc)) from None

    def _lanes(self, cost: Cost) -> list[_Lane]:
        """The lanes to try in order: the fast one first for a cheap request (the
        expensive one next, should the estimate be wrong), else the expensive one."""
        cheap = cost.cheap(self.settings.cheap_boxes, self.settings.cheap_frontier)
        return [self.fast, self.heavy] if cheap else [self.heavy]

    async def compute(
        self, request: Request, cost: Cost, job: str, budget: float | None = None, **kwargs: Any
    ) -> Any:
        """Run a job in a worker of the lane its ``cost`` picks, within the client's
        share (and ``budget`` seconds in the expensive lane, its own when ``None``),
        turning its failures into :class:`ApiError`."""
        client = client_address(request)
        *first, last = self._lanes(cost)
        try:
            for lane in first:
                try:
                    return await lane.run(client, job, kwargs)
                except BudgetExceeded:
                    log.info(
                        "job %s misjudged as cheap (%s): moved to the expensive lane", job, cost
                    )
            return await last.run(client, job, kwargs, budget)
        except TooManyRequests as exc:
            raise ApiError(429, "too_many_requests", str(exc)) from None
        except BudgetExceeded as exc:
            raise ApiError(503, "compute_budget_exceeded", str(exc)) from None
        except MemoryExceeded as exc:
            raise ApiError(503, "compute_memory_exceeded", str(exc)) from None
        except ServerBusy as exc:
            raise ApiError(503, "busy", str(exc)) from None
        except JobError as exc:  # classified in the worker, by the error's class
            raise ApiError(exc.status, exc.code, str(exc), exc.where) from None
        except JobCrashed:
            raise ApiError(500, "internal", "internal error during the computation") from None

    # -- replays ---------------------------------------------------------------------------

    async def replay(self, request: Request) -> Response:
        """Grade an uploaded replay file (the request body, any format the readers know):
        the summary, every action's grade, and each position with its analysis."""
        self._check_share(request)
        data = await _read_body(request, self.settings.max_replay)
        if not data:
            raise ApiError(422, "malformed_replay", "the request body holds no replay file")
        return JSONResponse(await self._grade(request, data))

    async def _grade(self, request: Request, data: bytes) -> Any:
        """A replay file's bytes graded in a worker (``?best=0`` leaves out the best
        player's moves): the report of ``minesolver replay --json`` with ``positions``."""
        flag = choice(request.query_params, "best", spec.BEST_VALUES, "1")
        best = flag not in ("0", "false", "no")
        cost = Cost(sys.maxsize, sys.maxsize)  # an analysis per action: the expensive lane
        encoded = base64.b64encode(data).decode("ascii")
        # the replay's own budget; the board's fewest clicks get the report's work budget
        # (the command line's figures) and a share of it as their safety deadline
        budget = self.settings.replay_budget
        clicks = min(MIN_CLICKS_SECONDS, budget * REPLAY_CLICKS_SHARE)
        return await self.compute(
            request, cost, "replay", budget, data=encoded, best=best, clicks_seconds=clicks
        )

    # -- screenshots -----------------------------------------------------------------------

    async def _image(self, request: Request) -> tuple[bytes, int | None]:
        """The screenshot of a read request (the body's bytes, at most ``max_image``) and
        its ``?mines=N``, the total when given."""
        text = request.query_params.get("mines")
        mines: int | None = None
        if text is not None:
            if not text.isdigit() or len(text) > 7:
                raise ApiError(400, "bad_field", f"mines={text[:20]!r}: expected a whole number")
            mines = int(text)
        data = await _read_body(request, self.settings.max_image)
        if not data:
            raise ApiError(422, "unreadable_image", "the request body holds no image")
        return data, mines

    async def _read(
        self, client: str, data: bytes, mines: int | None, job: ReadJob | None = None
    ) -> dict[str, Any]:
        """The image read in the readers' lane (:meth:`Reader.read`), its board checked
        against the limits."""
        result = await self.reader.read(client, data, mines, job)
        _check_size(result["width"], result["height"], self.settings, "board read")
        return result

    async def read(self, request: Request) -> Response:
        """A screenshot (the request body's bytes, at most ``max_image``) read as a board
        in a worker of the readers' lane (:func:`minesolver.web.jobs.read`): the cells
        read, the unsure ones with their candidates, and why the reading cannot be
        analysed as it is (``problem``). ``?mines=N`` gives the total; an image with no
        board is a 422 ``unreadable_image``."""
        client = client_address(request)
        self.reader.refuse_if_full(client)
        data, mines = await self._image(request)
        return JSONResponse(await self._read(client, data, mines))

    async def start_read(self, request: Request) -> Response:
        """``POST /api/reads``: the read of :meth:`read` started in the background; a 202
        with the job (``GET /api/reads/{id}``, also in ``Location``). A client with
        ``client_reads`` reads unfinished is refused (429) before its image is received."""
        client = client_address(request)
        self.reads.check(client)
        data, mines = await self._image(request)
        job = self.reads.start(client, lambda job: self._read(client, data, mines, job))
        location = f"/api/reads/{job.id}"
        return JSONResponse(job.json(), status_code=202, headers={"Location": location})

    async def read_state(self, request: Request) -> Response:
        """``GET /api/reads/{id}``: the read's state and latest stage, with the reading
        once done; a failed read answers the error ``POST /api/read`` would have (its
        status, code and detail, with the read's ``id``, ``state`` and ``stage``)."""
        key = str(request.path_params["read_id"])
        job = self.reads.get(key)
        if job is None:
            raise ApiError(
                404,
                "read_not_found",
                f"no read with id {key[:40]!r} (a finished read is kept "
                f"{self.settings.read_ttl:g} s)",
            )
        error = job.error
        if error is None:
            return JSONResponse(job.json())
        body = {"error": error.code, "detail": error.detail, **error.where}
        body |= {"id": job.id, "state": job.state, "stage": job.stage}
        return JSONResponse(body, status_code=error.status)

    # -- analysis --------------------------------------------------------------------------

    async def _position_request(
        self, request: Request
    ) -> tuple[dict[str, Any], Position, dict[str, Any]]:
        """The body of a request about a position (``/api/analyze``, ``/api/tile``), the
        position read from it (on a thread: up to ``max_body`` bytes of text) and checked
        against the limits, and the job's arguments ``text``, ``mines``, ``density`` and
        ``trust_flags``."""
        self._check_share(request)
        body = await _read_json(request, self.settings.max_body)
        text = _required(body, "position", str)
        mines = _field(body, "mines", int, None)
        density = _field(body, "density", (str, int, float), None)
        if mines is not None and density is not None:
            raise ApiError(400, "bad_field", "give either 'mines' or 'density', not both")
        trust_flags = _field(body, "trust_flags", bool, True)
        if density is not None:
            try:
                value = Fraction(str(density).strip())
            except (ValueError, ZeroDivisionError):
                raise ApiError(
                    400, "bad_field", f"density {density!r} is not a number (0.2 or 1/5)"
                ) from None
            if not 0 < value < 1:
                raise ApiError(
                    422, "bad_field", f"density {density} must be strictly between 0 and 1"
                )
        try:
            position = await run_in_threadpool(Position.from_text, text)
        except PositionFormatError as exc:
            raise _malformed(exc, text) from None
        _check_size(position.width, position.height, self.settings, "board")
        if mines is not None and not 0 <= mines <= position.width * position.height:
            raise ApiError(
                422,
                "inconsistent_position",
                f"mines {mines} do not fit a {position.width}x{position.height} board",
            )
        args = {
            "text": text,
            "mines": mines,
            "density": None if density is None else str(density),
            "trust_flags": trust_flags,
        }
        return body, position, args

    async def analyze(self, request: Request) -> Response:
        body, position, args = await self._position_request(request)
        engine = _field(body, "engine", str, "exact")
        if engine not in ENGINES:
            known = ", ".join(sorted(ENGINES))
            raise ApiError(400, "bad_field", f"engine {engine!r}: expected one of {known}")
        trust_flags = args["trust_flags"]
        cost = await run_in_threadpool(estimate_cost, position, trust_flags=trust_flags)
        result = await self.compute(
            request, cost, "analyse", **args, engine=engine, with_move=engine == "exact"
        )
        return JSONResponse(result)

    async def tile(self, request: Request) -> Response:
        """One hidden cell's tile information (:func:`minesolver.web.jobs.tile`): exact
        digit chances, opening and progress. A bad cell is a 400 before any work."""
        body, position, args = await self._position_request(request)
        _field(body, "engine", str, None)  # ignored, but a string when given
        cell = (_required(body, "x", int), _required(body, "y", int))
        if args["trust_flags"] is False:
            position = await run_in_threadpool(position.without_flags)
        try:
            check_tile_cell(position, cell)
        except TileError as exc:
            raise _library_error(exc) from None
        cost = await run_in_threadpool(estimate_cost, position)
        result = await self.compute(request, cost, "tile", **args, x=cell[0], y=cell[1])
        return JSONResponse(result)

    async def levels(self, request: Request) -> Response:
        presets = {
            name: {"width": lv.width, "height": lv.height, "mines": lv.mines}
            for name, lv in PRESETS.items()
        }
        return JSONResponse(
            {"presets": presets, "rules": list(FIRST_CLICK_RULES), "limits": self.settings.limits()}
        )

    # -- games -----------------------------------------------------------------------------

    def _level(self, body: dict[str, Any]) -> Level:
        """The level a new game asks for: ``level`` (a name or ``WxHxM``), or ``width``,
        ``height`` and ``mines`` together (beginner when neither). A text that is not a
        level is a 400; a level that is one but cannot be played (its mines do not fit,
        it is over the limits) a 422."""
        level_text = _field(body, "level", str, None)
        dims = {k: _field(body, k, int, None) for k in ("width", "height", "mines")}
        given = [k for k, v in dims.items() if v is not None]
        if given and len(given) < 3:
            missing = next(k for k, v in dims.items() if v is None)
            raise ApiError(400, "missing_field", f"field {missing!r} is required with {given[0]!r}")
        for key, least in (("width", 1), ("height", 1), ("mines", 0)):
            if dims[key] is not None and dims[key] < least:
                raise ApiError(400, "bad_field", f"field {key!r} must be at least {least}")
        if level_text is not None:
            if len(level_text) > _MAX_LEVEL_TEXT or not _LEVEL_TEXT.fullmatch(level_text):
                shown = (
                    repr(level_text)
                    if len(level_text) <= _MAX_LEVEL_TEXT
                    else f"of {len(level_text)} characters"
                )
                raise ApiError(
                    400,
                    "bad_level",
                    f"level {shown}: expected beginner, intermediate, expert or WIDTHxHEIGHTxMINES",
                )
        elif given:
            level_text = "{width}x{height}x{mines}".format(**dims)
        else:
            level_text = "beginner"
        try:
            level = parse_level(level_text)
        except GameError as exc:
            raise ApiError(422, "bad_level", str(exc)[:200]) from None
        _check_size(level.width, level.height, self.settings, "level")
        return level

    def _layout(self, body: dict[str, Any]) -> Layout | None:
        """The layout of an MBF file sent in base64 as ``layout`` (its first record), or
        ``None``. A text that is not base64, or bytes that are not MBF, are a 422."""
        text = _field(body, "layout", str, None)
        if text is None:
            return None
        try:
            data = base64.b64decode(text, validate=True)
        except ValueError:
            raise ApiError(422, "bad_layout", "field 'layout' is not base64") from None
        try:
            layout = read_mbf(data, "layout")[0]
        except GameError as exc:
            raise ApiError(422, "bad_layout", str(exc)[:300]) from None
        _check_size(layout.width, layout.height, self.settings, "layout")
        return layout

    async def new_game(self, request: Request) -> Response:
        body = await _read_json(request, self.settings.max_body)
        layout = self._layout(body)
        no_guess = _field(body, "no_guess", bool, False)
        if layout is not None:
            game_id, stored = self.games.create(
                layout.level, "none", None, client_address(request), layout=layout
            )
            return JSONResponse(game_state(game_id, stored), status_code=201)
        level = self._level(body)
        rule = _field(body, "rule", str, "safe")
        if rule not in FIRST_CLICK_RULES:
            known = ", ".join(FIRST_CLICK_RULES)
            raise ApiError(400, "bad_level", f"first-click rule {rule!r}: expected one of {known}")
        seed = _field(body, "seed", int, None)
        if seed is not None and not 0 <= seed < 2**63:
            raise ApiError(400, "bad_field", "field 'seed' must be between 0 and 2**63 - 1")
        try:
            # the centre protects the most cells: if the mines fit then, they fit anywhere
            check_level(level, (level.width // 2, level.height // 2), rule)
        except GameError as exc:
            raise ApiError(422, "bad_level", str(exc)) from None
        game_id, stored = self.games.create(
            level, rule, seed, client_address(request), no_guess=no_guess
        )
        return JSONResponse(game_state(game_id, stored), status_code=201)

    def _game(self, request: Request) -> tuple[str, StoredGame]:
        game_id = str(request.path_params["game_id"])
        stored = self.games.get(game_id)
        if stored is None:
            raise ApiError(
                404, "game_not_found", f"no game with id {game_id!r} (it may have expired)"
            )
        return game_id, stored

    async def game(self, request: Request) -> Response:
        """``GET`` a game's state or ``DELETE`` it."""
        if request.method == "DELETE":
            return await self.delete_game(request)
        return await self.get_game(request)

    async def get_game(self, request: Request) -> Response:
        game_id, stored = self._game(request)
        return JSONResponse(game_state(game_id, stored))

    @staticmethod
    def _running_allowed(request: Request) -> bool:
        """``?running=1``: the client asks for a running game's file, mines and all."""
        flag = choice(request.query_params, "running", spec.BEST_VALUES, "0")
        return flag in ("1", "true", "yes")

    @staticmethod
    def _layout_of(stored: StoredGame, what: str, running: bool) -> Layout:
        """The game's layout for a file (the lock is held): 409 while the game runs
        unless ``running`` (then the game is marked ``revealed``), or before its first
        open (no mines yet)."""
        game = stored.game
        if not game.over and not running:
            raise ApiError(
                409, "game_not_over", f"{what} holds its mines: finish it first (or ?running=1)"
            )
        if game.layout is None or (stored.from_layout and not stored.record):
            raise ApiError(409, "game_not_over", f"{what}: the game has no move yet")
        if not game.over and not stored.from_layout:
            stored.revealed = True
        return game.layout

    @classmethod
    def _game_evf(
        cls, stored: StoredGame, what: str, running: bool = False, player: str = ""
    ) -> bytes:
        """The game as EVF bytes (:meth:`StoredGame.replay`: the page's player's name, the
        rule's game mode), so that the file reviews as the page's review does."""
        with stored.lock:
            replay = stored.replay(cls._layout_of(stored, what, running), player)
        return write_evf(replay)

    async def game_replay(self, request: Request) -> Response:
        """The game as an EVF replay file (the mines are in it: once over, or while it
        runs with ``?running=1``, which marks the game ``revealed``)."""
        _, stored = self._game(request)
        running, player = self._running_allowed(request), _player_name(request)
        data = self._game_evf(stored, "a game's replay", running, player)
        return Response(
            data,
            media_type="application/octet-stream",
            headers={"Content-Disposition": 'attachment; filename="minesolver-game.evf"'},
        )

    async def game_layout(self, request: Request) -> Response:
        """The game's layout as an MBF file (same rules as its replay)."""
        _, stored = self._game(request)
        running = self._running_allowed(request)
        with stored.lock:
            data = write_mbf(self._layout_of(stored, "a game's layout", running))
        return Response(
            data,
            media_type="application/octet-stream",
            headers={"Content-Disposition": 'attachment; filename="minesolver-board.mbf"'},
        )

    async def game_review(self, request: Request) -> Response:
        """A finished game graded as its EVF replay would be by ``POST /api/replays``:
        every action from the position the player saw, the losing click's risk included."""
        self._check_share(request)
        _, stored = self._game(request)
        player = _player_name(request)
        data = await run_in_threadpool(self._game_evf, stored, "a game's review", False, player)
        return JSONResponse(await self._grade(request, data))

    async def delete_game(self, request: Request) -> Response:
        game_id, _ = self._game(request)
        self.games.delete(game_id)
        return Response(status_code=204)

    @staticmethod
    def _apply(stored: StoredGame, kind: str, x: int, y: int, toggle: bool = True) -> None:
        """Apply one move under the game's lock (on a worker thread: O(cells opened)).

        A person's flag toggles; a player's flag only ever sets (``toggle`` false)."""
        with stored.lock:
            game = stored.game
            if game.over:
                raise ApiError(409, "game_over", f"the game is already {game.outcome.status}")
            inside = 0 <= x < game.width and 0 <= y < game.height
            if kind == "chord" and inside and game.view()[(x, y)] < 0:
                return  # a chord over a hidden or flagged cell does nothing, as in the clones
            try:
                stored.push(kind, (x, y), toggle=toggle)
            except NoGuessError as exc:
                raise ApiError(503, "no_guess_not_found", str(exc)) from None
            except GameError as exc:
                raise ApiError(422, "bad_move", str(exc)) from None

    async def move(self, request: Request) -> Response:
        game_id, stored = self._game(request)
        body = await _read_json(request, self.settings.max_body)
        kind = _required(body, "kind", str)
        if kind not in ("open", "flag", "chord"):
            raise ApiError(400, "bad_field", f"move kind {kind!r}: expected open, flag or chord")
        x, y = _required(body, "x", int), _required(body, "y", int)
        await run_in_threadpool(self._apply, stored, kind, x, y)
        return JSONResponse(game_state(game_id, stored))

    @staticmethod
    def _running_view(stored: StoredGame) -> tuple[str, Cost]:
        """The running game's view as text, and the cost of analysing it (on a thread)."""
        if stored.game.over:
            raise ApiError(409, "game_over", f"the game is already {stored.game.outcome.status}")
        view = stored.game.view()
        return view.to_text(), estimate_cost(view)

    def _search_seconds(self, player: str | None) -> dict[str, float]:
        """``search``'s safety deadline, a share of the move's budget (the rest is left
        for ``best``'s move if it passes it); nothing for the other players."""
        if player != "search":
            return {}
        return {"search_seconds": self.settings.budget * spec.SEARCH_SHARE}

    async def hint(self, request: Request) -> Response:
        self._check_share(request)
        player = choice(request.query_params, "player", spec.HINT_PLAYERS, None)
        _, stored = self._game(request)
        text, cost = await run_in_threadpool(self._running_view, stored)
        more = self._search_seconds(player)
        result = await self.compute(request, cost, "analyse", text=text, player=player, **more)
        return JSONResponse(result)

    async def ai_move(self, request: Request) -> Response:
        """The server's player makes one move; with ``?guesses=0`` it makes no guess:
        a move that is one comes back with ``applied`` false, the game unchanged."""
        self._check_share(request)
        flag = choice(request.query_params, "guesses", spec.BEST_VALUES, "1")
        who = choice(request.query_params, "player", spec.HINT_PLAYERS, None)
        game_id, stored = self._game(request)
        text, cost = await run_in_threadpool(self._running_view, stored)
        began = time.monotonic()
        more = self._search_seconds(who)
        move = await self.compute(
            request, cost, "hint", text=text, seed=stored.moves, player=who, **more
        )
        stored.pause(time.monotonic() - began)  # the player's thinking is not the game's time
        applied = move is not None and not (move["guess"] and flag in ("0", "false", "no"))
        if applied:
            await run_in_threadpool(self._apply, stored, move["kind"], move["x"], move["y"], False)
        return JSONResponse({"move": move, "applied": applied, "game": game_state(game_id, stored)})

    # -- documents -------------------------------------------------------------------------

    async def openapi(self, request: Request) -> Response:
        return JSONResponse(spec.openapi_document(self.settings.limits()))

    async def index(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")


def create_app(settings: Settings | None = None) -> Starlette:
    """The web app with ``settings`` (defaults: :class:`Settings`)."""
    api = _Api(settings or Settings())

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await run_in_threadpool(api.fast_pool.warm)
        await run_in_threadpool(api.pool.warm)
        yield  # the readers start with the first read
        api.reads.close()
        api.fast_pool.close()
        api.pool.close()
        api.reader.pool.close()

    routes = [
        Route("/", api.index, methods=["GET"]),
        Route("/openapi.json", api.openapi, methods=["GET"]),
        Route("/api/analyze", api.analyze, methods=["POST"]),
        Route("/api/tile", api.tile, methods=["POST"]),
        Route("/api/levels", api.levels, methods=["GET"]),
        Route("/api/replays", api.replay, methods=["POST"]),
        Route("/api/read", api.read, methods=["POST"]),
        Route("/api/reads", api.start_read, methods=["POST"]),
        Route("/api/reads/{read_id}", api.read_state, methods=["GET"]),
        Route("/api/games", api.new_game, methods=["POST"]),
        # one route for both methods, so that a 405 there names both in its Allow header
        Route("/api/games/{game_id}", api.game, methods=["GET", "DELETE"]),
        Route("/api/games/{game_id}/move", api.move, methods=["POST"]),
        Route("/api/games/{game_id}/hint", api.hint, methods=["GET"]),
        Route("/api/games/{game_id}/ai", api.ai_move, methods=["POST"]),
        Route("/api/games/{game_id}/replay", api.game_replay, methods=["GET"]),
        Route("/api/games/{game_id}/layout", api.game_layout, methods=["GET"]),
        Route("/api/games/{game_id}/review", api.game_review, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            ApiError: _api_error,
            HTTPException: _http_error,
            Exception: _server_error,
        },
        lifespan=lifespan,
    )
    app.state.api = api
    return app
