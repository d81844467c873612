"""Bad files: truncated anywhere, flipped bytes, wrong signatures, absurd sizes, garbage.

Each is either read (a flipped byte in a name or a pixel is still a replay) or refused
with a ReplayFormatError naming the byte offset; never another exception or a hang
(hypothesis' deadline bounds each example's time).
"""

from __future__ import annotations

import contextlib
import random
import tracemalloc
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from replay_samples import sample_files

from minesolver.replay import ReplayFormatError, load, play_events
from minesolver.replay.load import READERS

FILES = sample_files()
FUZZ = settings(
    max_examples=40,
    deadline=timedelta(seconds=1),
    suppress_health_check=[HealthCheck.too_slow],
)


def read_or_refuse(data: bytes, fmt: str | None = None) -> None:
    """Load; when it reads, the events must also play through the rules."""
    try:
        replay = load(data, fmt)  # type: ignore[arg-type]
    except ReplayFormatError as e:
        assert "byte" in str(e) and "expected" in str(e)
        assert 0 <= e.offset <= max(len(data), 64 * 1024 * 1024)
        return
    play_events(replay)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
@FUZZ
@given(data=st.data())
def test_truncated_anywhere(path: Path, data: st.DataObject) -> None:
    raw = path.read_bytes()
    cut = data.draw(st.integers(0, len(raw) - 1))
    read_or_refuse(raw[:cut], path.suffix[1:])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
@FUZZ
@given(data=st.data())
def test_flipped_bytes(path: Path, data: st.DataObject) -> None:
    raw = bytearray(path.read_bytes())
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(raw) - 1))
        raw[at] ^= data.draw(st.integers(1, 255))
    read_or_refuse(bytes(raw), path.suffix[1:])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_truncated_in_the_header_names_the_offset(path: Path) -> None:
    raw = path.read_bytes()
    for cut in range(0, 40):
        with pytest.raises(ReplayFormatError, match=r"byte \d+: expected"):
            load(raw[:cut], path.suffix[1:])  # type: ignore[arg-type]


@pytest.mark.parametrize("fmt", sorted(READERS))
def test_empty_file(fmt: str) -> None:
    with pytest.raises(ReplayFormatError, match="empty"):
        load(b"", fmt)  # type: ignore[arg-type]


def test_wrong_signatures() -> None:
    with pytest.raises(ReplayFormatError, match=r"rmv replay, byte 0: expected the signature"):
        load(b"*rmx" + bytes(100), "rmv")
    with pytest.raises(ReplayFormatError, match=r"mvf replay, byte 0: expected the signature"):
        load(b"\x12\x4d" + bytes(100), "mvf")
    with pytest.raises(ReplayFormatError, match=r"evf replay, byte 0: expected an EVF version"):
        load(b"\x09" + bytes(100), "evf")
    with pytest.raises(ReplayFormatError, match=r"avf replay, byte 5: expected a level"):
        load(bytes(100), "avf")


def test_absurd_sizes() -> None:
    # EVF v3 claiming 255x255 cells and 65535 mines
    evf = bytes([3, 0, 0, 255, 255, 255, 255, 16, 0, 0, 0, 1]) + bytes(100)
    with pytest.raises(ReplayFormatError, match=r"byte 3: expected at most 65025 mines"):
        load(evf, "evf")
    # EVF with no rows
    with pytest.raises(ReplayFormatError, match=r"byte 3: expected a board of 1 to 256"):
        load(bytes([3, 0, 0, 0, 9, 0, 1, 16]) + bytes(50), "evf")
    # AVF custom level with 65535 mines on 256x256
    avf = bytes([52, 1, 2, 3, 4, 6, 255, 255, 255, 255]) + bytes(100)
    with pytest.raises(ReplayFormatError, match=r"byte 10: expected 65535 mine positions"):
        load(avf, "avf")
    # MVF with a huge event count
    raw = bytearray((Path(FILES[0]).parent / "clone097-expert-122bv.mvf").read_bytes())
    with pytest.raises(ReplayFormatError, match="expected"):
        load(bytes(raw[:-100]), "mvf")


@pytest.mark.parametrize("fmt", sorted(READERS))
def test_fifty_megabytes_of_garbage(fmt: str) -> None:
    rng = random.Random(11)
    garbage = rng.randbytes(50 * 1024 * 1024)
    prefix = {"rmv": b"*rmv\x00\x02", "mvf": b"\x11\x4d", "evf": b"\x04", "avf": b"\x34"}[fmt]
    with pytest.raises(ReplayFormatError):
        load(prefix + garbage, fmt)  # type: ignore[arg-type]


def test_memory_is_a_small_multiple_of_the_file() -> None:
    data = random.Random(5).randbytes(5 * 1024 * 1024)
    tracemalloc.start()
    try:
        for fmt in READERS:
            with contextlib.suppress(ReplayFormatError):
                load(b"\x34" + data, fmt)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * len(data)


def test_a_file_too_large_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.evf"
    with path.open("wb") as f:
        f.truncate(65 * 1024 * 1024)
    with pytest.raises(ReplayFormatError, match="at most"):
        load(path)
