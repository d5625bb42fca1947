#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""png_check.py PNG: exits 0 when PNG is a non-blank 8-bit RGB or RGBA PNG (the kind Chromium's
Page.captureScreenshot writes): the IDAT chunks, inflated with zlib and un-filtered row by row
(PNG's five filters), must hold more than one distinct pixel, and a sane share of them must differ
from the most common one (a report section is text and lines on white: far from all white).
Standard library only (no PIL)."""
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("no PNG signature")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError("not 8-bit non-interlaced RGB/RGBA (depth %d, type %d)" % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    counts = {}
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + (0, a, b, (a + b) // 2, paeth(a, b, c))[f]) & 0xFF
        for x in range(0, stride, bpp):
            px = bytes(line[x:x + bpp])
            counts[px] = counts.get(px, 0) + 1
        prev = line
    return w, h, counts


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        w, h, counts = pixels(argv[0])
    except (ValueError, zlib.error, struct.error, TypeError) as e:
        print("FAIL %s: %s" % (argv[0], e))
        return 1
    total = w * h
    other = total - max(counts.values())
    print("%s: %dx%d, %d distinct pixel values, %.1f%% not the most common" % (
        argv[0], w, h, len(counts), 100.0 * other / total))
    if len(counts) < 2 or other < total // 100:
        print("FAIL %s: blank (fewer than 1%% of the pixels differ from the background)" % argv[0])
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
