#!/usr/bin/env python3
"""Draw the seven sample bow-tie photos used by the `bowties` sample data.

Run from anywhere:

    scripts/python scripts/draw-bowties.py            # writes images/
    scripts/python scripts/draw-bowties.py --check    # compares with images/ (CI)

Writes images/{red,orange,yellow,green,blue,indigo,violet}.png at the repo
root (found relative to this file, not the current directory). scripts/python
runs it with the Pillow that drew the tracked images (scripts/tracked.py
says what --check does).

Each picture is a shaded bow tie -- two flared, pleated wings and a knot --
in the tie's colour on a transparent background.  Everything is drawn at
SUPERSAMPLE times the final size and shrunk with LANCZOS, which gives smooth
anti-aliased edges without any per-shape anti-aliasing code.  Output is
deterministic: no randomness, and PNGs are written without timestamps.
"""

from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter

import tracked

# The colours must match the app's sample data exactly.
TIES = {
    "red": (239, 48, 36),
    "orange": (243, 123, 30),
    "yellow": (253, 204, 12),
    "green": (34, 153, 84),
    "blue": (29, 112, 196),
    "indigo": (75, 47, 145),
    "violet": (148, 82, 165),
}

SIZE = 128  # final image edge, in pixels
SUPERSAMPLE = 4  # drawing scale; shrinking by this much anti-aliases edges
CANVAS = SIZE * SUPERSAMPLE

OUT_DIR = Path("images")  # under the repository's root

# Shape geometry, in final-image pixels for a left wing (the right wing is a
# mirror image).  Each segment is a cubic Bezier: (start, control1, control2, end).
WING_PATH = [
    # Top edge: hugs the knot, then sweeps up into the outer corner.
    ((60, 54), (46, 52), (30, 30), (16, 29)),
    # Rounded upper-outer corner.
    ((16, 29), (10, 29), (7, 33), (7, 40)),
    # Outer edge, with a slight inward dip that makes the wing read as a bow.
    ((7, 40), (10, 56), (10, 72), (7, 88)),
    # Rounded lower-outer corner.
    ((7, 88), (7, 95), (10, 99), (16, 99)),
    # Bottom edge, mirroring the top.
    ((16, 99), (30, 98), (46, 76), (60, 74)),
]

# Pleats (folds) gathered into the knot, fanning out across the wing.
PLEATS = [
    ((58, 60), (46, 58), (34, 48), (20, 44)),
    ((58, 68), (46, 70), (34, 80), (20, 84)),
]

KNOT_BOX = (54, 48, 74, 80)  # left, top, right, bottom
KNOT_RADIUS = 6

RADIAL_EDGE = 179  # value of Image.radial_gradient() at its edge midpoints


# ---------------------------------------------------------------- colour math


def mix(a, b, t):
    """Linear blend of two RGB colours; t=0 gives a, t=1 gives b."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))


def shade(color, amount):
    """Darken (amount < 0, towards a deep tone of the same hue) or lighten (> 0)."""
    if amount >= 0:
        return mix(color, (255, 255, 255), amount)
    # Darken by multiplying rather than mixing with black so saturated
    # colours stay rich instead of going grey.
    return tuple(round(c * (1 + amount)) for c in color)


# ------------------------------------------------------------------- geometry


def scaled(point):
    """Final-image coordinates -> supersampled canvas coordinates."""
    return (point[0] * SUPERSAMPLE, point[1] * SUPERSAMPLE)


def bezier(p0, p1, p2, p3, steps=32):
    """Sample a cubic Bezier curve (without its final point)."""
    points = []
    for i in range(steps):
        t = i / steps
        u = 1 - t
        points.append(tuple(
            u**3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t**3 * d
            for a, b, c, d in zip(p0, p1, p2, p3)))
    return points


def path_points(segments):
    """Flatten Bezier segments into one polyline in canvas coordinates."""
    points = []
    for segment in segments:
        points += bezier(*(scaled(p) for p in segment))
    points.append(scaled(segments[-1][3]))
    return points


def mirror(points):
    """Reflect canvas points across the vertical centre line."""
    return [(CANVAS - x, y) for x, y in points]


# ----------------------------------------------------------------- rendering


def solid(color):
    return Image.new("RGB", (CANVAS, CANVAS), color)


def polygon_mask(points):
    mask = Image.new("L", (CANVAS, CANVAS), 0)
    ImageDraw.Draw(mask).polygon(points, fill=255)
    return mask


def horizontal_ramp(x0, x1):
    """Mask that is 0 left of x0, 255 right of x1, linear in between."""
    # linear_gradient runs black (top) to white (bottom); a quarter turn
    # anticlockwise makes it run black (left) to white (right).
    ramp = Image.linear_gradient("L").rotate(90, expand=True)
    width = max(1, round(x1 - x0))
    ramp = ramp.resize((width, CANVAS))
    mask = Image.new("L", (CANVAS, CANVAS), 0)
    mask.paste(255, (round(x1), 0, CANVAS, CANVAS))
    mask.paste(ramp, (round(x0), 0))
    return mask


def soft_spot(center, radius):
    """Round glow mask: 255 at the centre fading to 0 at `radius`."""
    # radial_gradient only reaches 255 in the corners (~179 at the edge
    # midpoints), so rescale it to hit 0 on the inscribed circle; otherwise
    # the glow would end in a visible hard edge.  Squaring gives a softer falloff.
    spot = Image.radial_gradient("L").point(
        lambda v: round(255 * max(0.0, 1 - v / RADIAL_EDGE) ** 2))
    size = round(radius * 2)
    spot = spot.resize((size, size))
    mask = Image.new("L", (CANVAS, CANVAS), 0)
    mask.paste(spot, (round(center[0] - radius), round(center[1] - radius)))
    return mask


def layer(canvas, color_image, mask):
    """Composite `color_image` onto `canvas` through `mask` (alpha-correct)."""
    top = color_image.convert("RGBA")
    top.putalpha(mask)
    return Image.alpha_composite(canvas, top)


def pleat_masks(mirrored):
    """Soft dark crease lines plus the lit ridge just beside each crease."""
    crease = Image.new("L", (CANVAS, CANVAS), 0)
    ridge = Image.new("L", (CANVAS, CANVAS), 0)
    crease_draw, ridge_draw = ImageDraw.Draw(crease), ImageDraw.Draw(ridge)
    width = round(2.2 * SUPERSAMPLE)
    for pleat in PLEATS:
        line = path_points([pleat])
        if mirrored:
            line = mirror(line)
        # The ridge sits on the side of the crease that faces the centre line,
        # as if light catches the fold's upper lip.
        toward_middle = 1 if pleat[0][1] < 64 else -1
        lip = [(x, y + toward_middle * 2.2 * SUPERSAMPLE) for x, y in line]
        crease_draw.line(line, fill=255, width=width, joint="curve")
        ridge_draw.line(lip, fill=150, width=width, joint="curve")
    blur = ImageFilter.GaussianBlur(1.6 * SUPERSAMPLE)
    return crease.filter(blur), ridge.filter(blur)


def fade_from_knot(mask, mirrored):
    """Make folds strongest at the knot and vanish towards the wing tip."""
    ramp = horizontal_ramp(*(scaled((18, 0))[0], scaled((56, 0))[0]))
    if mirrored:
        ramp = ramp.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    return ImageChops.multiply(mask, ramp)


def draw_wing(canvas, color, mirrored):
    """One wing: gradient body, outer highlight, pleats, then an outline."""
    outline = path_points(WING_PATH)
    if mirrored:
        outline = mirror(outline)
    wing = polygon_mask(outline)

    # Body: darker where the cloth is gathered into the knot, full colour outside.
    ramp = fade_from_knot(Image.new("L", (CANVAS, CANVAS), 255), mirrored)
    body = Image.composite(solid(shade(color, -0.38)), solid(color), ramp)
    canvas = layer(canvas, body, wing)

    # Broad highlight on the upper outer part of the wing; light comes from
    # the upper left, so the left wing gets the brighter one.
    spot_center = scaled((30, 46))
    if mirrored:
        spot_center = (CANVAS - spot_center[0], spot_center[1])
    strength = 0.75 if not mirrored else 0.5
    glow = soft_spot(spot_center, 30 * SUPERSAMPLE)
    glow = ImageChops.multiply(glow, wing).point(lambda v: round(v * strength))
    canvas = layer(canvas, solid(shade(color, 0.42)), glow)

    # Pleats: clipped to the wing and faded as they leave the knot.
    crease, ridge = pleat_masks(mirrored)
    crease = ImageChops.multiply(fade_from_knot(crease, mirrored), wing)
    ridge = ImageChops.multiply(fade_from_knot(ridge, mirrored), wing)
    canvas = layer(canvas, solid(shade(color, -0.5)), crease.point(lambda v: v * 3 // 4))
    canvas = layer(canvas, solid(shade(color, 0.35)), ridge)

    # A crisp darker edge keeps the shape readable on both light and dark UIs.
    edge = Image.new("L", (CANVAS, CANVAS), 0)
    ImageDraw.Draw(edge).line(outline + [outline[0]], fill=255,
                              width=round(1.2 * SUPERSAMPLE), joint="curve")
    return layer(canvas, solid(shade(color, -0.55)), edge)


def draw_knot(canvas, color):
    """Knot: a darker rounded block, shaded like a cylinder with a highlight."""
    box = [scaled(KNOT_BOX[:2]), scaled(KNOT_BOX[2:])]
    radius = KNOT_RADIUS * SUPERSAMPLE
    knot = Image.new("L", (CANVAS, CANVAS), 0)
    ImageDraw.Draw(knot).rounded_rectangle(box, radius, fill=255)

    # Cylinder shading: dark at both sides, lighter a little left of centre.
    left, right = box[0][0], box[1][0]
    mid = left + (right - left) * 0.42
    rise = horizontal_ramp(left, mid)
    fall = ImageChops.invert(horizontal_ramp(mid, right))
    roundness = ImageChops.multiply(rise, fall)
    body = Image.composite(solid(shade(color, -0.12)), solid(shade(color, -0.45)), roundness)
    canvas = layer(canvas, body, knot)

    # Specular highlight: a soft vertical streak near the top-left.
    streak = Image.new("L", (CANVAS, CANVAS), 0)
    sx = left + (right - left) * 0.36
    ImageDraw.Draw(streak).line(
        [(sx, box[0][1] + 5 * SUPERSAMPLE), (sx, box[0][1] + 17 * SUPERSAMPLE)],
        fill=200, width=round(2.5 * SUPERSAMPLE))
    streak = ImageChops.multiply(streak.filter(ImageFilter.GaussianBlur(1.5 * SUPERSAMPLE)), knot)
    canvas = layer(canvas, solid(shade(color, 0.6)), streak)

    edge = Image.new("L", (CANVAS, CANVAS), 0)
    ImageDraw.Draw(edge).rounded_rectangle(box, radius, outline=255,
                                           width=round(1.2 * SUPERSAMPLE))
    return layer(canvas, solid(shade(color, -0.6)), edge)


def draw_shadow(canvas):
    """Faint soft shadow under the whole tie so it sits on light backgrounds."""
    outline = path_points(WING_PATH)
    silhouette = ImageChops.lighter(polygon_mask(outline), polygon_mask(mirror(outline)))
    offset = 2 * SUPERSAMPLE
    silhouette = ImageChops.offset(silhouette, 0, offset)
    shadow = silhouette.filter(ImageFilter.GaussianBlur(2.5 * SUPERSAMPLE))
    return layer(canvas, solid((0, 0, 0)), shadow.point(lambda v: v * 22 // 100))


def draw_bowtie(color):
    """Render one tie and return the final-size RGBA image."""
    canvas = Image.new("RGBA", (CANVAS, CANVAS), (0, 0, 0, 0))
    canvas = draw_shadow(canvas)
    canvas = draw_wing(canvas, color, mirrored=False)
    canvas = draw_wing(canvas, color, mirrored=True)
    canvas = draw_knot(canvas, color)
    return canvas.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


def save(image, path):
    """Write a compressed RGBA PNG; Pillow adds no timestamp, so bytes are stable.

    A quantised palette image would be ~4x smaller, but Pillow's RGBA
    quantiser (FASTOCTREE) leaves visible bands in the soft gradients, and
    full RGBA still comes in around 11 KB.
    """
    image.save(path, optimize=True)


def write(root):
    folder = root / OUT_DIR
    folder.mkdir(parents=True, exist_ok=True)
    for name, color in TIES.items():
        path = folder / f"{name}.png"
        save(draw_bowtie(color), path)
        print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    tracked.run("draw-bowties.py", write, owned=[str(OUT_DIR)])
