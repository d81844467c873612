"""The OpenAPI 3.1 document of the web API, written by hand (served at ``/openapi.json``).

Kept beside the routes of :mod:`minesolver.web.app`; a test checks that both name the
same paths and methods and that the document is valid OpenAPI.
"""

from __future__ import annotations

from typing import Any

from minesolver.engines import ENGINES
from minesolver.web.openapi_reads import READ_SCHEMAS, read_paths

__all__ = ["BEST_VALUES", "LEVEL_PATTERN", "POSITION_PATTERN", "openapi_document"]

BEST_VALUES = ("0", "1", "false", "true", "no", "yes")
"""The values of the ``best`` query parameter (0, false, no: leave out the best moves)."""

POSITION_PATTERN = r"^[\s.?HFhf0-8xX9]*[.?HFhf0-8][\s.?HFhf0-8xX9]*$"
"""The characters a position text may hold (the header's, the cells', white space), at
least one cell. A text of these that still cannot be read (rows of unequal length, a
header that disagrees with them) is a 422 malformed_position, any other a 400."""

LEVEL_PATTERN = r"^(beginner|intermediate|expert|[1-9][0-9]{0,2}x[1-9][0-9]{0,2}x[0-9]{1,5})$"
"""The levels a request may name: a level of this form that the server still refuses (its
mines do not fit, it is over the limits) is a 422, any other text a 400."""

_ERROR_CODES = [
    "bad_json",
    "missing_field",
    "bad_field",
    "malformed_position",
    "inconsistent_position",
    "mines_unknown",
    "engine_limit_exceeded",
    "board_too_large",
    "body_too_large",
    "bad_level",
    "bad_move",
    "bad_cell",
    "bad_request",
    "game_not_found",
    "game_over",
    "game_not_over",
    "bad_layout",
    "no_guess_not_found",
    "malformed_replay",
    "unreadable_image",
    "read_not_found",
    "not_found",
    "method_not_allowed",
    "compute_budget_exceeded",
    "compute_memory_exceeded",
    "busy",
    "too_many_requests",
    "internal",
]


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _binary(description: str) -> dict[str, Any]:
    """A response of a file's bytes."""
    binary = {"schema": {"type": "string", "format": "binary"}}
    return {"description": description, "content": {"application/octet-stream": binary}}


def _binary_responses(description: str, errors: tuple[int, ...]) -> dict[str, Any]:
    """A file's bytes, or one of the ``errors``."""
    return {"200": _binary(description), **_errors(*errors)}


def _errors(*statuses: int) -> dict[str, dict[str, Any]]:
    texts = {
        400: "Malformed request: bad JSON, a missing or mistyped field, a field outside "
        "what this document allows, a position text or replay file that cannot be read",
        404: "No such game (or it expired)",
        409: "The game is over (for its replay or review: not over yet)",
        413: "Request body too large",
        422: "Well formed but impossible to serve: an inconsistent position (digits that no "
        "layout satisfies, a total they contradict or more mines than cells), an unknown "
        "mine total, a board over the server's limits, a cell off the board or not hidden, "
        "a move the game refuses, a level whose mines do not fit, an image with no board "
        "that can be read",
        429: "This client already has its share of analyses running and waiting",
        503: "Compute budget or memory exceeded, every worker busy, or no no-guess layout "
        "found in time",
    }
    return {str(s): _json(_ref("Error"), texts[s]) for s in statuses}


_GAME_ID = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string"},
    "description": "The random id returned when the game was created",
}

_PLAYER_NAME: dict[str, Any] = {
    "name": "player",
    "in": "query",
    "required": False,
    "description": "The player's name the replay carries (who made the moves; at most 100 "
    "characters are kept)",
    "schema": {"type": "string"},
}

_RUNNING: dict[str, Any] = {
    "name": "running",
    "in": "query",
    "required": False,
    "description": "1: the file of a game still on (it holds the mines: the game is marked "
    "revealed)",
    "schema": {"type": "string", "enum": list(BEST_VALUES)},
}

_GUESSES: dict[str, Any] = {
    "name": "guesses",
    "in": "query",
    "required": False,
    "description": "0: make no guess; a move that is one is returned with applied false",
    "schema": {"type": "string", "enum": list(BEST_VALUES)},
}

HINT_PLAYERS = ("best", "efficient", "search")
"""The players whose move a hint or the AI button may give: ``best`` (the safest play),
``efficient`` (``best``'s guesses, its certain moves in the fewest clicks) or ``search``
(``best`` with its close guesses valued by rollouts, and its opening book; where it does
not answer within half the move's budget, the move is ``best``'s and says so)."""

SEARCH_SHARE = 0.5
"""The part of a move's budget ``search`` may take before the hint falls back on
``best``'s move (which then has the rest)."""

_PLAYER: dict[str, Any] = {
    "name": "player",
    "in": "query",
    "required": False,
    "description": "Whose move: best (the default: the safest play), efficient (the same "
    "guesses, the certain moves in the fewest clicks: chords and the flags they use) or "
    "search (best with its close guesses valued by rollouts and an opening book; best's "
    "move, with a note, where it does not answer within half the budget)",
    "schema": {"type": "string", "enum": list(HINT_PLAYERS)},
}

_MINES: dict[str, Any] = {
    "name": "mines",
    "in": "query",
    "required": False,
    "description": "The total of mines, when the board's size and counter do not tell it",
    "schema": {"type": "string", "pattern": "^[0-9]{1,7}$"},
}

_BEST: dict[str, Any] = {
    "name": "best",
    "in": "query",
    "required": False,
    "description": "0 leaves out the best player's move at each guess",
    "schema": {"type": "string", "enum": list(BEST_VALUES)},
}

_POSITION_FIELDS: dict[str, Any] = {
    "position": {
        "type": "string",
        "minLength": 1,
        "pattern": POSITION_PATTERN,
        "description": "JSMinesweeper text: an optional WIDTHxHEIGHTxMINES header, then "
        "rows of equal length of H (hidden), F (flag) and digits 0-8 ('.' and '?' read as "
        "hidden). The pattern checks the characters (others: 400 malformed_position); rows "
        "of unequal length or a header that disagrees with them are a 422 "
        "malformed_position; both name the line and column",
        "examples": ["5x5x5\nH2HHH\nHHHHH\n112HH\n00HHH\n000HH\n"],
    },
    "mines": {
        "type": ["integer", "null"],
        "minimum": 0,
        "description": "The total number of mines (overrides the header); more than the "
        "board's cells, or a total the digits contradict, is a 422 inconsistent_position",
    },
    "density": {
        "oneOf": [
            {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
            {"type": "string", "pattern": r"^([0-9]+/[0-9]*[1-9][0-9]*|[0-9]*\.?[0-9]+)$"},
            {"type": "null"},
        ],
        "description": "Mine density 0<p<1 when the total is unknown (not with mines): a "
        "number or a decimal or fraction text; a text outside (0, 1) is a 422 bad_field",
    },
    "trust_flags": {"type": ["boolean", "null"], "default": True},
}
"""The fields that name a position, shared by the requests about one."""

_NOT_BOTH: dict[str, Any] = {
    "not": {
        "required": ["mines", "density"],
        "properties": {"mines": {"type": "integer"}, "density": {"type": ["string", "number"]}},
    },
}
"""A total and a density together are refused: the position requests take one or none."""

_SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error", "detail"],
        "properties": {
            "error": {"type": "string", "enum": _ERROR_CODES},
            "detail": {"type": "string", "description": "What is wrong, for people"},
            "line": {
                "type": "integer",
                "description": "malformed_position: the line of the text (1-based) it is on",
            },
            "column": {
                "type": "integer",
                "description": "malformed_position: the column on that line (1-based)",
            },
        },
    },
    "AnalyzeRequest": {
        "type": "object",
        "required": ["position"],
        **_NOT_BOTH,
        "properties": {
            **_POSITION_FIELDS,
            "engine": {
                "type": ["string", "null"],
                "default": "exact",
                "enum": sorted(ENGINES),
                "description": "Engine name (exact, or an approximate one such as bp)",
            },
        },
    },
    "TileRequest": {
        "type": "object",
        "required": ["position", "x", "y"],
        **_NOT_BOTH,
        "description": "The fields of AnalyzeRequest (the engine is ignored: the digit "
        "chances are always counted exactly; a density is refused with 422 mines_unknown, "
        "they need the total) and the hidden cell asked about",
        "properties": {
            **_POSITION_FIELDS,
            "engine": {"type": ["string", "null"], "description": "Ignored"},
            "x": {
                "type": "integer",
                "description": "Column of a hidden cell, from 0 (off the board or not "
                "hidden: 422 bad_cell)",
            },
            "y": {"type": "integer", "description": "Row of a hidden cell, from 0"},
        },
    },
    "Tile": {
        "type": "object",
        "description": "What opening one hidden cell can lead to, as exact fractions "
        '("0", "1" or "num/den") with float copies for display in floats',
        "required": ["x", "y", "layouts", "p", "safe", "digits", "opening", "progress", "floats"],
        "properties": {
            "x": {"type": "integer"},
            "y": {"type": "integer"},
            "layouts": {"type": "string", "description": "Layout count, in decimal"},
            "p": {"type": "string", "description": "P(the cell is a mine)"},
            "safe": {"type": "string", "description": "P(the cell is safe) = 1 - p"},
            "digits": {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "description": "Digit (0-8) -> P(the cell is safe and shows that digit), for "
                "the possible digits only; they add up to safe",
            },
            "opening": {
                "type": "string",
                "description": "P(safe and shows 0): the click opens an area (digits['0'])",
            },
            "progress": {
                "type": "string",
                "description": "P(the cell is safe and, once its digit is seen, some other "
                "hidden cell is certainly safe that was not before); at most safe",
            },
            "floats": {
                "type": "object",
                "description": "p, safe, opening, progress and digits as floats",
            },
        },
    },
    "CellProbability": {
        "type": "object",
        "required": ["x", "y", "p", "prob"],
        "properties": {
            "x": {"type": "integer"},
            "y": {"type": "integer"},
            "p": {"type": "string", "description": "Exact probability: 0, 1 or num/den"},
            "prob": {"type": "number", "description": "The probability as a float"},
            "error": {"type": "number", "description": "Standard error (approximate engines)"},
        },
    },
    "Move": {
        "type": "object",
        "required": ["kind", "x", "y", "guess", "risk", "reason", "why", "player"],
        "properties": {
            "kind": {"type": "string", "enum": ["open", "flag", "chord"]},
            "x": {"type": "integer"},
            "y": {"type": "integer"},
            "guess": {"type": "boolean"},
            "risk": {"type": "number"},
            "reason": {
                "type": "string",
                "description": "The player's own reason, with its internal scores (for machines)",
            },
            "why": {"type": "string", "description": "The reason in plain words, for people"},
            "player": {"type": "string", "description": "The player that chose the move"},
            "note": {
                "type": "string",
                "description": "Why the move is not the named player's: search did not "
                "answer within its share of the budget, and the move is best's",
            },
        },
    },
    "Analysis": {
        "type": "object",
        "required": ["width", "height", "mines", "layouts", "exact", "engine", "cells"],
        "properties": {
            "width": {"type": "integer"},
            "height": {"type": "integer"},
            "mines": {"type": ["integer", "null"]},
            "layouts": {
                "type": ["string", "null"],
                "description": "Layout count, in decimal; null when an approximate engine "
                "did not count",
            },
            "exact": {"type": "boolean"},
            "engine": {"type": "string"},
            "cells": {"type": "array", "items": _ref("CellProbability")},
            "safe": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
            "mines_found": {
                "type": "array",
                "items": {"type": "array", "items": {"type": "integer"}},
            },
            "best": {
                "type": ["array", "null"],
                "items": {"type": "integer"},
                "description": "The lowest-probability cell [x, y]",
            },
            "move": {"oneOf": [_ref("Move"), {"type": "null"}]},
            "no_move": {
                "type": "string",
                "description": "Why move is null although a move was asked for: the "
                "position is solved (no move left)",
            },
        },
    },
    "NewGame": {
        "type": "object",
        "description": "A level by name, or by width, height and mines together; null "
        "fields are absent ones",
        "allOf": [
            {
                "if": {"required": [k], "properties": {k: {"type": "integer"}}},
                "then": {
                    "required": ["width", "height", "mines"],
                    "properties": {d: {"type": "integer"} for d in ("width", "height", "mines")},
                },
            }
            for k in ("width", "height", "mines")
        ],
        "properties": {
            "level": {
                "type": ["string", "null"],
                "pattern": LEVEL_PATTERN,
                "description": "beginner, intermediate, expert or WIDTHxHEIGHTxMINES (the "
                "default: beginner); mines that do not fit are a 422 bad_level",
            },
            "width": {
                "type": ["integer", "null"],
                "minimum": 1,
                "description": "With height and mines, instead of level",
            },
            "height": {"type": ["integer", "null"], "minimum": 1},
            "mines": {"type": ["integer", "null"], "minimum": 0},
            "rule": {
                "type": ["string", "null"],
                "enum": ["safe", "opening", "none", None],
                "default": "safe",
            },
            "seed": {
                "type": ["integer", "null"],
                "minimum": 0,
                "maximum": 2**63 - 1,
                "description": "Lay the mines from this seed (reproducible games, tests)",
            },
            "no_guess": {
                "type": ["boolean", "null"],
                "default": False,
                "description": "Lay the mines at the first open, uniformly among the layouts "
                "the exact analysis solves from that cell without a guess",
            },
            "layout": {
                "type": ["string", "null"],
                "contentEncoding": "base64",
                "pattern": "^[A-Za-z0-9+/]*={0,2}$",
                "description": "An MBF file in base64: play its (first) layout, with no "
                "first-click rule; the level fields are then ignored; bytes that are not "
                "MBF are a 422 bad_layout",
            },
        },
    },
    "GameMove": {
        "type": "object",
        "required": ["kind", "x", "y"],
        "properties": {
            "kind": {"type": "string", "enum": ["open", "flag", "chord"]},
            "x": {"type": "integer", "description": "Off the board: 422 bad_move"},
            "y": {"type": "integer"},
        },
    },
    "Game": {
        "type": "object",
        "required": ["id", "width", "height", "mines", "status", "board", "mines_left"],
        "properties": {
            "id": {"type": "string"},
            "level": {"type": "string"},
            "width": {"type": "integer"},
            "height": {"type": "integer"},
            "mines": {"type": "integer"},
            "rule": {"type": "string"},
            "status": {"type": "string", "enum": ["playing", "won", "lost"]},
            "started": {"type": "boolean"},
            "board": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Rows of the view: H hidden, F flag, 0-8 open",
            },
            "flags": {"type": "integer"},
            "mines_left": {"type": "integer"},
            "elapsed": {"type": "number", "description": "Seconds since the first open"},
            "moves": {"type": "integer"},
            "layout": {
                "type": "array",
                "items": {"type": "array", "items": {"type": "integer"}},
                "description": "The mines [x, y]: only once the game is over",
            },
            "exploded": {"type": ["array", "null"], "items": {"type": "integer"}},
            "seed": {"type": "integer", "description": "Only once the game is over"},
            "seed_text": {
                "type": "string",
                "description": "The seed in decimal digits, only once the game is over (a "
                "JavaScript number holds no 63-bit seed exactly)",
            },
            "seeded": {
                "type": "boolean",
                "description": "The mines were laid from a seed the client chose: the layout "
                "is predictable",
            },
            "no_guess": {"type": "boolean", "description": "A no-guess game"},
            "from_layout": {
                "type": "boolean",
                "description": "Played on a layout the client sent",
            },
            "revealed": {
                "type": "boolean",
                "description": "The game's file (with its mines) was downloaded while it ran",
            },
        },
    },
    "AiMove": {
        "type": "object",
        "required": ["move", "applied", "game"],
        "properties": {
            "move": {"oneOf": [_ref("Move"), {"type": "null"}]},
            "applied": {
                "type": "boolean",
                "description": "Whether the move was made (not with guesses=0 and a guess)",
            },
            "game": _ref("Game"),
        },
    },
    "ReplayReport": {
        "type": "object",
        "description": "The object of `minesolver replay --json`, plus `positions`: each "
        "graded action with the position the player saw and its analysis.",
        "required": [
            "format",
            "width",
            "height",
            "mines",
            "won",
            "efficiency",
            "wasted_clicks",
            "moves",
            "positions",
        ],
        "properties": {
            "format": {"type": "string", "enum": ["avf", "rmv", "evf", "mvf"]},
            "software": {"type": "string"},
            "player": {"type": "string"},
            "mode": {
                "type": ["integer", "null"],
                "description": "The game mode the file states (EVF's numbers: 0 standard, "
                "1 UPK, 4 Win7, 5 classic no-guess, 65535 no rule, ...), null where the "
                "format has none",
            },
            "first_click": {
                "type": ["string", "null"],
                "enum": ["safe", "opening", "none", None],
                "description": "The first-click rule the mode implies; null when unknown (the "
                "first click is then ungraded)",
            },
            "width": {"type": "integer"},
            "height": {"type": "integer"},
            "mines": {"type": "integer"},
            "won": {"type": "boolean"},
            "pluck": {"type": ["number", "null"]},
            **{
                name: {"type": ["number", "null"]}
                for name in ("rqp", "ios", "stnb", "zini_per_second", "zne", "znt")
            },
            "efficiency": {
                "type": "object",
                "description": "The board's ZiNi and fewest clicks (found within a short "
                "work budget, the same on every machine: `optimal` when proved, else "
                "`lower_bound` is a proved bound and `cut` says what stopped the search, "
                "`work` or the safety `deadline`) beside the player's clicks, the efficiency "
                "lost and the wasted clicks by kind",
                "required": ["zini", "min_clicks", "lower_bound", "optimal", "wasted"],
                "properties": {
                    "zini": {"type": "integer"},
                    "min_clicks": {"type": "integer"},
                    "lower_bound": {"type": "integer"},
                    "optimal": {"type": "boolean"},
                    "work": {"type": "integer"},
                    "cut": {"type": ["string", "null"], "enum": ["work", "deadline", None]},
                    "min_sequence": {"type": "array", "items": {"type": "string"}},
                    "efficiency_lost": {"type": ["number", "null"]},
                    "wasted": {"type": "integer"},
                    "wasted_by_kind": {
                        "type": "object",
                        "additionalProperties": {"type": "integer"},
                    },
                },
            },
            "wasted_clicks": {
                "type": "array",
                "description": "Each wasted click: its number among the clicks, time, button, "
                "cell (null off the board), the action it made (or null) and why",
                "items": {
                    "type": "object",
                    "required": ["number", "time", "button", "x", "y", "action", "why"],
                    "properties": {
                        "button": {"type": "string", "enum": ["left", "right", "double"]},
                        "why": {
                            "type": "string",
                            "enum": ["nothing", "unused_flag", "unflag", "one_cell_chord"],
                        },
                    },
                },
            },
            "moves": {"type": "array", "items": {"type": "object"}},
            "positions": {"type": "array", "items": {"type": "object"}},
        },
    },
    "Levels": {
        "type": "object",
        "properties": {
            "presets": {"type": "object"},
            "rules": {"type": "array", "items": {"type": "string"}},
            "limits": {"type": "object"},
        },
    },
}


def _op(
    summary: str,
    op_id: str,
    ok: tuple[str, str | None, str],
    errors: tuple[int, ...],
    body: str | None = None,
) -> dict[str, Any]:
    """One operation: ``ok`` is (status, response schema or None, description)."""
    status, schema, text = ok
    success = {"description": text} if schema is None else _json(_ref(schema), text)
    op: dict[str, Any] = {
        "summary": summary,
        "operationId": op_id,
        "responses": {status: success, **_errors(*errors)},
    }
    if body is not None:
        op["requestBody"] = {
            "required": body != "NewGame",
            "content": {"application/json": {"schema": _ref(body)}},
        }
    return op


def openapi_document(limits: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI document, with the server's ``limits`` stated in its description."""
    shown = ", ".join(f"{k} = {v}" for k, v in limits.items())
    game = {"parameters": [_GAME_ID]}
    paths = {
        "/api/analyze": {
            "post": _op(
                "Exact mine probabilities of a position, and the best move",
                "analyze",
                ("200", "Analysis", "The analysis"),
                (400, 413, 422, 429, 503),
                body="AnalyzeRequest",
            )
        },
        "/api/tile": {
            "post": _op(
                "One hidden cell's exact digit chances, opening chance and progress chance",
                "tile",
                ("200", "Tile", "The cell's tile information"),
                (400, 413, 422, 429, 503),
                body="TileRequest",
            )
        },
        "/api/levels": {
            "get": _op(
                "Preset levels, first-click rules and the server's limits",
                "levels",
                ("200", "Levels", "Presets and limits"),
                (),
            )
        },
        "/api/games/{game_id}/layout": {
            **game,
            "get": {
                "summary": "A game's layout as an MBF file (once over, or with running=1)",
                "operationId": "gameLayout",
                "parameters": [_RUNNING],
                "responses": _binary_responses("The layout", (400, 404, 409)),
            },
        },
        "/api/games/{game_id}/replay": {
            **game,
            "get": {
                "summary": "A game as an EVF replay file (Metasweeper reads it), once over or "
                "with running=1; its times leave out the server's player's thinking",
                "operationId": "gameReplay",
                "parameters": [_RUNNING, _PLAYER_NAME],
                "responses": _binary_responses("The replay", (400, 404, 409)),
            },
        },
        "/api/games/{game_id}/review": {
            **game,
            "get": _op(
                "A finished game graded move by move, as its replay would be",
                "reviewGame",
                ("200", "ReplayReport", "The graded game"),
                (400, 404, 409, 429, 503),
            )
            | {"parameters": [_BEST, _PLAYER_NAME]},
        },
        "/api/replays": {
            "post": {
                **_op(
                    "Grade a replay file (AVF, RMV, EVF or MVF, the request body's bytes)",
                    "gradeReplay",
                    ("200", "ReplayReport", "The graded replay"),
                    (400, 413, 422, 429, 503),
                ),
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/octet-stream": {
                            "schema": {"type": "string", "format": "binary"}
                        }
                    },
                },
                "parameters": [_BEST],
            }
        },
        **read_paths(_errors, _MINES),
        "/api/games": {
            "post": _op(
                "Start a game (mines laid at the first open)",
                "newGame",
                ("201", "Game", "The new game"),
                (400, 413, 422),
                body="NewGame",
            )
        },
        "/api/games/{game_id}": {
            **game,
            "get": _op(
                "A game's state (the mines only once it is over)",
                "getGame",
                ("200", "Game", "The game"),
                (404,),
            ),
            "delete": _op("Forget a game", "deleteGame", ("204", None, "Deleted"), (404,)),
        },
        "/api/games/{game_id}/move": {
            **game,
            "post": _op(
                "Open a cell, toggle a flag, or chord on a digit",
                "moveGame",
                ("200", "Game", "The game after the move"),
                (400, 404, 409, 413, 422, 503),
                body="GameMove",
            ),
        },
        "/api/games/{game_id}/hint": {
            **game,
            "get": _op(
                "Probabilities of the game's current view, and the best move",
                "hintGame",
                ("200", "Analysis", "The analysis of what the player sees"),
                (400, 404, 409, 422, 429, 503),
            )
            | {"parameters": [_PLAYER]},
        },
        "/api/games/{game_id}/ai": {
            **game,
            "post": _op(
                "Let the best registered player make one move",
                "aiMove",
                ("200", "AiMove", "The move made and the game after it"),
                (400, 404, 409, 422, 429, 503),
            )
            | {"parameters": [_GUESSES, _PLAYER]},
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "minesolver",
            "version": "0.1.0",
            "description": (
                "Exact Minesweeper probabilities and games with the solver at your side. "
                f"Limits: {shown}. Errors are JSON objects {{error, detail}}."
            ),
        },
        "paths": paths,
        "components": {"schemas": {**_SCHEMAS, **READ_SCHEMAS}},
    }
