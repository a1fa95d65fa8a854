"""PLACEHOLDER until the colour branch lands its real scripts/make-color-archives.py (the
archives UIKit and AppKit write for a colour, from their public descriptions). Every
function here returns a bowties TieColor archive of the same 8-bit colour, or bytes that are
no archive for the forms bowties refuses, so that scripts/make-coredata-fixtures.py runs
meanwhile. Fixtures made with it do not test any UIKit or AppKit form."""

import plistlib


def _tie(r, g, b):
    return plistlib.dumps({
        "$version": 100000, "$archiver": "NSKeyedArchiver", "$top": {"root": plistlib.UID(1)},
        "$objects": ["$null", {"red": round(r * 255), "green": round(g * 255),
                               "blue": round(b * 255), "$class": plistlib.UID(2)},
                     {"$classname": "TieColor", "$classes": ["TieColor", "NSObject"]}]},
        fmt=plistlib.FMT_BINARY)


def uicolor_rgb(r, g, b, a=1.0, double=False, appkit_chain=False): return _tie(r, g, b)
def uicolor_white(w, a=1.0): return _tie(w, w, w)
def uicolor_system(name, r, g, b, a=1.0): return _tie(r, g, b)
def uicolor_dynamic(): return b"bplist00 placeholder"
def nscolor_rgb(r, g, b, a=1.0): return _tie(r, g, b)
def nscolor_white(w, a=1.0): return _tie(w, w, w)
def nscolor_custom_space(r, g, b, a=1.0): return _tie(r, g, b)
def nscolor_catalog(catalog, name): return b"bplist00 placeholder"
