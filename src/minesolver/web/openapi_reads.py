"""The OpenAPI document's part for screenshots: ``POST /api/read``, and the reads in the
background, ``POST /api/reads`` and ``GET /api/reads/{read_id}`` (:mod:`minesolver.web.reads`).
:mod:`minesolver.web.openapi` puts it in the document.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["READ_SCHEMAS", "read_paths"]

_ERROR = {"$ref": "#/components/schemas/Error"}
_IMAGE = {
    "required": True,
    "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
}
_SUMMARY = "(PNG, JPEG, GIF, BMP, WebP: the request body's bytes)"

READ_SCHEMAS: dict[str, Any] = {
    "Reading": {
        "type": "object",
        "description": "A screenshot read as a board. Where the reader is unsure of a cell, "
        "`rows` hold its nearest label and `unsure` lists it with its candidates; `problem` "
        "says why the reading is not a position to analyse as it is (unsure cells, a lost "
        "game, digits no layout explains), `position` is its text when it is one.",
        "required": ["skin", "width", "height", "rows", "unsure", "lost", "problem", "position"],
        "properties": {
            "skin": {"type": "string", "description": "The skin recognised"},
            "width": {"type": "integer"},
            "height": {"type": "integer"},
            "mines": {"type": ["integer", "null"], "description": "The total, when known"},
            "mines_from": {
                "type": ["string", "null"],
                "enum": ["given", "level", "counter", None],
                "description": "Where the total comes from",
            },
            "counter": {
                "type": ["integer", "null"],
                "description": "The mine counter read beside the board (mines less flags), "
                "when the skin shows one the reader knows and it was read surely",
            },
            "box": {
                "type": "array",
                "items": {"type": "number"},
                "description": "The board in the image: left, top, right, bottom (pixels)",
            },
            "cell_size": {"type": "array", "items": {"type": "number"}},
            "rows": {
                "type": "array",
                "items": {"type": "string"},
                "description": "The labels read: H hidden, F flag, 0-8 open, ? a question "
                "mark, * a mine, ! the exploded mine, x a crossed-out flag",
            },
            "unsure": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "x": {"type": "integer"},
                        "y": {"type": "integer"},
                        "candidates": {"type": "array", "items": {"type": "array"}},
                    },
                },
            },
            "lost": {"type": "boolean", "description": "The board shows mines"},
            "problem": {"type": ["string", "null"]},
            "position": {"type": ["string", "null"]},
        },
    },
    "ReadJob": {
        "type": "object",
        "description": "A read in the background: its state (waiting for a reader, reading, "
        "done; a failed read answers its error instead), the latest stage the reader told, "
        "every stage so far, and the reading once done.",
        "required": ["id", "state", "stage", "stages", "reading"],
        "properties": {
            "id": {"type": "string", "description": "The read's random id"},
            "state": {"type": "string", "enum": ["waiting", "reading", "done"]},
            "stage": {
                "type": "string",
                "description": 'The latest stage, in words ("finding the board"); '
                '"waiting for a reader" before the first',
            },
            "stages": {"type": "array", "items": {"type": "string"}},
            "reading": {
                "anyOf": [{"$ref": "#/components/schemas/Reading"}, {"type": "null"}],
                "description": "The board read, once done (null before)",
            },
        },
    },
}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def read_paths(errors: Callable[..., dict[str, Any]], mines: dict[str, Any]) -> dict[str, Any]:
    """The paths of the screenshots' routes; ``errors(*statuses)`` gives the document's
    error responses, ``mines`` is the ``?mines=`` parameter."""
    job_id = {
        "name": "read_id",
        "in": "path",
        "required": True,
        "schema": {"type": "string"},
        "description": "The id returned when the read was started",
    }
    failed = {
        **errors(422, 429, 503),
        "404": _json(_ERROR, "No such read: never started, or finished and forgotten"),
    }
    for status in ("422", "429", "503"):
        failed[status] = _json(
            _ERROR,
            "The read failed: the error POST /api/read would have answered, with the "
            "read's id, state (failed) and stage",
        )
    return {
        "/api/read": {
            "post": {
                "summary": f"Read a board from a screenshot {_SUMMARY}",
                "operationId": "readScreenshot",
                "parameters": [mines],
                "requestBody": _IMAGE,
                "responses": {
                    "200": _json(
                        {"$ref": "#/components/schemas/Reading"},
                        "The board read, its unsure cells marked",
                    ),
                    **errors(400, 413, 422, 429, 503),
                },
            }
        },
        "/api/reads": {
            "post": {
                "summary": f"Start reading a board from a screenshot {_SUMMARY}, in the "
                "background: ask GET /api/reads/{read_id} for its stage and answer",
                "operationId": "startRead",
                "parameters": [mines],
                "requestBody": _IMAGE,
                "responses": {
                    "202": {
                        **_json({"$ref": "#/components/schemas/ReadJob"}, "The read, started"),
                        "headers": {
                            "Location": {
                                "description": "The read's URL",
                                "schema": {"type": "string"},
                            }
                        },
                        "links": {
                            "GetRead": {
                                "operationId": "getRead",
                                "parameters": {"read_id": "$response.body#/id"},
                            }
                        },
                    },
                    **errors(400, 413, 422, 429, 503),
                },
            }
        },
        "/api/reads/{read_id}": {
            "parameters": [job_id],
            "get": {
                "summary": "A read's state and latest stage; once done, the board read",
                "operationId": "getRead",
                "responses": {
                    "200": _json(
                        {"$ref": "#/components/schemas/ReadJob"},
                        "The read: waiting, reading, or done with its reading",
                    ),
                    **failed,
                },
            },
        },
    }
