"""The image studio's social optimisation done with Pillow, for `npm run bench:images`.

Same work as the TypeScript side (infra/image/raster.ts, crop mode `center`):
for each format, open the JPEG, crop the centre to the format's ratio and
resize with Lanczos to its exact size, encode JPEG at quality 88 and lower the
quality step by step until the file fits the format's size limit. Pillow's
fast paths are used: JPEG draft mode (DCT-domain downscaling, like libvips'
shrink-on-load) and `reducing_gap` (integer reduction before Lanczos).

Usage: python pillow_social.py <input.jpg> <formats.json> <rounds>
Prints one JSON line: images, seconds, images_per_second, pillow.
"""
import io
import json
import sys
import time

import PIL
from PIL import Image

STEPS = [88, 80, 72, 64, 56, 48, 40, 32, 24]


def one(path, w, h, max_bytes):
    im = Image.open(path)
    sw, sh = im.size
    scale = max(w / sw, h / sh)
    # Draft: let the JPEG decoder scale down by 1/2, 1/4 or 1/8 while staying at least the needed size.
    im.draft("RGB", (int(sw * scale) + 1, int(sh * scale) + 1))
    dw, dh = im.size
    cw, ch = min(dw, w / scale * dw / sw), min(dh, h / scale * dh / sh)
    left, top = (dw - cw) / 2, (dh - ch) / 2
    out = im.convert("RGB").resize((w, h), Image.LANCZOS, box=(left, top, left + cw, top + ch), reducing_gap=3.0)
    for q in STEPS:
        buf = io.BytesIO()
        out.save(buf, "JPEG", quality=q)
        if buf.tell() <= max_bytes:
            return buf.tell()
    raise RuntimeError("cannot fit %dx%d under %d bytes" % (w, h, max_bytes))


def main():
    path, formats_file, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(formats_file) as f:
        formats = json.load(f)
    for fm in formats:  # warm-up round, not timed
        one(path, fm["width"], fm["height"], fm["max_bytes"])
    t0 = time.perf_counter()
    n = 0
    for _ in range(rounds):
        for fm in formats:
            one(path, fm["width"], fm["height"], fm["max_bytes"])
            n += 1
    s = time.perf_counter() - t0
    print(json.dumps({"images": n, "seconds": s, "images_per_second": n / s, "pillow": PIL.__version__}))


if __name__ == "__main__":
    main()
