"""Import Pillow and numpy (the ``image`` extra) with a clear error when missing, and load
an image given as a path, bytes or a Pillow image, within a size limit.

Cost: decoding is O(pixels); a file larger than :data:`MAX_BYTES` or an image of more than
:data:`MAX_PIXELS` pixels is refused before it is decoded whole.
"""

from __future__ import annotations

import io
import os
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from minesolver.errors import MinesolverError
from minesolver.registry import install_command

if TYPE_CHECKING:
    import numpy as np
    from PIL.Image import Image

__all__ = ["MAX_BYTES", "MAX_PIXELS", "ImageSource", "VisionError", "load_rgb", "numpy", "pillow"]

MAX_BYTES = 64 * 1024 * 1024
"""Largest image file read (bytes)."""
MAX_PIXELS = 40_000_000
"""Largest image read (pixels): an 8K screen is 33 million."""

ImageSource = Any
"""A path (``str`` or ``os.PathLike``), the file's ``bytes``, or a Pillow image."""


class VisionError(MinesolverError, ValueError):
    """A screenshot that cannot be read as a board; the message says why (and which
    cells, when some are unsure)."""


def pillow() -> tuple[ModuleType, ModuleType]:
    """``PIL.Image`` and ``PIL.ImageDraw``, or :class:`VisionError` naming the extra."""
    try:
        from PIL import Image, ImageDraw
    except ImportError as exc:  # pragma: no cover - the extra is installed in tests
        raise VisionError(
            f"reading screenshots needs the 'image' extra: {install_command('image')}"
        ) from exc
    return Image, ImageDraw


def numpy() -> ModuleType:
    """``numpy``, or :class:`VisionError` naming the extra."""
    try:
        import numpy
    except ImportError as exc:  # pragma: no cover
        raise VisionError(
            f"reading screenshots needs the 'image' extra: {install_command('image')}"
        ) from exc
    return numpy


def load_rgb(source: ImageSource) -> np.ndarray[Any, Any]:
    """The image as a ``uint8`` array of shape (height, width, 3).

    Raises :class:`VisionError` for a file that cannot be read, bytes that are not an
    image Pillow knows, or an image beyond the limits; ``TypeError`` for another type.
    """
    image_module, _ = pillow()
    np_ = numpy()
    image: Image
    if isinstance(source, image_module.Image):
        image = source
    elif isinstance(source, bytes | bytearray | memoryview):
        data = bytes(source)
        if len(data) > MAX_BYTES:
            raise VisionError(f"image of {len(data)} bytes exceeds the limit of {MAX_BYTES}")
        image = _open(image_module, io.BytesIO(data), "the image bytes")
    elif isinstance(source, str | os.PathLike):
        path = os.fspath(source)
        try:
            size = os.path.getsize(path)
            if size > MAX_BYTES:
                raise VisionError(f"{path}: {size} bytes exceeds the limit of {MAX_BYTES}")
            with open(path, "rb") as stream:
                data = stream.read(MAX_BYTES + 1)
        except OSError as exc:
            raise VisionError(f"cannot read {path}: {exc.strerror or exc}") from exc
        image = _open(image_module, io.BytesIO(data), path)
    else:
        raise TypeError(f"an image is a path, bytes or a Pillow image, not {type(source).__name__}")
    w, h = image.size
    if w * h > MAX_PIXELS:
        raise VisionError(f"image of {w}x{h} pixels exceeds the limit of {MAX_PIXELS} pixels")
    if w < 8 or h < 8:
        raise VisionError(f"image of {w}x{h} pixels is too small to hold a board")
    try:
        if image.mode in ("RGBA", "LA", "PA") or (
            image.mode == "P" and "transparency" in image.info
        ):
            rgba = image.convert("RGBA")
            background = image_module.new("RGBA", rgba.size, (255, 255, 255, 255))
            rgb = image_module.alpha_composite(background, rgba).convert("RGB")
        else:
            rgb = image.convert("RGB")
        out: Any = np_.asarray(rgb, dtype=np_.uint8)
        return cast("np.ndarray[Any, Any]", out)
    except (OSError, ValueError, SyntaxError) as exc:
        raise VisionError(f"cannot decode the image: {exc}") from exc


def _open(image_module: ModuleType, stream: io.BytesIO, what: str) -> Image:
    """Open and fully decode an image with Pillow's bomb check on."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", image_module.DecompressionBombWarning)
            image: Image = image_module.open(stream)
            w, h = image.size
            if w * h > MAX_PIXELS:
                raise VisionError(
                    f"{what}: image of {w}x{h} pixels exceeds the limit of {MAX_PIXELS} pixels"
                )
            image.load()
            return image
    except VisionError:
        raise
    except (image_module.DecompressionBombError, image_module.DecompressionBombWarning) as exc:
        # Pillow's own guard, met before the size is known here: said in our terms
        raise VisionError(
            f"{what}: the image exceeds the limit of {MAX_PIXELS} pixels "
            "(its header declares far more)"
        ) from exc
    except image_module.UnidentifiedImageError as exc:
        raise VisionError(
            f"{what} is not an image that can be read (PNG, JPEG, GIF, BMP, WebP, TIFF)"
        ) from exc
    except Exception as exc:  # Pillow raises many kinds for corrupt data
        raise VisionError(f"{what} is not an image that can be read: {exc}") from exc
