#!/usr/bin/env python3
"""Per-command benchmark: each of `show`, `wear`, `rate`, `favorite` and `list --json` as a
whole bowties process, against the sqlite3 CLI running the equivalent SQL on the same
store, at several store sizes.

Usage: scripts/bench [options] [BOWTIES]

  BOWTIES         the bowties binary (default: .build-release/release/bowties in the repo root)
  -r, --runs R    timed runs of each side of each single-tie command (default 40); list
                  --json runs R times on small stores, 10 times at 100,000 ties and
                  above, 3 times at 1,000,000 and above
  --sizes LIST    comma-separated store sizes (default 7,100000,1000000)
  --cache DIR     where the pristine stores are kept between runs of the script
                  (default .build/bench-stores in the repo root); each run works on copies
  --build         first build the binary with scripts/build-release (fully static, as
                  shipped; without it, nothing is built)
  --keep          keep the temporary folder (store copies) and print its path
  --strict        exit 2 when a target is missed (default: exit 0 once every run worked)
  -h, --help      show this help

Stores: 7 is the sample store (`bowties seed --store S`: the seven sample ties, with
their photos inline). A larger size N is a generated XML plist of N ties in the
SampleData format, keys K0…K(N-1), seeded with `bowties seed PLIST --store S`. Stores are
built once per size into the cache (a 1,000,000-tie store takes about a minute) and
copied for each run of the script, so the mutating commands never touch the cache.
The tie every command works on is the sample's R, or K(N/2) in a generated store.

For each command, both sides run as whole processes (spawned with posix_spawn, timed by
wall clock from spawn to exit, stdout and stderr to /dev/null, stdin from /dev/null),
alternating bowties and sqlite3 and flipping which goes first every other round, after
two untimed warm-up rounds. Peak RSS is the median of 5 separate runs (1 for list --json
at 100,000 ties and above) under /usr/bin/time -f %M (apt-get install -y time), so that
the timed runs carry no extra process.

What the sqlite3 side runs, read from what bowties does (BowTieStore+Ties.swift,
BowTieStore+History.swift, UndoEntry.swift): every session first sets what bowties'
connection sets (a busy timeout, foreign keys on, synchronous NORMAL in WAL mode), then
  show TIE       the tie's row by its canonical key (the unique index `show` looks it
                 up by), every column but the photo's bytes, the color as hex
  wear TIE       BEGIN IMMEDIATE; INSERT a wearEvent (its trigger adds one to timesWorn);
                 INSERT the undo entry, whose JSON names the event and the previous
                 lastWorn; move lastWorn; look for photo files the forgotten undo entries
                 name and DELETE the entries beyond the last 100; SELECT the tie; COMMIT
  rate TIE 4     the same transaction with UPDATE rating and its undo entry
  favorite TIE   the same transaction with UPDATE isFavorite and its undo entry
  list --json    every tie but the photo bytes, in the order bowties lists them (R O Y G
                 B I V, then by name), printed by sqlite3 -json
The timestamps are made by the driver just before each sqlite3 run, as bowties reads the
clock. Every `wear` run, on either side, adds a wear event, so the wear history of the
one tie grows by 2 × (runs + 2) rows over a script run (and the copy is thrown away);
the undo log stays at 100 entries. Before timing, one run of each side is checked: it
exits 0, prints the tie, and a wear adds exactly one wear event and one to timesWorn.

Targets (issue 6): each single-tie command at most 2 × the sqlite3 CLI (the goal is
1.5 ×) and under 30 MB peak RSS, at every size. list --json has no target; its ratio
and memory are printed for information.

Exit status: 0 when every run worked, 1 when a run failed or a check did not hold, 2 with
--strict when a target was missed, 64 for bad arguments.
"""

import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone

import common
from common import APP_ORDER, sqlite_value

TARGET_RATIO, GOAL_RATIO, TARGET_RSS_MB = 2.0, 1.5, 30
RSS_RUNS = 5

# What every bowties connection sets before its first statement (GRDB's set-up for a WAL
# DatabaseQueue with a busy timeout and foreign keys on).
PROLOGUE = ("PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON; "
            "PRAGMA synchronous = NORMAL;")
TIE_COLUMNS = ("id, name, searchKey, rating, timesWorn, lastWorn, isFavorite, url, price, "
               "hex(tintColor), photoFile, photoSize, wearsBeforeHistory")


def utc_now():
    """Now as bowties stores dates: ISO 8601 UTC with milliseconds."""
    now = datetime.now(timezone.utc)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def write_sql(key, undo_json, change_sql, first=""):
    """One IMMEDIATE transaction, as BowTieStore.write runs it: the tie looked up, the
    change and its undo entry (inserted before the change here, so that its JSON can read
    the values from before it), the log trimmed to its last 100 entries, the tie read back."""
    tie = f"(SELECT id FROM bowTie WHERE canonicalKey = '{key}')"
    return (f"{PROLOGUE} BEGIN IMMEDIATE; "
            f"SELECT {TIE_COLUMNS} FROM bowTie WHERE canonicalKey = '{key}' LIMIT 1; "
            f"{first} "
            "INSERT INTO undoEntry (madeAt, tieId, change, photoFile) "
            f"VALUES (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), {tie}, {undo_json}, NULL); "
            f"{change_sql} "
            "SELECT photoFile FROM undoEntry WHERE id <= last_insert_rowid() - 100 "
            "AND photoFile IS NOT NULL; "
            "DELETE FROM undoEntry WHERE id <= last_insert_rowid() - 100; "
            f"SELECT {TIE_COLUMNS} FROM bowTie WHERE canonicalKey = '{key}' LIMIT 1; COMMIT;")


def wear_sql(key):
    now = utc_now()
    where = f"WHERE canonicalKey = '{key}'"
    return write_sql(
        key,
        f"json_object('wear', json_object('eventID', last_insert_rowid(), 'previousLastWorn', "
        f"(SELECT lastWorn FROM bowTie {where}), 'wornAt', '{now}'))",
        f"UPDATE bowTie SET lastWorn = '{now}' {where} "
        f"AND (lastWorn IS NULL OR lastWorn < '{now}');",
        first=f"INSERT INTO wearEvent (tieId, wornAt) "
        f"VALUES ((SELECT id FROM bowTie {where}), '{now}');")


def commands(key, tie):
    """(label, bowties arguments, function making the sqlite3 argv, single-tie?)"""
    def sqlite(sql, *flags):
        return lambda store: ["sqlite3", *flags, store, sql() if callable(sql) else sql]
    show = f"{PROLOGUE} SELECT {TIE_COLUMNS} FROM bowTie WHERE canonicalKey = '{key}' LIMIT 1;"
    where = f"WHERE canonicalKey = '{key}'"
    rate = write_sql(
        key,
        f"json_object('rate', json_object('new', 4.0, 'previous', "
        f"(SELECT rating FROM bowTie {where})))",
        f"UPDATE bowTie SET rating = 4.0 {where};")
    favorite = write_sql(
        key,
        f"json_object('favorite', json_object('new', json('true'), 'previous', "
        f"json(CASE (SELECT isFavorite FROM bowTie {where}) WHEN 1 THEN 'true' "
        f"ELSE 'false' END)))",
        f"UPDATE bowTie SET isFavorite = 1 {where};")
    listing = (f"{PROLOGUE} SELECT id, name, searchKey, rating, timesWorn, lastWorn, "
               f"isFavorite, url, price, hex(tintColor) AS tintColor, "
               f"coalesce(photoSize, 0) AS photoBytes FROM bowTie ORDER BY {APP_ORDER};")
    return [
        ("show", ["show", tie], sqlite(show), True),
        ("wear", ["wear", tie], sqlite(lambda: wear_sql(key)), True),
        ("rate", ["rate", tie, "4"], sqlite(rate), True),
        ("favorite", ["favorite", tie], sqlite(favorite), True),
        ("list --json", ["list", "--json"], sqlite(listing, "-json"), False),
    ]


class Bench:
    def __init__(self, script, bowties, cache, runs):
        self.script, self.bowties, self.cache, self.runs = script, bowties, cache, runs

    def pristine_store(self, size):
        """The cached store of `size` ties, built on first use."""
        script = self.script
        folder = os.path.join(self.cache, f"v1-{size}")
        store = os.path.join(folder, "BowTies.sqlite")
        if os.path.exists(store) and sqlite_value(
                script, store, "SELECT count(*) FROM bowTie") == str(size):
            return store
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        start = time.perf_counter()
        if size == 7:
            argv = [self.bowties, "seed", "--store", store]
        else:
            plist = os.path.join(script.work, f"seed-{size}.plist")
            common.generate_plist(plist, size)
            argv = [self.bowties, "seed", plist, "--store", store]
        script.say(f"building the {size}-tie store in {folder}")
        done = subprocess.run(argv, env=script.env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True)
        if done.returncode != 0:
            script.fail(f"seeding {size} ties failed (exit {done.returncode}): "
                        f"{done.stderr[-2000:]}")
        rows = sqlite_value(script, store, "SELECT count(*) FROM bowTie")
        if rows != str(size):
            script.fail(f"the {size}-tie store holds {rows} ties")
        script.say(f"built in {time.perf_counter() - start:.1f} s")
        return store

    def working_copy(self, size):
        source = self.pristine_store(size)
        folder = os.path.join(self.script.work, f"store-{size}")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        store = os.path.join(folder, "BowTies.sqlite")
        # The cached store was closed cleanly: WAL checkpointed and removed, one file.
        shutil.copyfile(source, store)
        return store

    def check(self, label, bt_argv, sq_argv, store, key, name):
        """One run of each side, checked: exit 0, the tie printed, a wear counted once."""
        script = self.script

        def state():
            return sqlite_value(script, store, "SELECT (SELECT count(*) FROM wearEvent) || ' ' "
                                f"|| timesWorn FROM bowTie WHERE canonicalKey = '{key}'")
        for side, argv in (("bowties", bt_argv), ("sqlite3", sq_argv)):
            before = state()
            out = subprocess.run(argv, env=script.env, stdin=subprocess.DEVNULL,
                                 capture_output=True, text=True)
            if out.returncode != 0:
                script.fail(f"{side} {label} exited {out.returncode}: "
                            f"{out.stderr.strip()[-1000:]}")
            if name not in out.stdout:
                script.fail(f"{side} {label} did not print {name!r}: {out.stdout[:300]!r}")
            if label == "wear":
                events, worn = map(int, before.split())
                if state() != f"{events + 1} {worn + 1}":
                    script.fail(f"{side} wear did not add one wear: {before} -> {state()}")

    def list_runs(self, size):
        return self.runs if size < 100_000 else 10 if size < 1_000_000 else 3

    def measure(self, size, keep):
        """The rows of one store size: (label, size, bowties ms, sqlite3 ms, bowties MB,
        sqlite3 MB, single-tie?, runs)."""
        script = self.script
        store = self.working_copy(size)
        key, tie = ("r", "R") if size == 7 else (f"k{size // 2}", f"K{size // 2}")
        name = sqlite_value(script, store, f"SELECT name FROM bowTie WHERE canonicalKey = '{key}'")
        if not name:
            script.fail(f"the {size}-tie store has no tie {tie}")
        print(f"\nbench: {size} ties, tie {tie} ({name}); {store}", flush=True)
        rows = []
        for label, args, make_sqlite, single in commands(key, tie):
            bt_argv = [self.bowties, *args, "--store", store]
            n = self.runs if single else self.list_runs(size)
            self.check(label, bt_argv, make_sqlite(store), store, key, name)
            bt, sq = script.alternate(
                [(bt_argv, None, None), lambda: (make_sqlite(store), None, None)], n, 2)
            rss_runs = RSS_RUNS if single or size < 100_000 else 1
            bt_rss = script.median_rss_mb(bt_argv, rss_runs)
            sq_rss = script.median_rss_mb(make_sqlite(store), rss_runs)
            row = (label, size, statistics.median(bt) * 1e3, statistics.median(sq) * 1e3,
                   bt_rss, sq_rss, single, n)
            rows.append(row)
            print(f"  {label:12} {row[2]:9.2f} ms  sqlite3 {row[3]:8.2f} ms  "
                  f"ratio {row[2] / row[3]:5.2f}  {bt_rss:5.1f} MB  ({n} runs each)", flush=True)
        if not keep:
            shutil.rmtree(os.path.dirname(store))  # a 1M store is hundreds of MB
        return rows


def print_table(bowties, rows):
    """The Markdown table; True when a target was missed."""
    missed = False
    print(f"\nmedians; bowties: {bowties}")
    print(f"| command | ties | runs | bowties | sqlite3 | ratio | bowties peak RSS "
          f"| sqlite3 peak RSS | ≤ {TARGET_RATIO:g}× | < {TARGET_RSS_MB} MB |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    for label, size, bt, sq, bt_rss, sq_rss, single, n in rows:
        ratio = bt / sq
        if single:
            ratio_ok, rss_ok = ratio <= TARGET_RATIO, bt_rss < TARGET_RSS_MB
            missed |= not (ratio_ok and rss_ok)
            marks = (common.verdict(ratio_ok)
                     + (" (goal ≤ 1.5×: met)" if ratio <= GOAL_RATIO else ""),
                     common.verdict(rss_ok))
        else:
            marks = ("no target", "no target")
        print(f"| {label} | {size:,} | {n} | {bt:.2f} ms | {sq:.2f} ms | {ratio:.2f} | "
              f"{bt_rss:.1f} MB | {sq_rss:.1f} MB | {marks[0]} | {marks[1]} |")
    return missed


def main():
    script = common.Script("bench")
    parser = common.parser(script, __doc__)
    common.standard_options(parser, runs=40, cache=True)
    parser.add_argument("--sizes", default="7,100000,1000000")
    parser.add_argument("bowties", nargs="?")
    options = parser.parse_args()
    if not re.fullmatch(r"[1-9][0-9]*(,[1-9][0-9]*)*", options.sizes):
        script.usage_error("--sizes must be positive integers separated by commas")
    bowties = script.binary(options.bowties, options.build)
    script.require("python3", "sqlite3", "/usr/bin/time")
    cache = common.cache_folder(options.cache)
    work = script.make_work(options.keep)
    # A clean, fixed environment for both sides: no color, the C locale, UTC.
    script.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": work, "LANG": "C",
                  "TZ": "UTC", "NO_COLOR": "1"}
    bench = Bench(script, bowties, cache, options.runs)
    rows = []
    for size in (int(s) for s in options.sizes.split(",")):
        rows += bench.measure(size, options.keep)
    if print_table(bowties, rows) and options.strict:
        sys.exit(2)


if __name__ == "__main__":
    main()
