"""Hostile images: a 20000x20000 image, decompression bombs (pixels and text), a lattice
of tiny cells filling the largest image allowed. Each gives a clear error or a reading
in bounded time and memory, measured in a fresh process (its peak resident memory)."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path

import pytest

pytest.importorskip("PIL")
np = pytest.importorskip("numpy")

from minesolver.vision import VisionError, read_board, read_screenshot  # noqa: E402
from minesolver.vision import cells as cells_module  # noqa: E402
from minesolver.vision import extent as extent_module  # noqa: E402
from minesolver.vision._load import MAX_PIXELS  # noqa: E402


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width: int, height: int, *, bits: int = 1, colour: int = 0, text: bytes = b"") -> bytes:
    """A valid PNG of ``width`` x ``height`` pixels, every one zero (so it compresses to
    almost nothing: a decompression bomb), with a compressed text chunk of ``text``."""
    channels = {0: 1, 2: 3}[colour]
    row = b"\0" + bytes((width * bits * channels + 7) // 8)
    pixels = zlib.compressobj(9)
    body = b"".join(pixels.compress(row) for _ in range(height)) + pixels.flush()
    head = struct.pack(">IIBBBBB", width, height, bits, colour, 0, 0, 0)
    ztxt = _chunk(b"zTXt", b"Comment\0\0" + zlib.compress(text, 9)) if text else b""
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", head)
        + ztxt
        + _chunk(b"IDAT", body)
        + _chunk(b"IEND", b"")
    )


def peak(script: str, data: bytes, tmp_path: Path) -> dict[str, object]:
    """Run ``script`` (which reads ``image`` and sets ``result``) in a fresh Python, and
    return its result with its peak resident memory (MiB, the process's own high-water
    mark: ``ru_maxrss`` would start from the parent's, kept across the exec) and CPU
    seconds."""
    if not Path("/proc/self/status").exists():
        pytest.skip("needs Linux's /proc to measure a process's peak memory")
    path = tmp_path / "image.bin"
    path.write_bytes(data)
    body = textwrap.indent(textwrap.dedent(script).strip(), "    ")
    code = "\n".join(
        [
            "import json, time",
            "def hwm():",
            "    for line in open('/proc/self/status'):",
            "        if line.startswith('VmHWM:'):",
            "            return int(line.split()[1])",
            "from minesolver.vision import VisionError, read_screenshot",
            f"image = {str(path)!r}",
            "base = hwm()",
            "began = time.process_time()",
            "try:",
            body,
            "except VisionError as exc:",
            "    result = 'error: ' + str(exc)",
            "cpu = time.process_time() - began",
            "rss = hwm()",
            "print(json.dumps({'result': result, 'mib': rss / 1024, 'base': base / 1024,"
            " 'cpu': cpu}))",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True
    )
    out: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


READ = """
reading = read_screenshot(image)
result = f"read {reading.width}x{reading.height}"
"""


def test_a_20000_pixel_square_png_is_refused_unread(tmp_path: Path) -> None:
    data = png(20000, 20000)  # 400 million pixels in about 50 kB
    assert len(data) < 200_000
    got = peak(READ, data, tmp_path)
    assert str(got["result"]).startswith("error: ")
    assert f"exceeds the limit of {MAX_PIXELS} pixels" in str(got["result"])
    assert float(got["cpu"]) < 2.0
    assert float(got["mib"]) < 400  # nothing near 400 million pixels was decoded


def test_a_bomb_within_the_limit_is_read_in_bounded_memory(tmp_path: Path) -> None:
    """36 million black pixels in a 100 kB file: decoded (within the limit), found to
    hold no board, within about 20 bytes a pixel."""
    data = png(6000, 6000, bits=8, colour=2)
    assert len(data) < 300_000
    got = peak(READ, data, tmp_path)
    assert got["result"] == "error: no board found in the image: no regular grid of cells"
    assert float(got["mib"]) < 800


def test_a_text_bomb_is_a_clear_error() -> None:
    """A compressed comment that inflates to 100 MB: Pillow's guard, reported as ours."""
    data = png(64, 64, text=bytes(100_000_000))
    with pytest.raises(VisionError, match="not an image that can be read"):
        read_board(data)


def test_the_byte_and_pixel_limits_hold_for_every_source() -> None:
    from PIL import Image

    with pytest.raises(VisionError, match="exceeds the limit"):
        read_board(bytes(64 * 1024 * 1024 + 1))
    side = int(MAX_PIXELS**0.5) + 1
    with pytest.raises(VisionError, match="exceeds the limit"):
        read_board(Image.new("1", (side, side)))


def grid(width: int, height: int, cell: int) -> np.ndarray:
    pixels = np.full((height, width, 3), 192, np.uint8)
    pixels[:, ::cell] = 128
    pixels[::cell, :] = 128
    return pixels


def test_a_lattice_of_many_cells_is_read_in_bounded_memory(tmp_path: Path) -> None:
    """12 million pixels of 16-pixel cells (a board of 250x187 empty cells): the cells
    are compared a band at a time, so the memory stays a small multiple of the image's
    (scaled all at once, the cells took more than a gigabyte here)."""
    from PIL import Image

    path = tmp_path / "grid.png"
    Image.fromarray(grid(4000, 3000, 16)).save(path)
    got = peak(READ, path.read_bytes(), tmp_path)
    assert got["result"] == "read 250x187"
    assert float(got["mib"]) - float(got["base"]) < 600


def test_a_lattice_read_in_bands_equals_one_read_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    from PIL import Image

    from minesolver.vision import synth

    rng = __import__("random").Random(5)
    cells = synth.random_board(rng, 16, 16, 40)
    window = synth.classic_window(cells, 16, 16, 40)[0]
    window = window.resize((round(window.width * 1.5), round(window.height * 1.5)), Image.BILINEAR)
    whole = read_screenshot(window)
    monkeypatch.setattr(cells_module, "BAND_CELLS", 7)  # bands of a row or less
    banded = read_screenshot(window)
    assert banded == whole
    assert (whole.width, whole.height) == (16, 16)


def test_a_lattice_beyond_the_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from PIL import Image

    monkeypatch.setattr(extent_module, "MAX_LATTICE", 500)
    with pytest.raises(VisionError, match="exceeds the limit of 500 cells"):
        read_screenshot(Image.fromarray(grid(640, 480, 16)))


@pytest.mark.parametrize(("height", "width"), [(1, 1), (5, 7), (300, 4000), (700, 1600)])
def test_the_running_sums_made_in_bands_are_one_running_sum(height: int, width: int) -> None:
    """The table is made a band of rows at a time: equal, modulo 2**32, to one sum."""
    from minesolver.vision.templates import integral

    pixels = np.random.default_rng(height).integers(0, 256, (height, width, 3), dtype=np.uint8)
    whole = np.zeros((height + 1, width + 1, 3), dtype=np.uint64)
    whole[1:, 1:] = pixels.astype(np.uint64).cumsum(axis=0).cumsum(axis=1)
    assert (integral(pixels) == (whole % 2**32).astype(np.uint32)).all()
