r"""A minimal PNG encoder: a huge board's cells as one embedded image.

Examples:
    >>> import numpy as np
    >>> png_bytes(np.zeros((2, 3, 4), dtype=np.uint8))[:8]
    b'\x89PNG\r\n\x1a\n'
"""

from __future__ import annotations

import struct
import zlib
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

    pass


def png_bytes(rgba: npt.NDArray[np.uint8]) -> bytes:
    """Encode an ``(h, w, 4)`` RGBA array as PNG (zlib, no filter)."""
    height, width = rgba.shape[:2]
    raw = np.zeros((height, width * 4 + 1), dtype=np.uint8)
    raw[:, 1:] = rgba.reshape(height, width * 4)

    def chunk(tag: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(tag + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw.tobytes(), 6))
        + chunk(b"IEND", b"")
    )
