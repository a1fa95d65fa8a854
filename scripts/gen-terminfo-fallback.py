#!/usr/bin/env python3
"""Writes Sources/TerminalUI/BuiltInTerminfo.swift: the capabilities `bowties browse` uses,
for the terminal types it knows without a terminfo database, read from this machine's
database through ncurses itself (Python's curses module is ncurses' setupterm and
tigetstr), so that the table says exactly what the database says.

Usage: scripts/gen-terminfo-fallback.py            writes the Swift file (needs ncurses-base)
       scripts/gen-terminfo-fallback.py --check    compares with it (CI)

TerminalUITests checks that the table still matches the installed database."""
import curses
import json
import os
import subprocess
import sys
from pathlib import Path

import tracked

TERMS = ["xterm-256color", "screen", "tmux-256color", "linux"]
STRINGS = ["smcup", "rmcup", "smkx", "rmkx", "civis", "cnorm", "clear", "cup", "el", "sgr0",
           "bold", "rev", "kcub1", "kcuf1", "kcuu1", "kcud1", "khome", "kend", "kcbt", "kbs",
           "kdch1"]
NUMBERS = ["colors"]
OUT = Path("Sources/TerminalUI/BuiltInTerminfo.swift")  # under the repository's root


def swift_literal(value: bytes) -> str:
    text = ""
    for byte in value:
        if byte == 0x5C:
            text += "\\\\"
        elif byte == 0x22:
            text += '\\"'
        elif 0x20 <= byte < 0x7F:
            text += chr(byte)
        else:
            text += "\\u{%X}" % byte
    return '"' + text + '"'


def read_entry(term: str) -> None:
    """Prints the entry of `term` as JSON: Python's setupterm loads one entry per process."""
    curses.setupterm(term, os.open(os.devnull, os.O_WRONLY))
    strings = {}
    for name in STRINGS:
        value = curses.tigetstr(name)
        if value is not None:
            strings[name] = list(value)
    numbers = {name: curses.tigetnum(name) for name in NUMBERS if curses.tigetnum(name) >= 0}
    print(json.dumps({"strings": strings, "numbers": numbers}))


def write(root: Path) -> None:
    entries = []
    for term in TERMS:
        found = subprocess.run([sys.executable, __file__, "--entry", term], check=True,
                               capture_output=True, text=True)
        entry = json.loads(found.stdout)
        strings = {name: bytes(value) for name, value in entry["strings"].items()}
        entries.append((term, strings, entry["numbers"]))
    lines = [
        "// Written by scripts/gen-terminfo-fallback.py from the terminfo database; do not edit.",
        "",
        "extension TerminalCapabilities {",
        "  /// The entries `bowties browse` knows without a terminfo database: the capabilities",
        "  /// it uses, as ncurses read them from Debian's database.",
        "  static let builtInEntries: [String: (strings: [String: String], numbers: [String: Int])] = [",
    ]
    for term, strings, numbers in entries:
        lines.append(f"    \"{term}\": (")
        lines.append("      strings: [")
        for name in sorted(strings):
            lines.append(f"        \"{name}\": {swift_literal(strings[name])},")
        lines.append("      ],")
        number_items = ", ".join(f"\"{k}\": {v}" for k, v in sorted(numbers.items()))
        lines.append(f"      numbers: [{number_items}]" if numbers else "      numbers: [:]")
        lines.append("    ),")
    lines += ["  ]", "}", ""]
    (root / OUT).parent.mkdir(parents=True, exist_ok=True)
    (root / OUT).write_text("\n".join(lines), encoding="utf-8")


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--entry":
        read_entry(sys.argv[2])
        return
    tracked.run("gen-terminfo-fallback", write)


if __name__ == "__main__":
    main()
