"""PNG renderers side by side: resvg-py (the ``png`` extra) against the others.

The renderers: resvg-py (resvg, in Rust: one wheel, no system library, what
``cpknight[png]`` installs), CairoSVG (pure Python over the system's cairo
library, which no wheel brings: the extra before) and vl-convert-python (a
Deno runtime with resvg inside). Each one installed is measured in the same
run, against resvg-py:

- install: the MB its distributions add to a plain cpknight install (its
  requirements' closure less cpknight's own, summed from the installed files'
  sizes); CairoSVG's system library is not counted;
- import: seconds to import it in a fresh interpreter (median of ``--repeat``);
- cold: import and one render of the 8x8 tour picture in a fresh process, what
  one ``cpknight tour 8x8 --png`` pays (median of ``--repeat``);
- warm: one render in a warm process, for the 8x8 tour picture, a 30x30 one
  and the heat map of a 150x150 board (its cells one embedded image), the
  median of ``--repeat``;
- fidelity: each PNG decoded and compared pixel by pixel with resvg-py's
  (the share of pixels that differ by more than 32 in a channel, and the mean
  difference), and the PNGs written to ``--out DIR`` to look at.

Run: ``python benchmarks/png.py`` (``pip install cairosvg vl-convert-python``
first to compare them; ``--out DIR`` keeps the PNGs).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata as metadata
import re
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt

Render = Callable[[str], bytes]

RENDERERS = {
    "resvg-py": ("resvg_py", "resvg_py.svg_to_bytes(svg_string=svg)"),
    "cairosvg": ("cairosvg", "cairosvg.svg2png(bytestring=svg.encode())"),
    "vl-convert-python": ("vl_convert", "vl_convert.svg_to_png(svg)"),
}
"""Each renderer: its distribution, its module, and the call that renders ``svg``."""

COLD = """
import sys, time
began = time.perf_counter()
import {module}
svg = open(sys.argv[1], encoding="utf-8").read()
png = bytes({call})
print(time.perf_counter() - began)
"""

IMPORT = """
import time
began = time.perf_counter()
import {module}
print(time.perf_counter() - began)
"""


def pictures() -> dict[str, str]:
    """The pictures rendered: tours of 8x8 and 30x30, a 150x150 heat map."""
    from cpknight import distance_map, find_tour
    from cpknight.draw import distance_map_svg, tour_svg

    return {
        "8x8 tour": tour_svg(find_tour("8x8", method="warnsdorff", time_limit=20)),
        "30x30 tour": tour_svg(find_tour("30x30", time_limit=20)),
        "150x150 map": distance_map_svg(distance_map("150x150", "a1")),
    }


def renderer(module: str) -> Render | None:
    """The render function of an installed renderer, or None."""
    try:
        lib = importlib.import_module(module)
    except (ImportError, OSError):
        return None
    if module == "resvg_py":
        return lambda svg: bytes(lib.svg_to_bytes(svg_string=svg))
    if module == "cairosvg":
        return lambda svg: bytes(lib.svg2png(bytestring=svg.encode()))
    return lambda svg: bytes(lib.svg_to_png(svg))


def requirement_names(dist: metadata.Distribution) -> list[str]:
    """The distributions ``dist`` requires (not those of its extras)."""
    names = []
    for line in dist.requires or []:
        if "extra ==" in line or "extra==" in line:
            continue
        found = re.match(r"[A-Za-z0-9._-]+", line)
        if found:
            names.append(found.group(0))
    return names


def closure(name: str) -> dict[str, int]:
    """Each installed distribution ``name`` brings, with its bytes on disk."""
    out: dict[str, int] = {}
    todo = [name]
    while todo:
        key = re.sub(r"[-_.]+", "-", todo.pop()).lower()
        if key in out:
            continue
        try:
            dist = metadata.distribution(key)
        except metadata.PackageNotFoundError:
            continue
        out[key] = sum(
            path.stat().st_size
            for f in dist.files or []
            if (path := Path(str(dist.locate_file(f)))).is_file()
        )
        todo.extend(requirement_names(dist))
    return out


def install_mb(name: str) -> float:
    """The MB ``name`` and what it requires add to a plain cpknight install."""
    have = closure("cpknight")
    return sum(v for k, v in closure(name).items() if k not in have) / 2**20


def fresh_seconds(script: str, args: list[str]) -> float:
    """The wall time a fresh interpreter prints for ``script``."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout.strip())


def render_seconds(render: Render, svg: str) -> float:
    """The seconds of one render."""
    began = time.perf_counter()
    render(svg)
    return time.perf_counter() - began


def interleaved(
    measures: dict[str, Callable[[], float]], repeat: int
) -> dict[str, float]:
    """Each measure's median, the measures taken in turn ``repeat`` times.

    Taking them in turn spreads the machine's other load over all of them
    alike, so that their ratios hold on a busy machine.
    """
    times: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(repeat):
        for name, measure in measures.items():
            times[name].append(measure())
    return {name: statistics.median(values) for name, values in times.items()}


def decode(png: bytes) -> npt.NDArray[np.uint8]:
    """A PNG's pixels as an ``(h, w, 4)`` RGBA array (8-bit RGB or RGBA only)."""
    width, height, depth, kind = struct.unpack(">IIBB", png[16:26])
    if depth != 8 or kind not in (2, 6):
        raise ValueError(f"expected 8-bit RGB or RGBA, not depth {depth} type {kind}")
    data, at = b"", 8
    while at < len(png):
        (length,), tag = struct.unpack(">I", png[at : at + 4]), png[at + 4 : at + 8]
        if tag == b"IDAT":
            data += png[at + 8 : at + 8 + length]
        at += 12 + length
    bpp = 4 if kind == 6 else 3
    raw = np.frombuffer(zlib.decompress(data), dtype=np.uint8)
    rows = raw.reshape(height, 1 + width * bpp)
    out = np.zeros((height, width * bpp), dtype=np.int32)
    prior = np.zeros(width * bpp, dtype=np.int32)
    for y in range(height):
        kind_of_filter, line = int(rows[y, 0]), rows[y, 1:].astype(np.int32)
        if kind_of_filter in (0, 2):
            line = (line + (prior if kind_of_filter == 2 else 0)) % 256
        elif kind_of_filter == 1:  # sub: a running sum per channel
            line = np.cumsum(line.reshape(width, bpp), axis=0).reshape(-1) % 256
        else:  # average or Paeth: byte by byte
            line = line.copy()
            for x in range(width * bpp):
                left = line[x - bpp] if x >= bpp else 0
                up, corner = prior[x], prior[x - bpp] if x >= bpp else 0
                if kind_of_filter == 3:
                    guess = (left + up) // 2
                else:
                    p = left + up - corner
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                    guess = (
                        left if pa <= pb and pa <= pc else up if pb <= pc else corner
                    )
                line[x] = (line[x] + guess) % 256
        out[y] = prior = line
    pixels = out.reshape(height, width, bpp).astype(np.uint8)
    if bpp == 3:
        alpha = np.full((height, width, 1), 255, dtype=np.uint8)
        pixels = np.concatenate([pixels, alpha], axis=2)
    return pixels


def difference(a: bytes, b: bytes) -> tuple[float, float]:
    """The share of pixels apart by more than 32 in a channel, the mean difference.

    Pixels are composed on white first (transparent and white are alike).
    """
    pa, pb = decode(a).astype(np.float64), decode(b).astype(np.float64)
    if pa.shape != pb.shape:
        h, w = min(pa.shape[0], pb.shape[0]), min(pa.shape[1], pb.shape[1])
        pa, pb = pa[:h, :w], pb[:h, :w]

    def on_white(p: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        alpha = p[..., 3:] / 255
        out: npt.NDArray[np.float64] = p[..., :3] * alpha + 255 * (1 - alpha)
        return out

    delta = np.abs(on_white(pa) - on_white(pb))
    return float((delta.max(axis=2) > 32).mean()), float(delta.mean())


def _fresh(
    script: str, renderer: tuple[str, str], files: list[str]
) -> Callable[[], float]:
    module, call = renderer
    text = script.format(module=module, call=call)
    return lambda: fresh_seconds(text, files)


def _timed(render: Render, svg: str) -> Callable[[], float]:
    return lambda: render_seconds(render, svg)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs a figure")
    parser.add_argument("--out", metavar="DIR", help="keep the PNGs in DIR")
    args = parser.parse_args(argv)
    svgs = pictures()
    found = {
        name: render
        for name, (module, _) in RENDERERS.items()
        if (render := renderer(module)) is not None
    }
    if "resvg-py" not in found:
        print("resvg-py is not installed: pip install 'cpknight[png]'")
        return 1
    missing = [name for name in RENDERERS if name not in found]
    if missing:
        print(f"not installed, left out: {', '.join(missing)}")
    out = Path(args.out) if args.out else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    rows: dict[str, dict[str, float]] = {
        name: {"install MB": install_mb(name)} for name in found
    }
    pngs: dict[tuple[str, str], bytes] = {}
    for name, render in found.items():
        for picture, svg in svgs.items():
            pngs[name, picture] = render(svg)  # a first render, not timed
            if out is not None:
                slug = picture.replace(" ", "-")
                (out / f"{slug}-{name}.png").write_bytes(pngs[name, picture])
    with tempfile.TemporaryDirectory() as folder:
        eight = Path(folder) / "8x8.svg"
        eight.write_text(svgs["8x8 tour"], encoding="utf-8")
        for column, script, files in (
            ("import s", IMPORT, []),
            ("cold 8x8 s", COLD, [str(eight)]),
        ):
            medians = interleaved(
                {name: _fresh(script, RENDERERS[name], files) for name in found},
                args.repeat,
            )
            for name, value in medians.items():
                rows[name][column] = value
    for picture, svg in svgs.items():
        medians = interleaved(
            {name: _timed(render, svg) for name, render in found.items()},
            args.repeat,
        )
        for name, value in medians.items():
            rows[name][f"{picture} s"] = value
    base = rows["resvg-py"]
    columns = list(base)
    print(f"{'renderer':<26}" + "".join(f"{c:>15}" for c in columns))
    for name, row in rows.items():
        print(f"{name:<26}" + "".join(f"{row[c]:>15.3f}" for c in columns))
    for name, row in rows.items():
        if name != "resvg-py":
            ratios = "".join(f"{row[c] / base[c]:>14.2f}x" for c in columns)
            print(f"{name + ' / resvg-py':<26}{ratios}")
    print("\nfidelity against resvg-py: share of pixels apart (> 32), mean difference")
    for name in rows:
        if name == "resvg-py":
            continue
        for picture in svgs:
            share, mean = difference(pngs[name, picture], pngs["resvg-py", picture])
            print(f"  {name:<18} {picture:<12} {share:7.2%} {mean:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
