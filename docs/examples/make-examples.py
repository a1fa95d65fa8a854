#!/usr/bin/env python3
"""Make the files the README's tour uses, beside this script.

    scripts/python docs/examples/make-examples.py            # writes them
    scripts/python docs/examples/make-examples.py --check    # compares with them (CI)

- teal.png: a teal bow tie drawn as scripts/draw-bowties.py draws the sample ties;
- damaged.png: images/red.png with the CRC of its first IDAT chunk flipped, so that it
  no longer decodes;
- mine.plist: three ties of your own in the seed format, the third with a rating of 7.5,
  which `seed` refuses.

The outputs are checked in (the README test copies them into its temporary home), so
this script runs only when one of them should change. Its output is deterministic.
"""

import importlib.util
import struct
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
EXAMPLES = HERE.relative_to(ROOT)  # where they go, under the repository's root

sys.path.insert(0, str(ROOT / "scripts"))
import tracked  # noqa: E402  (scripts/tracked.py, found through the line above)


def draw_teal(out):
    spec = importlib.util.spec_from_file_location("draw", ROOT / "scripts" / "draw-bowties.py")
    draw = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(draw)
    draw.save(draw.draw_bowtie((0, 128, 128)), out / "teal.png")


def damage_red(out):
    data = bytearray((ROOT / "images" / "red.png").read_bytes())
    offset = 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = bytes(data[offset + 4 : offset + 8])
        crc = offset + 8 + length
        if kind == b"IDAT":
            data[crc] ^= 0xFF
            break
        offset = crc + 4
    (out / "damaged.png").write_bytes(bytes(data))


ENTRY = """\t<dict>
\t\t<key>name</key>
\t\t<string>{name}</string>
\t\t<key>searchKey</key>
\t\t<string>{key}</string>
\t\t<key>rating</key>
\t\t<real>{rating}</real>
\t\t<key>tintColor</key>
\t\t<dict>
\t\t\t<key>red</key>
\t\t\t<integer>{r}</integer>
\t\t\t<key>green</key>
\t\t\t<integer>{g}</integer>
\t\t\t<key>blue</key>
\t\t\t<integer>{b}</integer>
\t\t</dict>
\t\t<key>timesWorn</key>
\t\t<integer>0</integer>
\t\t<key>isFavorite</key>
\t\t<false/>
\t</dict>
"""


def write_plist(out):
    ties = [
        ("Paisley Bow Tie", "P", 4.0, (128, 0, 32)),
        ("Polka Dot Bow Tie", "D", 3.5, (0, 0, 128)),
        ("Houndstooth Bow Tie", "H", 7.5, (40, 40, 40)),
    ]
    body = "".join(
        ENTRY.format(name=name, key=key, rating=rating, r=r, g=g, b=b)
        for name, key, rating, (r, g, b) in ties
    )
    (out / "mine.plist").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN"'
        ' "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
        '<plist version="1.0">\n<array>\n' + body + "</array>\n</plist>\n"
    )


def write(root):
    out = root / EXAMPLES
    out.mkdir(parents=True, exist_ok=True)
    draw_teal(out)
    damage_red(out)
    write_plist(out)
    for name in ("teal.png", "damaged.png", "mine.plist"):
        print(f"wrote {out / name} ({(out / name).stat().st_size} bytes)")


if __name__ == "__main__":
    tracked.run("make-examples.py", write, usage=__doc__)
