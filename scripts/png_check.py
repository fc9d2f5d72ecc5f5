#!/usr/bin/env python3
"""Check that PNG screenshots are not blank: decode each (8-bit RGB/RGBA, any filter) and require
a real spread of colours. Prints one line per file; exits 1 if any looks blank or cannot be read.

`--board L,T,R,B` (fractions of the width and height) applies to the files after it: that region,
where the board is drawn between the HUD's panels, must hold a spread of colours too, so that a
view whose scene failed to draw (the HUD alone on the clear colour) fails.
Standard library only."""
import struct, sys, zlib

def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                raise ValueError(f"unsupported PNG (depth {depth}, colour type {ctype})")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line); prev = line
    return w, h, bpp, rows

def spread(rows, bpp, x0, y0, x1, y1):
    lum, colours = [], set()
    for y in range(y0, y1, 4):
        r = rows[y]
        for x in range(x0, x1, 4):
            i = x * bpp
            lum.append((r[i] * 299 + r[i + 1] * 587 + r[i + 2] * 114) // 1000)
            colours.add((r[i] >> 3, r[i + 1] >> 3, r[i + 2] >> 3))
    mean = sum(lum) / len(lum)
    return sum((v - mean) ** 2 for v in lum) / len(lum), len(colours)

def main(args):
    bad, paths, region = 0, 0, None
    it = iter(args)
    for p in it:
        if p == "--board":
            region = [float(v) for v in next(it).split(",")]
            continue
        paths += 1
        try:
            w, h, bpp, rows = decode(p)
        except Exception as e:
            print(f"{p}: cannot read: {e}"); bad += 1; continue
        if region:
            l, t, r_, b = region
            var, n = spread(rows, bpp, int(l * w), int(t * h), int(r_ * w), int(b * h))
            ok = var > 100 and n > 30
            print(f"{p}: board region luminance variance {var:.0f}, {n} colours: {'ok' if ok else 'NO BOARD?'}")
            bad += 0 if ok else 1
        lum, colours = [], set()
        for y in range(0, h, 4):
            r = rows[y]
            for x in range(0, w, 4):
                i = x * bpp
                lum.append((r[i] * 299 + r[i + 1] * 587 + r[i + 2] * 114) // 1000)
                colours.add((r[i] >> 3, r[i + 1] >> 3, r[i + 2] >> 3))
        mean = sum(lum) / len(lum)
        var = sum((v - mean) ** 2 for v in lum) / len(lum)
        ok = var > 20 and len(colours) > 20
        print(f"{p}: {w}x{h}, luminance variance {var:.0f}, {len(colours)} colours: {'ok' if ok else 'BLANK?'}")
        bad += 0 if ok else 1
    return 1 if bad or paths == 0 else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
