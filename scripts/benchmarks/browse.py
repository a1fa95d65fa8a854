#!/usr/bin/env python3
"""The browse screen's benchmark (issue 26): `bowties browse` in a pseudo-terminal that this
script drives as a terminal would, on the sample store and on a store of a million ties.

Usage: scripts/bench-browse [options] [BOWTIES]

  BOWTIES         the bowties binary (default: .build-release/release/bowties in the repo
                  root, where scripts/build-release puts the binary we ship)
  -r, --runs R    times each store is opened (default 5); each opening presses the keys
  --ties N        ties in the large store (default 1000000)
  --short         the form CI runs in a minute or two: 100,000 ties, 3 openings
  --cache DIR     where the large store is kept between runs of the script (default
                  .build/bench-stores in the repo root); each run works on a copy
  --build         first build the binary with scripts/build-release
  --strict        exit 2 when a target is missed (default: exit 0 once every run worked)
  -h, --help      show this help

The large store: `bowties list --store S` creates it (the schema is the binary's own), then
the sqlite3 CLI replaces the sample ties with N generated ones, keys K0…K(N-1), names
"Bow Tie 0000000"…, no photos, one in five a favorite; it is built once per N and kept.

Each opening spawns `bowties browse` on a pseudo-terminal of 100 × 30 cells
(TERM=xterm-256color, COLORTERM=truecolor, LANG=C, TZ=UTC), which the script answers as a
terminal does (the device-attributes query `ESC [ c`, with a VT220's reply, no sixel: the
photos are drawn in half-blocks). It measures:
  open     from spawn to the end of the first frame (its footer drawn)
  keys     for each key pressed, from writing its bytes to the end of the frame that
           shows its effect (the tie's name, a figure): Right ×10, Left ×3, End, Home,
           Right, Tab, Shift-Tab, w (a wear: a write transaction), f, u, ? and a key
           to close the help
  memory   the process's peak resident set (VmHWM in /proc) after the keys
A frame's end is the cursor-visibility sequence the screen sends last in every frame.
Medians and the slowest key are printed per store, and whether each target holds.

Targets (issue 26): on the large store, open in under 1 s and stay under 50 MB; a key
press redraws within 50 ms, on both stores.

Exit status: 0 when every run worked, 1 when a run failed or a check did not hold, 2 with
--strict when a target was missed, 64 for bad arguments.
"""

import fcntl
import os
import re
import select
import shutil
import statistics
import struct
import subprocess
import termios
import time

import common
from common import load, sqlite_value, verdict

RECIPE = "browse-v1"
OPEN_TARGET, KEY_TARGET, RSS_TARGET = 1.0, 0.050, 50.0
COLUMNS, ROWS = 100, 30
# The last thing of every frame: the cursor hidden (xterm-256color's civis), or shown at a
# prompt (cnorm).
FRAME_END = re.compile(rb"\x1b\[\?25[lh]$")
RIGHT, LEFT, HOME, END, TAB, BTAB = b"\x1bOC", b"\x1bOD", b"\x1bOH", b"\x1bOF", b"\t", b"\x1b[Z"


class Bench:
    def __init__(self, script, binary, runs, ties, cache):
        self.script, self.binary, self.runs, self.ties, self.cache = (
            script, binary, runs, ties, cache)
        self.work = script.make_work(prefix="bench-browse")
        script.env.update({"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C",
                           "TZ": "UTC", "TERM": "xterm-256color", "COLORTERM": "truecolor",
                           "BOWTIES_USER": "bench"})

    def sql(self, store, text):
        out = subprocess.run(["sqlite3", store], input=text, capture_output=True, text=True)
        if out.returncode != 0:
            self.script.fail(f"sqlite3 failed on {store}: {out.stderr.strip()[-2000:]}")

    def create(self, store):
        made = subprocess.run([self.binary, "list", "--store", store], env=self.script.env,
                              capture_output=True, stdin=subprocess.DEVNULL)
        if made.returncode != 0:
            self.script.fail(f"bowties could not create {store}: {made.stderr.decode()[-2000:]}")

    def large_store(self):
        ties = self.ties
        folder = os.path.join(self.cache, f"{RECIPE}-{ties}")
        store = os.path.join(folder, "BowTies.sqlite")
        marker = os.path.join(folder, "complete")
        if not (os.path.exists(marker) and os.path.exists(store)):
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(folder)
            self.script.say(f"building the {ties:,}-tie store in {folder} ({load()})")
            start = time.perf_counter()
            self.create(store)
            self.sql(store, f"""
PRAGMA journal_mode = DELETE;
PRAGMA synchronous = OFF;
BEGIN;
{common.generated_ties_sql(ties, worn="i % 50")}
COMMIT;
PRAGMA journal_mode = WAL;
""")
            count = sqlite_value(self.script, store, "SELECT count(*) FROM bowTie")
            if count != str(ties):
                self.script.fail(f"the large store holds {count} ties")
            with open(marker, "w") as f:
                f.write(f"{RECIPE} {ties}\n")
            self.script.say(f"built in {time.perf_counter() - start:.0f} s, "
                            f"{os.path.getsize(store) / 1e6:.0f} MB")
        copy = os.path.join(self.work, "large", "BowTies.sqlite")
        os.makedirs(os.path.dirname(copy), exist_ok=True)
        shutil.copyfile(store, copy)
        return copy

    def sample_store(self):
        store = os.path.join(self.work, "sample", "BowTies.sqlite")
        os.makedirs(os.path.dirname(store), exist_ok=True)
        if not os.path.exists(store):
            self.create(store)
        return store

    def large_keys(self):
        ties = self.ties

        def name(i):
            return f"Bow Tie {i:07d}"

        keys = [(RIGHT, f"[K{i}]", name(i)) for i in range(1, 11)]
        keys += [(LEFT, f"[K{i}]", name(i)) for i in (9, 8, 7)]
        keys += [(END, f"[K{ties - 1}]", name(ties - 1)), (HOME, "[K0]", name(0)),
                 (RIGHT, "[K1]", name(1)), (TAB, "[K2]", name(2)), (BTAB, "[K1]", name(1)),
                 (b"w", "Times worn  2"), (b"f", "Favorite    yes"), (b"u", "Favorite    no"),
                 (b"?", "undo your last change"), (b"x", "Times worn  2")]
        return keys

    @staticmethod
    def sample_keys():
        steps = [("O", "Orange"), ("Y", "Yellow"), ("G", "Green"), ("B", "Blue"),
                 ("I", "Indigo"), ("V", "Violet")]
        keys = [(RIGHT, f"[{key}]", f"{name} Bow Tie") for key, name in steps]
        keys += [(LEFT, "[I]", "Indigo Bow Tie"), (LEFT, "[B]", "Blue Bow Tie"),
                 (HOME, "[R]", "Red Bow Tie"), (END, "[V]", "Violet Bow Tie"),
                 (HOME, "[R]", "Red Bow Tie"), (TAB, "[O]", "Orange Bow Tie"),
                 (BTAB, "[R]", "Red Bow Tie"), (b"w", "Times worn  11"),
                 (b"f", "Favorite    no"), (b"u", "Favorite    yes"),
                 (b"?", "undo your last change"), (b"x", "Times worn  11")]
        return keys

    def measure(self, label, store, first, keys):
        opens, latencies, rss = [], [], []
        for _ in range(self.runs):
            # Each opening starts from the same store: the wear of the last one undone.
            working = os.path.join(self.work, f"{label}-run", "BowTies.sqlite")
            shutil.rmtree(os.path.dirname(working), ignore_errors=True)
            os.makedirs(os.path.dirname(working))
            shutil.copyfile(store, working)
            terminal = Terminal(self.script, self.binary, working)
            done = terminal.frame_showing(first, "quit")
            opens.append(terminal.read_until(done) - terminal.start)
            for key, *expected in keys:
                latencies.append((terminal.press(key, *expected), key))
            rss.append(terminal.peak_rss_mb())
            terminal.quit()
        times = [t for t, _ in latencies]
        slowest, slow_key = max(latencies)
        print(f"  {label}: slowest keys " + ", ".join(
            f"{key!r} {t * 1e3:.1f} ms" for t, key in sorted(latencies, reverse=True)[:5]))
        row = (label, statistics.median(opens), statistics.median(times),
               sorted(times)[int(len(times) * 0.95) - 1], slowest, max(rss))
        print(f"  {label:12} open {row[1] * 1e3:7.1f} ms   key median {row[2] * 1e3:5.1f} ms, "
              f"95th {row[3] * 1e3:5.1f} ms, slowest {row[4] * 1e3:5.1f} ms ({slow_key!r})   "
              f"peak RSS {row[5]:5.1f} MB   ({self.runs} openings, {len(times)} keys)",
              flush=True)
        return row


class Terminal:
    """bowties browse on a pseudo-terminal, and what it drew."""

    def __init__(self, script, binary, store):
        self.script = script
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        self.master = master
        self.start = time.perf_counter()
        self.process = subprocess.Popen(
            [binary, "browse", "--store", store], env=script.env, stdin=slave, stdout=slave,
            stderr=slave, start_new_session=True,
            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        os.close(slave)
        self.output = b""
        self.last = self.start

    def read_until(self, done, timeout=10.0):
        """Reads until done(output) holds; returns when the last byte read came."""
        deadline = time.perf_counter() + timeout
        while True:
            if done(self.output):
                return self.last
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                self.script.fail(f"the screen did not show what was expected; last output: "
                                 f"{self.output[-600:]!r}")
            ready, _, _ = select.select([self.master], [], [], remaining)
            if not ready:
                continue
            try:
                data = os.read(self.master, 65536)
            except OSError:
                self.script.fail(f"browse ended early (exit {self.process.poll()}): "
                                 f"{self.output[-600:]!r}")
            self.last = time.perf_counter()
            if b"\x1b[c" in data:
                # Primary device attributes, as a VT220 answers: no sixel.
                os.write(self.master, b"\x1b[?62;1;6;22c")
            self.output += data

    def frame_showing(self, *texts):
        """A test that the output holds each of `texts` after the mark, and ends a frame."""
        mark = len(self.output)

        def done(output):
            tail = output[mark:]
            return all(t.encode() in tail for t in texts) and FRAME_END.search(tail) is not None
        return done

    def press(self, key, *expected):
        done = self.frame_showing(*expected)
        sent = time.perf_counter()
        os.write(self.master, key)
        return self.read_until(done) - sent

    def peak_rss_mb(self):
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def quit(self):
        os.write(self.master, b"q")
        status = self.process.wait(timeout=10)
        os.close(self.master)
        if status != 0:
            self.script.fail(f"browse exited {status} after q")


def main():
    script = common.Script("bench-browse")
    parser = common.parser(script, __doc__)
    common.standard_options(parser, runs=5, keep=False, cache=True)
    parser.add_argument("--ties", type=common.positive, default=1_000_000)
    parser.add_argument("--short", action="store_true")
    parser.add_argument("bowties", nargs="?")
    options = parser.parse_args()
    if options.short:
        options.ties, options.runs = 100_000, 3
    if options.ties < 100:
        script.usage_error("--ties must be 100 or more (see --help)")
    binary = script.binary(options.bowties, build=options.build)
    script.require("sqlite3")
    bench = Bench(script, binary, options.runs, options.ties, common.cache_folder(options.cache))
    print(f"bench-browse: {binary}; {load()}", flush=True)
    rows = [bench.measure("7 ties", bench.sample_store(), "Red Bow Tie", bench.sample_keys()),
            bench.measure(f"{options.ties:,} ties", bench.large_store(), "Bow Tie 0000000",
                          bench.large_keys())]
    print(f"bench-browse: done; {load()}")
    missed = False
    print(f"\n| store | open (median) | key → frame, median | 95th percentile | slowest | "
          f"peak RSS | open < {OPEN_TARGET:g} s | keys ≤ {KEY_TARGET * 1e3:g} ms | "
          f"< {RSS_TARGET:g} MB |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |")
    for label, opened, median, p95, slowest, rss in rows:
        checks = (opened < OPEN_TARGET, slowest <= KEY_TARGET, rss < RSS_TARGET)
        missed |= not all(checks)
        marks = [verdict(ok) for ok in checks]
        print(f"| {label} | {opened * 1e3:.1f} ms | {median * 1e3:.1f} ms | {p95 * 1e3:.1f} ms | "
              f"{slowest * 1e3:.1f} ms | {rss:.1f} MB | {marks[0]} | {marks[1]} | {marks[2]} |")
    if options.strict and missed:
        raise SystemExit(2)


if __name__ == "__main__":
    main()
