#!/usr/bin/env python3
"""Make the photo fixtures the tests use, and the phone-sized JPEG the benchmark uses.

    scripts/python scripts/make-photo-fixtures.py          # writes Tests/Fixtures/
    scripts/python scripts/make-photo-fixtures.py --check  # compares with them (CI)
    scripts/python scripts/make-photo-fixtures.py --phone OUT.jpg
                                                           # a 12-megapixel phone JPEG (not committed)
    scripts/python scripts/make-photo-fixtures.py --series FOLDER COUNT
                                                           # COUNT photos above 128 KiB (not committed)

scripts/python runs it with the Pillow that made the tracked fixtures (Pillow's versions
draw them differently). Output is deterministic: the same bytes every run.

Tests/Fixtures/Photos/
  orientation-N.jpg   N = 1..8: one picture, stored with EXIF orientation N, its pixels
                      turned so that, turned upright as the tag says, it shows a 48x32
                      image with a red top-left, green top-right, blue bottom-left and
                      yellow bottom-right quarter. Each is checked here with Pillow's own
                      exif_transpose.
  phone.jpg           a small phone-like photo: 640x480 stored, EXIF orientation 6
                      (held upright: 480x640 as seen), camera make and model tags.
  progressive.jpg, grey.jpg, cmyk.jpg
                      the upright quarters as a progressive JPEG, in greys, and in
                      Adobe's inverted CMYK (what print software writes).
  corrupt/            one damaged or unsupported file of each kind (see CORRUPT below).

Tests/Fixtures/BookProject/BowTies/
  The Core Data book's BowTies project as a seed sees it: SampleData.plist (imageName
  "red.png" and so on, no images/ folder) beside Assets.xcassets, an Xcode asset catalog
  with folder groups, Contents.json files, @1x/@2x/@3x entries, variants to be ignored
  (dark appearance, iPhone idiom), and vector PDFs written by this script.

--series: photoNNNNN.jpg in FOLDER, COUNT different photos (a tie of a sample color on a
backdrop, with grain), each 800x600 and above 128 KiB, so that a seed stores each outside
the database; scripts/crash-test seeds them.
"""

import importlib.util
import io
import plistlib
import random
import shutil
import struct
import sys
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageOps

import tracked

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path("Tests") / "Fixtures"  # under the repository's root

QUARTERS = {  # upright corner colours
    "top-left": (220, 30, 30),
    "top-right": (30, 180, 60),
    "bottom-left": (30, 60, 220),
    "bottom-right": (240, 210, 20),
}

# How Pillow turns an image stored with each orientation upright (what exif_transpose
# does), and so the inverse, applied to the upright picture, gives the stored pixels.
TO_UPRIGHT = {
    1: None,
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
INVERSE = {
    Image.Transpose.ROTATE_270: Image.Transpose.ROTATE_90,
    Image.Transpose.ROTATE_90: Image.Transpose.ROTATE_270,
}

def _draw_bowties():
    """scripts/draw-bowties.py, whose sample colours and wing shape these photos share."""
    spec = importlib.util.spec_from_file_location("draw", ROOT / "scripts" / "draw-bowties.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_DRAW = _draw_bowties()
TIES = _DRAW.TIES  # the sample ties' colours, as in SampleData.plist
# A bow tie's left wing in a 128x128 box, y down, as cubic Bezier segments.
WING = _DRAW.WING_PATH


def upright_quarters(width=48, height=32):
    image = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(image)
    w, h = width // 2, height // 2
    draw.rectangle([0, 0, w - 1, h - 1], fill=QUARTERS["top-left"])
    draw.rectangle([w, 0, width - 1, h - 1], fill=QUARTERS["top-right"])
    draw.rectangle([0, h, w - 1, height - 1], fill=QUARTERS["bottom-left"])
    draw.rectangle([w, h, width - 1, height - 1], fill=QUARTERS["bottom-right"])
    return image


def exif_bytes(orientation, make=None, model=None):
    exif = Image.Exif()
    exif[0x0112] = orientation
    if make:
        exif[0x010F] = make
    if model:
        exif[0x0110] = model
    return exif.tobytes()


def jpeg(image, orientation=1, quality=95, **tags):
    out = io.BytesIO()
    image.save(out, "JPEG", quality=quality, exif=exif_bytes(orientation, **tags))
    return out.getvalue()


def close(a, b, tolerance=24):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def orientation_fixtures(folder):
    upright = upright_quarters()
    for orientation, method in TO_UPRIGHT.items():
        stored = upright if method is None else upright.transpose(INVERSE.get(method, method))
        data = jpeg(stored, orientation)
        # Checked with Pillow's own reading of the tag, independently of bowties.
        seen = ImageOps.exif_transpose(Image.open(io.BytesIO(data)))
        assert seen.size == upright.size, (orientation, seen.size)
        for corner, (x, y) in {
            "top-left": (6, 6),
            "top-right": (41, 6),
            "bottom-left": (6, 25),
            "bottom-right": (41, 25),
        }.items():
            assert close(seen.getpixel((x, y)), QUARTERS[corner]), (orientation, corner)
        (folder / f"orientation-{orientation}.jpg").write_bytes(data)


def bezier(p0, p1, p2, p3, steps=24):
    points = []
    for i in range(steps + 1):
        t = i / steps
        u = 1 - t
        points.append(
            tuple(
                u * u * u * a + 3 * u * u * t * b + 3 * u * t * t * c + t * t * t * d
                for a, b, c, d in zip(p0, p1, p2, p3)
            )
        )
    return points


def wing_polygon(scale, dx, dy, mirror=False):
    points = []
    for segment in WING:
        for x, y in bezier(*segment):
            if mirror:
                x = 128 - x
            points.append((dx + x * scale, dy + y * scale))
    return points


def photo_scene(width, height, colour, seed, noise=0):
    """A photographed bow tie: a soft backdrop, the tie, and (for size) sensor noise."""
    backdrop = Image.linear_gradient("L").resize((width, height)).convert("RGB")
    backdrop = ImageChops.multiply(backdrop, Image.new("RGB", (width, height), (235, 225, 210)))
    backdrop = ImageChops.add(backdrop, Image.new("RGB", (width, height), (40, 40, 40)))
    draw = ImageDraw.Draw(backdrop)
    scale = min(width, height) / 128 * 0.9
    dx = (width - 128 * scale) / 2
    dy = (height - 128 * scale) / 2
    dark = tuple(int(c * 0.7) for c in colour)
    for mirror in (False, True):
        draw.polygon(wing_polygon(scale, dx, dy, mirror), fill=colour, outline=dark)
    draw.rounded_rectangle(
        [dx + 54 * scale, dy + 48 * scale, dx + 74 * scale, dy + 80 * scale],
        radius=6 * scale,
        fill=dark,
    )
    if noise:
        random.seed(seed)
        grain = Image.effect_noise((width, height), noise).convert("RGB")
        backdrop = ImageChops.add(backdrop, grain, 1.0, -128)
    return backdrop


def phone_jpeg(width, height, quality, noise):
    """Stored landscape with orientation 6, as a phone held upright writes it."""
    upright = photo_scene(height, width, TIES["red"], seed=7, noise=noise)
    stored = upright.transpose(Image.Transpose.ROTATE_90)
    return jpeg(stored, 6, quality=quality, make="BowTies", model="Test Phone")


def pdf_document(colour, points=128):
    """A one-page vector PDF of a bow tie on a transparent page, `points` square."""
    r, g, b = (c / 255 for c in colour)
    dark = tuple(round(c * 0.7, 3) for c in (r, g, b))
    scale = points / 128

    def path(mirror):
        def p(point):
            x, y = point
            if mirror:
                x = 128 - x
            return f"{x * scale:.2f} {(128 - y) * scale:.2f}"

        ops = [f"{p(WING[0][0])} m"]
        for segment in WING:
            ops.append(f"{p(segment[1])} {p(segment[2])} {p(segment[3])} c")
        ops.append("h B")
        return "\n".join(ops)

    knot = f"{54 * scale:.2f} {(128 - 80) * scale:.2f} {20 * scale:.2f} {32 * scale:.2f} re f"
    content = (
        f"{r:.3f} {g:.3f} {b:.3f} rg {dark[0]} {dark[1]} {dark[2]} RG {scale:.2f} w\n"
        + path(False)
        + "\n"
        + path(True)
        + f"\n{dark[0]} {dark[1]} {dark[2]} rg\n{knot}\n"
    )
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {points} {points}] /Contents 4 0 R"
        " /Resources << >> >>",
        f"<< /Length {len(content)} >>\nstream\n{content}endstream",
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode()
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return out


def contents_json(images=None, extra=None):
    import json

    document = {}
    if images is not None:
        document["images"] = images
    document["info"] = {"author": "xcode", "version": 1}
    if extra:
        document.update(extra)
    return json.dumps(document, indent=2, sort_keys=True).encode() + b"\n"


def write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def book_project(folder):
    """The BowTies project folder as the book ships it, as far as a seed reads it."""
    if folder.exists():
        shutil.rmtree(folder)
    catalog = folder / "Assets.xcassets"
    write(catalog / "Contents.json", contents_json())
    write(
        catalog / "AccentColor.colorset" / "Contents.json",
        contents_json(extra={"colors": [{"idiom": "universal"}]}),
    )
    write(
        catalog / "AppIcon.appiconset" / "Contents.json",
        contents_json([{"idiom": "universal", "platform": "ios", "size": "1024x1024"}]),
    )
    group = catalog / "bowties"
    write(group / "Contents.json", contents_json())
    # red: the current edition's single-scale vector PDF.
    red = group / "red.imageset"
    write(red / "red.pdf", pdf_document(TIES["red"]))
    write(
        red / "Contents.json",
        contents_json(
            [{"filename": "red.pdf", "idiom": "universal"}],
            {"properties": {"preserves-vector-representation": True}},
        ),
    )
    # orange: an older edition's JPEGs at 1x, 2x and 3x; the 3x is the one to take.
    orange = group / "orange.imageset"
    entries = []
    for scale in (1, 2, 3):
        name = "orange.jpg" if scale == 1 else f"orange@{scale}x.jpg"
        write(orange / name, jpeg(photo_scene(40 * scale, 30 * scale, TIES["orange"], seed=scale)))
        entries.append({"filename": name, "idiom": "universal", "scale": f"{scale}x"})
    write(orange / "Contents.json", contents_json(entries))
    # yellow: PNGs at 2x and 3x, an empty 1x slot, a dark-appearance 3x and an iPhone-only
    # 3x that are not the universal image, in a nested folder group.
    yellow = group / "summer" / "yellow.imageset"
    write(group / "summer" / "Contents.json", contents_json())
    for name, size, colour in [
        ("yellow@2x.png", 64, TIES["yellow"]),
        ("yellow@3x.png", 96, TIES["yellow"]),
        ("yellow-dark@3x.png", 99, (90, 80, 10)),
        ("yellow-phone@3x.png", 93, (255, 255, 255)),
    ]:
        out = io.BytesIO()
        photo_scene(size, size, colour, seed=size).save(out, "PNG")
        write(yellow / name, out.getvalue())
    write(
        yellow / "Contents.json",
        contents_json(
            [
                {"idiom": "universal", "scale": "1x"},
                {"filename": "yellow@2x.png", "idiom": "universal", "scale": "2x"},
                {"filename": "yellow@3x.png", "idiom": "universal", "scale": "3x"},
                {
                    "appearances": [{"appearance": "luminosity", "value": "dark"}],
                    "filename": "yellow-dark@3x.png",
                    "idiom": "universal",
                    "scale": "3x",
                },
                {"filename": "yellow-phone@3x.png", "idiom": "iphone", "scale": "3x"},
            ]
        ),
    )
    # The others: vector PDFs, 100 points square, straight in the catalog.
    for name in ("green", "blue", "indigo", "violet"):
        folder_set = catalog / f"{name}.imageset"
        write(folder_set / f"{name}.pdf", pdf_document(TIES[name], points=100))
        write(
            folder_set / "Contents.json",
            contents_json([{"filename": f"{name}.pdf", "idiom": "universal"}]),
        )
    # The sample plist as the book's project has it: imageName "red.png" and so on.
    with open(ROOT / "SampleData.plist", "rb") as handle:
        entries = plistlib.load(handle)
    for entry in entries:
        entry["imageName"] = entry["imageName"] + ".png"
    write(folder / "SampleData.plist", plistlib.dumps(entries, sort_keys=True))


CORRUPT = {
    # A phone JPEG cut off halfway: libjpeg would fill the rest with grey.
    "truncated.jpg": lambda: phone_jpeg(640, 480, 90, 8)[: len(phone_jpeg(640, 480, 90, 8)) // 2],
    # A JPEG's start-of-image marker, then noise.
    "garbage.jpg": lambda: b"\xff\xd8\xff\xe0" + random.Random(1).randbytes(400),
    # A valid JPEG whose EXIF block is damaged: the photo still reads, upright as stored.
    "damaged-exif.jpg": lambda: damaged_exif(),
    # The 200-byte file the issue names: PNG's signature and random bytes.
    "signature-only.png": lambda: b"\x89PNG\r\n\x1a\n" + random.Random(2).randbytes(192),
    # A PDF header and noise, and a PDF cut off before its first page.
    "garbage.pdf": lambda: b"%PDF-1.4\n" + random.Random(3).randbytes(300),
    "truncated.pdf": lambda: pdf_document(TIES["red"])[:200],
    # Formats bowties recognizes but does not read.
    "photo.heic": lambda: struct.pack(">I", 24) + b"ftypheic" + b"\0\0\0\0mif1heic" + bytes(64),
    "photo.gif": lambda: gif(),
}


def damaged_exif():
    data = bytearray(jpeg(upright_quarters(), 6))
    start = data.index(b"Exif\0\0") + 6
    # The TIFF header's offset to the first directory, pointed far past the block.
    data[start + 4 : start + 8] = b"\xff\xff\xff\x00" if data[start] == 0x4D else b"\x00\xff\xff\xff"
    return bytes(data)


def gif():
    out = io.BytesIO()
    upright_quarters().save(out, "GIF")
    return out.getvalue()


def photo_series(folder, count):
    """`count` different photos, each above 128 KiB (bowties keeps such a photo outside
    the database)."""
    folder.mkdir(parents=True, exist_ok=True)
    colours = list(TIES.values())
    for index in range(count):
        scene = photo_scene(800, 600, colours[index % len(colours)], seed=index)
        # Grain from a seeded generator: every photo its own bytes, the same every run.
        grain = Image.frombytes("L", (800, 600), random.Random(index).randbytes(800 * 600))
        photo = ImageChops.add(scene, Image.merge("RGB", (grain, grain, grain)), 4.0, -32)
        out = io.BytesIO()
        photo.save(out, "JPEG", quality=90)
        assert out.tell() > 128 * 1024, (index, out.tell())
        (folder / f"photo{index:05d}.jpg").write_bytes(out.getvalue())


def write_fixtures(root):
    fixtures = root / FIXTURES
    photos = fixtures / "Photos"
    (photos / "corrupt").mkdir(parents=True, exist_ok=True)
    orientation_fixtures(photos)
    (photos / "phone.jpg").write_bytes(phone_jpeg(640, 480, 85, 6))
    for name, image, options in [
        ("progressive.jpg", upright_quarters(), {"progressive": True}),
        ("grey.jpg", upright_quarters().convert("L"), {}),
        ("cmyk.jpg", upright_quarters().convert("CMYK"), {}),
    ]:
        out = io.BytesIO()
        image.save(out, "JPEG", quality=95, **options)
        (photos / name).write_bytes(out.getvalue())
    for name, make in CORRUPT.items():
        (photos / "corrupt" / name).write_bytes(make())
    book_project(fixtures / "BookProject" / "BowTies")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--phone":
        # 12 megapixels and about 4 MB, as a phone's camera writes them.
        Path(sys.argv[2]).write_bytes(phone_jpeg(4032, 3024, 92, 10))
        return
    if len(sys.argv) == 4 and sys.argv[1] == "--series" and sys.argv[3].isdigit():
        photo_series(Path(sys.argv[2]), int(sys.argv[3]))
        return
    tracked.run("make-photo-fixtures.py", write_fixtures,
                owned=[str(FIXTURES / "Photos"), str(FIXTURES / "BookProject")], usage=__doc__)


if __name__ == "__main__":
    main()
