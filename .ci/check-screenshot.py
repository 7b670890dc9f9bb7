#!/usr/bin/env python3
"""Checks a screenshot of the app: a PNG that is neither blank nor uniform,
with the board (green squares, or the fields of a hex map) in the middle of
the image. Standard library only: decodes 8-bit RGB/RGBA non-interlaced PNGs, which is what bevy writes."""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                sys.exit(f"{path}: unsupported PNG (depth {depth}, colour {colour})")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def main(path):
    w, h, ch, rows = read_png(path)
    pixel = lambda x, y: rows[y][x * ch:x * ch + 3]
    step = 4
    samples = [pixel(x, y) for y in range(0, h, step) for x in range(0, w, step)]
    distinct = len(set(samples))
    if distinct < 50:
        sys.exit(f"{path}: only {distinct} distinct colours: blank or uniform")

    def greenish(p):
        r, g, b = p
        return g > 70 and g > r + 12 and g > b + 12

    # The middle of the view (left of the side panel) must be mostly board.
    cx0, cx1, cy0, cy1 = int(w * 0.25), int(w * 0.55), int(h * 0.35), int(h * 0.65)
    middle = [pixel(x, y) for y in range(cy0, cy1, step) for x in range(cx0, cx1, step)]
    share = sum(map(greenish, middle)) / len(middle)
    if share < 0.4:
        sys.exit(f"{path}: the board covers only {share:.0%} of the middle of the image")
    print(f"{path}: {w}x{h}, {distinct} distinct colours, board covers {share:.0%} of the middle")


if __name__ == "__main__":
    main(sys.argv[1])
