#!/usr/bin/env python3
"""Import benchmark: how long `bowties seed` takes to read N ties from the BowTies app's Core
Data store, against `bowties seed` of the same N ties from a binary plist in the sample's
format (the yardstick: the same program storing the same ties from its own format).

Usage: scripts/bench-import [options] [COUNT [BOWTIES]]

  COUNT        ties in each input (default 100000)
  BOWTIES      the bowties binary (default: .build-release/release/bowties in the repo root)
  -r, --runs R run each side R times, alternating, and report medians (default 3)
  --build      first build the binary with scripts/build-release (without it, nothing is
               built)
  --keep       keep the temporary folder (inputs, stores, logs) and print its path
  --strict     exit 2 when the target is missed (default: exit 0 once every run worked)
  -h, --help   show this help

It writes, into a temporary folder, a Core Data store laid out as the app's (with
scripts/make-coredata-fixtures.py's tables; each tie's colour the UIColor archive
scripts/make-color-archives.py writes; the last 1% of the rows only in its -wal, as a copy
of a running app's store keeps them), and the same ties as a binary plist (plistlib;
tintColor as 0-255 integers, lastWorn as a plist date). Neither has photos. Then it
alternates the two runs, each as a whole process on a store that does not exist yet,
timed by wall clock with its peak RSS from /usr/bin/time (apt-get install -y time):
  plist    bowties seed TIES.plist --store STORE
  import   bowties seed BowTies.sqlite --store STORE
After each run the store must hold COUNT ties (checked with sqlite3), and after the first
pair both stores must list the same ties (`list --json`). It prints the medians and
PASS/FAIL against the target (issue 24): import/plist <= 2.

Exit status: 0 when every run worked, 1 when a run failed or the stores differ, 2 with
--strict when the target was missed, 64 for bad arguments.
"""

import importlib.util
import os
import plistlib
import random
import statistics
import subprocess
import sys
import time
import uuid
from datetime import datetime, timedelta, timezone

import common

TARGET_RATIO = 2.0


def script_module(name):
    """scripts/NAME.py, as a module."""
    path = common.ROOT / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ties(count):
    """COUNT ties, the same every run: each its own id, name, key, link and colour; a last
    wear at a millisecond for nine in ten."""
    rng = random.Random(20261126)
    colors = rng.sample(range(1 << 24), count)
    epoch = datetime(2020, 1, 1, tzinfo=timezone.utc)
    width = max(6, len(str(count - 1)))
    for i in range(count):
        worn = (None if rng.random() < 0.1 else
                # Six years from 2020, all before 2026: seed refuses a wear after today.
                epoch + timedelta(milliseconds=rng.randrange(6 * 365 * 86400 * 1000)))
        yield {
            "id": uuid.UUID(int=rng.getrandbits(128), version=4),
            "name": f"Bow Tie {i:0{width}d}", "searchKey": f"K{i}",
            "rating": rng.randrange(11) / 2, "timesWorn": rng.randrange(1, 200) if worn else 0,
            "lastWorn": worn, "isFavorite": rng.random() < 0.2,
            "url": f"https://example.com/ties/{i}",
            "color": (colors[i] >> 16, (colors[i] >> 8) & 0xFF, colors[i] & 0xFF),
        }


def write_inputs(folder, count):
    """The Core Data store and the binary plist, with the same ties; their paths."""
    fixtures = script_module("make-coredata-fixtures")
    colors = script_module("make-color-archives")
    store_path = os.path.join(folder, "BowTies.sqlite")
    store = fixtures.Store(store_path, wal=True)
    entries, rows = [], []
    for number, tie in enumerate(ties(count), start=1):
        red, green, blue = tie["color"]
        entry = {
            "id": str(tie["id"]).upper(), "name": tie["name"], "searchKey": tie["searchKey"],
            "rating": tie["rating"], "timesWorn": tie["timesWorn"],
            "isFavorite": tie["isFavorite"], "url": tie["url"],
            "tintColor": {"red": red, "green": green, "blue": blue},
        }
        worn = None
        if tie["lastWorn"]:
            entry["lastWorn"] = tie["lastWorn"].replace(tzinfo=None)
            worn = (tie["lastWorn"] - fixtures.REFERENCE_DATE).total_seconds()
        entries.append(entry)
        rows.append((
            number, 1, 1, int(tie["isFavorite"]), tie["timesWorn"], worn, tie["rating"],
            tie["name"], tie["searchKey"], tie["url"], tie["id"].bytes, None,
            colors.uicolor_rgb(red / 255, green / 255, blue / 255)))
    insert = ("INSERT INTO ZBOWTIE (Z_PK, Z_ENT, Z_OPT, ZISFAVORITE, ZTIMESWORN, ZLASTWORN, "
              "ZRATING, ZNAME, ZSEARCHKEY, ZURL, ZID, ZPHOTODATA, ZTINTCOLOR) "
              "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
    in_wal = max(1, count // 100)
    for part, checkpoint in ((rows[:-in_wal], True), (rows[-in_wal:], False)):
        with store.connection:
            store.connection.execute("BEGIN")
            store.connection.executemany(insert, part)
            store.connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ?", (part[-1][0],))
        if checkpoint:
            store.checkpoint()
    store.copy_while_open()
    plist_path = os.path.join(folder, "ties.plist")
    with open(plist_path, "wb") as file:
        plistlib.dump(entries, file, fmt=plistlib.FMT_BINARY)
    return store_path, plist_path


def listed(script, bowties, store):
    out = subprocess.run([bowties, "list", "--json", "--store", store], capture_output=True,
                         env={**script.env, "TZ": "UTC", "LANG": "C"})
    if out.returncode != 0:
        script.fail(f"list --json failed: {out.stderr.decode(errors='replace').strip()}")
    return out.stdout


def main():
    script = common.Script("bench-import")
    parser = common.parser(script, __doc__)
    common.standard_options(parser, runs=3)
    parser.add_argument("count", nargs="?", type=common.positive, default=100000)
    parser.add_argument("bowties", nargs="?")
    options = parser.parse_args()
    count, runs = options.count, options.runs
    if count < 100:
        script.usage_error("COUNT must be at least 100 (see --help)")
    bowties = script.binary(options.bowties, options.build)
    script.require("sqlite3", "/usr/bin/time")
    work = script.make_work(options.keep)
    script.env = dict(os.environ)

    start = time.perf_counter()
    store, plist = write_inputs(work, count)
    size = sum(os.path.getsize(store + suffix) for suffix in ("", "-wal"))
    print(f"bench-import: {count} ties; store {size / 1e6:.1f} MB with its -wal, plist "
          f"{os.path.getsize(plist) / 1e6:.1f} MB (written in {time.perf_counter() - start:.1f} s); "
          f"{runs} alternating run(s) each; {common.load()}; bowties: {bowties}", flush=True)

    def side(source, name):
        def make(folder):
            target = os.path.join(folder, f"{name}.sqlite")
            return [bowties, "seed", source, "--store", target], target
        return name, make

    def same_ties(paths):
        if listed(script, bowties, paths["plist"]) != listed(script, bowties, paths["import"]):
            script.fail("FAIL: the imported ties differ from the plist's (compare `list --json` "
                        f"of {paths['plist']} and {paths['import']}; --keep keeps them)")

    times, memory = common.seed_rounds(script, work, runs, count,
                                       [side(plist, "plist"), side(store, "import")],
                                       options.keep, after_first=same_ties)

    median = {side: (statistics.median(times[side]), statistics.median(memory[side]))
              for side in times}
    ratio = median["import"][0] / median["plist"][0]
    ok = ratio <= TARGET_RATIO
    print(f"\nmedians of {runs} run(s), N = {count}")
    print(f"  {'':24}{'seconds':>8}{'peak RSS':>11}{'µs/tie':>9}")
    for label, side in (("seed of the binary plist", "plist"), ("seed of the app's store", "import")):
        seconds, megabytes = median[side]
        print(f"  {label:24}{seconds:8.2f}{megabytes:8.0f} MB{seconds / count * 1e6:9.1f}")
    print(f"  {'ratio import/plist':24}{ratio:8.2f}{'':20}   target <= {TARGET_RATIO}   "
          f"{common.verdict(ok)}")
    print(f"  {'the same ties':24}{'':28}   first run        PASS")
    if options.strict and not ok:
        sys.exit(2)


if __name__ == "__main__":
    main()
