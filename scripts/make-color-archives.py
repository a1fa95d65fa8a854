#!/usr/bin/env python3
"""Colour archives as UIKit and AppKit write them, from public descriptions.

No UIKit or AppKit runs here, so each function below writes, with Python's plistlib, the
keyed archive a framework writes for one kind of colour, following the public
descriptions and real archives listed in docs/color-archives.md. The forms:

  uicolor_rgb         UIKit's UIColor(red:green:blue:alpha:): UIColorComponentCount 4,
                      UIRed/UIGreen/UIBlue/UIAlpha as 32-bit floats, the -Double key of
                      each component a float does not hold exactly (double=True, as newer
                      iOS versions write them), NSRGB "%.3g" ASCII without a NUL, NSColorSpace
                      2, $classes [UIColor, NSObject] (or [UIColor, NSColor, NSObject] with
                      appkit_chain=True) and $classhints [NSColor]
  uicolor_white       UIColor(white:alpha:): UIColorComponentCount 2, UIWhite, UIAlpha,
                      NSWhite, NSColorSpace 4
  uicolor_system      a system colour: uicolor_rgb's keys and UISystemColorName
  uicolor_dynamic     a dynamic (asset catalog) colour: UIDynamicCatalogName and its
                      bundle, no components
  nscolor_rgb         AppKit's NSColor in calibrated (1) or device (2) RGB: NSRGB "%.10g"
                      ASCII ending in a NUL
  nscolor_white       NSColor in calibrated (3) or device (4) white: NSWhite
  nscolor_custom_space  an sRGB NSColor as AppKit writes one: NSComponents, and
                      NSCustomColorSpace, an NSColorSpace holding an ICC profile in an
                      NSMutableData, beside an NSRGB that does not match them
  nscolor_catalog     a catalog colour: NSColorSpace 6, NSCatalogName, NSColorName and its
                      fallback NSColor
  uicolor_missing_component, nscolor_missing_component
                      archives with a component missing, which bowties refuses
  tiecolor            bowties' own TieColor archive of before: integer red, green, blue

Each returns the archive's bytes (a binary property list). Run as a script, it writes each
fixture of FIXTURES into a folder:

  scripts/make-color-archives.py [--out DIR]   (default Tests/Fixtures/ColorArchives)
  scripts/make-color-archives.py --check       compare with the tracked fixtures, and with
                                               their copies in Fuzz/Corpus/color-archive/
                                               (named without .bplist); exit 1 on a difference
"""

import argparse
import os
import plistlib
import struct
import sys


class Float32(float):
    """A real that the archive writes in 4 bytes, as NSKeyedArchiver writes what
    encodeFloat:forKey: encodes; plistlib writes every float in 8."""


class _ArchiveWriter(plistlib._BinaryPlistWriter):
    """plistlib's binary writer, with Float32 written as a 4-byte real (marker 0x22)."""

    def _write_object(self, value):
        if isinstance(value, Float32):
            self._object_offsets[self._getrefnum(value)] = self._fp.tell()
            self._fp.write(struct.pack(">Bf", 0x22, value))
        else:
            super()._write_object(value)


def _dumps(value):
    import io

    out = io.BytesIO()
    _ArchiveWriter(out, sort_keys=True, skipkeys=False).write(value)
    return out.getvalue()


class _Archive:
    """An NSKeyedArchiver archive built object by object: $objects[0] is $null, and each
    class description is shared by the objects of its class."""

    def __init__(self):
        self.objects = ["$null"]
        self.classes = {}

    def add(self, value):
        self.objects.append(value)
        return plistlib.UID(len(self.objects) - 1)

    def class_ref(self, chain, hints=None):
        key = (tuple(chain), tuple(hints or ()))
        if key not in self.classes:
            description = {"$classname": chain[0], "$classes": list(chain)}
            if hints:
                description["$classhints"] = list(hints)
            self.classes[key] = self.add(description)
        return self.classes[key]

    def obj(self, chain, fields, hints=None):
        """An object of class chain[0]: its fields, then its class description."""
        fields = dict(fields)
        uid = self.add(fields)
        fields["$class"] = self.class_ref(chain, hints)
        return uid

    def bytes(self, root):
        return _dumps(
            {
                "$version": 100000,
                "$archiver": "NSKeyedArchiver",
                "$top": {"root": root},
                "$objects": self.objects,
            }
        )


def _g3(value):
    """UIKit's "%.3g"."""
    return "%.3g" % value


def _g10(value):
    """AppKit's "%.10g"."""
    return "%.10g" % value


def _is_float32(value):
    return struct.unpack(">f", struct.pack(">f", value))[0] == value


UICOLOR = ["UIColor", "NSObject"]
UICOLOR_APPKIT = ["UIColor", "NSColor", "NSObject"]
NSCOLOR = ["NSColor", "NSObject"]


def _uicolor_rgb_fields(r, g, b, a, double):
    fields = {"UIColorComponentCount": 4}
    for key, value in (("UIRed", r), ("UIGreen", g), ("UIBlue", b), ("UIAlpha", a)):
        fields[key] = Float32(value)
        if double and not _is_float32(value):
            fields[key + "-Double"] = float(value)
    text = " ".join(_g3(v) for v in ((r, g, b) if a == 1 else (r, g, b, a)))
    fields["NSRGB"] = text.encode("ascii")
    fields["NSColorSpace"] = 2
    return fields


def uicolor_rgb(r, g, b, a=1.0, double=False, appkit_chain=False):
    """UIKit's archive of UIColor(red:green:blue:alpha:)."""
    archive = _Archive()
    chain = UICOLOR_APPKIT if appkit_chain else UICOLOR
    root = archive.obj(chain, _uicolor_rgb_fields(r, g, b, a, double), hints=["NSColor"])
    return archive.bytes(root)


def uicolor_white(w, a=1.0, double=False):
    """UIKit's archive of UIColor(white:alpha:)."""
    fields = {"UIColorComponentCount": 2}
    for key, value in (("UIWhite", w), ("UIAlpha", a)):
        fields[key] = Float32(value)
        if double and not _is_float32(value):
            fields[key + "-Double"] = float(value)
    fields["NSWhite"] = (_g3(w) if a == 1 else _g3(w) + " " + _g3(a)).encode("ascii")
    fields["NSColorSpace"] = 4
    archive = _Archive()
    return archive.bytes(archive.obj(UICOLOR, fields, hints=["NSColor"]))


def uicolor_system(name, r, g, b, a=1.0):
    """A system colour: its components, and UISystemColorName."""
    archive = _Archive()
    fields = _uicolor_rgb_fields(r, g, b, a, double=False)
    fields["UISystemColorName"] = archive.add(name)
    return archive.bytes(archive.obj(UICOLOR, fields, hints=["NSColor"]))


def uicolor_dynamic(name="AccentColor", bundle="com.example.BowTies"):
    """A colour from an asset catalog, whose components depend on the device."""
    archive = _Archive()
    fields = {
        "UIDynamicCatalogName": archive.add(name),
        "UIDynamicCatalogBundleIdentifier": archive.add(bundle),
        "UIDynamicCatalogBundleLibraryName": archive.add("BowTies"),
    }
    return archive.bytes(archive.obj(UICOLOR, fields, hints=["NSColor"]))


def uicolor_missing_component(key="UIGreen", r=0.25, g=0.5, b=0.75, a=1.0):
    """uicolor_rgb with one key left out."""
    archive = _Archive()
    fields = _uicolor_rgb_fields(r, g, b, a, double=False)
    del fields[key]
    return archive.bytes(archive.obj(UICOLOR, fields, hints=["NSColor"]))


def nscolor_rgb(r, g, b, a=1.0, space=2):
    """AppKit's archive of an NSColor in calibrated (1) or device (2) RGB."""
    text = " ".join(_g10(v) for v in ((r, g, b) if a == 1 else (r, g, b, a)))
    archive = _Archive()
    fields = {"NSColorSpace": space, "NSRGB": text.encode("ascii") + b"\0"}
    return archive.bytes(archive.obj(NSCOLOR, fields))


def nscolor_white(w, a=1.0, space=3):
    """AppKit's archive of an NSColor in calibrated (3) or device (4) white."""
    text = _g10(w) if a == 1 else _g10(w) + " " + _g10(a)
    archive = _Archive()
    fields = {"NSColorSpace": space, "NSWhite": text.encode("ascii") + b"\0"}
    return archive.bytes(archive.obj(NSCOLOR, fields))


def nscolor_missing_component():
    """nscolor_rgb with only two numbers in NSRGB."""
    archive = _Archive()
    fields = {"NSColorSpace": 2, "NSRGB": b"0.25 0.5\0"}
    return archive.bytes(archive.obj(NSCOLOR, fields))


def icc_profile():
    """A small ICC v2 display profile with sRGB's primaries and a 2.2 gamma: what an
    NSColorSpace's NSICC holds (AppKit's is Apple's sRGB profile, about 3 KB)."""

    def s15(value):
        return struct.pack(">i", round(value * 65536))

    def xyz(x, y, z):
        return b"XYZ " + b"\0" * 4 + s15(x) + s15(y) + s15(z)

    description = b"bowties sRGB"
    desc = (
        b"desc" + b"\0" * 4 + struct.pack(">I", len(description) + 1) + description + b"\0"
        + b"\0" * 12 + b"\0" * 67
    )
    curve = b"curv" + b"\0" * 4 + struct.pack(">IH", 1, round(2.2 * 256)) + b"\0\0"
    tags = [
        (b"desc", desc),
        (b"wtpt", xyz(0.9642, 1.0, 0.8249)),
        (b"rXYZ", xyz(0.4361, 0.2225, 0.0139)),
        (b"gXYZ", xyz(0.3851, 0.7169, 0.0971)),
        (b"bXYZ", xyz(0.1431, 0.0606, 0.7141)),
        (b"rTRC", curve),
        (b"gTRC", curve),
        (b"bTRC", curve),
        (b"cprt", b"text" + b"\0" * 4 + b"No copyright, use freely\0"),
    ]
    offset = 128 + 4 + 12 * len(tags)
    table, data = b"", b""
    for signature, body in tags:
        while (offset + len(data)) % 4:
            data += b"\0"
        table += signature + struct.pack(">II", offset + len(data), len(body))
        data += body
    body = struct.pack(">I", len(tags)) + table + data
    size = 128 + len(body)
    header = (
        struct.pack(">I", size) + b"none" + bytes([2, 0x10, 0, 0]) + b"mntr" + b"RGB "
        + b"XYZ " + struct.pack(">6H", 2026, 11, 21, 0, 0, 0) + b"acsp" + b"\0" * 4
        + struct.pack(">I", 0) + b"\0" * 8 + b"\0" * 8 + struct.pack(">I", 0)
        + s15(0.9642) + s15(1.0) + s15(0.8249) + b"\0" * 4 + b"\0" * 16 + b"\0" * 28
    )
    assert len(header) == 128, len(header)
    return header + body


def nscolor_custom_space(r, g, b, a=1.0, rgb=(0.1, 0.2, 0.3)):
    """An sRGB NSColor as AppKit writes one: NSComponents in the custom space, whose
    NSColorSpace holds the ICC profile, and an NSRGB (here `rgb`, not the components) for
    readers that know only the calibrated space."""
    archive = _Archive()
    components = " ".join(_g10(v) for v in (r, g, b, a))
    colour = {"NSColorSpace": 1}
    uid = archive.add(colour)
    space = {"NSID": 7}
    space_uid = archive.add(space)
    profile = {"NS.data": icc_profile()}
    profile_uid = archive.add(profile)
    profile["$class"] = archive.class_ref(["NSMutableData", "NSData", "NSObject"])
    space["NSICC"] = profile_uid
    space["$class"] = archive.class_ref(["NSColorSpace", "NSObject"])
    colour["NSComponents"] = components.encode("ascii")
    colour["NSCustomColorSpace"] = space_uid
    colour["NSRGB"] = (" ".join(_g10(v) for v in rgb) + "\0").encode("ascii")
    colour["$class"] = archive.class_ref(NSCOLOR)
    return archive.bytes(uid)


def nscolor_catalog(catalog="System", name="controlAccentColor"):
    """A catalog colour: named in a system colour list, with a fallback NSColor."""
    archive = _Archive()
    colour = {"NSColorSpace": 6}
    uid = archive.add(colour)
    colour["NSCatalogName"] = archive.add(catalog)
    colour["NSColorName"] = archive.add(name)
    fallback = {"NSColorSpace": 2, "NSRGB": b"0 0.4784313725 1\0"}
    fallback_uid = archive.add(fallback)
    colour["NSColor"] = fallback_uid
    colour["$class"] = archive.class_ref(NSCOLOR)
    fallback["$class"] = colour["$class"]
    return archive.bytes(uid)


def tiecolor(r8, g8, b8):
    """bowties' own TieColor archive of before: integers 0-255."""
    archive = _Archive()
    fields = {"red": r8, "green": g8, "blue": b8}
    return archive.bytes(archive.obj(["TieColor", "NSObject"], fields))


# What the tests and the fuzz corpus use: name -> (bytes, what it is).
FIXTURES = {
    "uicolor-rgb": (uicolor_rgb(0.25, 0.5, 0.75), "UIColor(red: 0.25, green: 0.5, blue: 0.75)"),
    "uicolor-rgb-double": (
        uicolor_rgb(33 / 255, 36 / 255, 56 / 255, double=True),
        "an 8-bit color with UIRed-Double and the others, as newer iOS writes it",
    ),
    "uicolor-rgb-alpha": (
        uicolor_rgb(0.25, 0.12, 0.45, 0.8, double=True),
        "alpha 0.8: NSRGB with four numbers, UIAlpha-Double",
    ),
    "uicolor-rgb-appkit-chain": (
        uicolor_rgb(0.5, 0.25, 1, appkit_chain=True),
        "$classes [UIColor, NSColor, NSObject]",
    ),
    "uicolor-float32-green": (
        uicolor_rgb(0, 0.34117645, 0),
        "a float32 green of 0.34117645: 87, not 86",
    ),
    "uicolor-white": (uicolor_white(0.5), "UIColor(white: 0.5, alpha: 1)"),
    "uicolor-white-alpha": (uicolor_white(1, 0.25), "UIColor(white: 1, alpha: 0.25)"),
    "uicolor-system-red": (
        uicolor_system("systemRedColor", 1.0004385709762573, 0.22760793566703796,
                       0.18670153617858887),
        "an extended-range system red, 1.00044: 255",
    ),
    "uicolor-dynamic": (uicolor_dynamic(), "refused: a catalog (dynamic) colour"),
    "uicolor-missing-green": (uicolor_missing_component(), "refused: no UIGreen"),
    "nscolor-calibrated-rgb": (
        nscolor_rgb(0.03137254902, 0.1607843137, 0.2, space=1),
        "NSColorSpace 1, NSRGB ending in a NUL",
    ),
    "nscolor-device-rgb-alpha": (
        nscolor_rgb(0.5, 0.25, 1, 0.5, space=2), "NSColorSpace 2 with an alpha"
    ),
    "nscolor-calibrated-white": (nscolor_white(0.85, space=3), "NSColorSpace 3, NSWhite"),
    "nscolor-device-white-alpha": (nscolor_white(1, 0.9, space=4), "NSColorSpace 4, alpha"),
    "nscolor-custom-space": (
        nscolor_custom_space(0.02745098039, 0.2117647059, 0.2588235294),
        "sRGB: NSComponents win over NSRGB; NSCustomColorSpace with an ICC profile",
    ),
    "nscolor-catalog": (nscolor_catalog(), "refused: a catalog colour"),
    "nscolor-missing-blue": (nscolor_missing_component(), "refused: NSRGB with two numbers"),
    "tiecolor": (tiecolor(0xEF, 0x30, 0x24), "bowties' TieColor archive of before"),
}


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--out", default=os.path.join(root, "Tests", "Fixtures", "ColorArchives"),
        help="where to write the fixtures (default: Tests/Fixtures/ColorArchives)")
    parser.add_argument(
        "--check", action="store_true",
        help="compare the archives with the tracked fixtures and the fuzz corpus's copies")
    args = parser.parse_args()
    if args.check:
        corpus = os.path.join(root, "Fuzz", "Corpus", "color-archive")
        differences = []
        for name, (data, _) in sorted(FIXTURES.items()):
            for path in (os.path.join(args.out, name + ".bplist"), os.path.join(corpus, name)):
                try:
                    with open(path, "rb") as tracked:
                        if tracked.read() != data:
                            differences.append(f"{path} differs")
                except FileNotFoundError:
                    differences.append(f"{path} is missing")
        for difference in differences:
            print(f"make-color-archives: {difference}", file=sys.stderr)
        if differences:
            print("make-color-archives: run scripts/make-color-archives.py, and copy the "
                  "archives into Fuzz/Corpus/color-archive/, to remake them", file=sys.stderr)
        sys.exit(1 if differences else 0)
    os.makedirs(args.out, exist_ok=True)
    for name, (data, _) in sorted(FIXTURES.items()):
        with open(os.path.join(args.out, name + ".bplist"), "wb") as out:
            out.write(data)
    print(f"make-color-archives: {len(FIXTURES)} archives in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
