#!/usr/bin/env python3
"""Report-scale benchmark (issue 14): `report --format json`, `suggest` and `list --json` on
a store of a shop's size, each as a whole bowties process against the sqlite3 CLI
running the same SQL on the same file.

Usage: scripts/bench-report [options] [BOWTIES]

  BOWTIES           the bowties binary (default: .build-release/release/bowties in the
                    repo root, where scripts/build-release puts the binary we ship)
  -r, --runs R      timed runs of each side of each command (default 5)
  --ties N          ties in the store (default 1000000)
  --wears M         wear events in the store (default 10000000)
  --tz ZONE         the time zone both sides count days and months in (default UTC;
                    otherwise a zone with daylight-saving time, such as Europe/Paris)
  --max-minutes T   start no timed round after T minutes (default 60); each process is
                    also killed after 15 minutes
  --also-all        also time `report --format json --all` once (every list whole,
                    streamed: gigabytes of output to /dev/null), with its peak RSS
  --also-others     also run once each, with its time and peak RSS, the other commands
                    that read every tie or wear: list (text), history --json,
                    export (JSON, XML, binary plist), doctor and backup (to a temporary
                    copy, removed after)
  --cache DIR       where the store is kept between runs of the script (default
                    .build/bench-stores in the repo root)
  --only LABEL      time only this command (repeatable): 'report --format json',
                    'suggest', 'list --json' or 'history'; the output sizes are then
                    not measured
  --build           first build the binary with scripts/build-release
  --strict          exit 2 when a target is missed (default: exit 0 once every run worked)
  -h, --help        show this help

The store: `bowties list --store S` creates it (the schema, its triggers and migrations
are the binary's own), then the sqlite3 CLI replaces the sample ties with N generated ones
(K0…K(N-1), one in ten never worn, one in five a favorite, ratings 0 to 5 in halves, the
seven sample colors) and inserts M wear events spread over three years before 2026-11-21
through the store's own triggers, which count them into timesWorn; lastWorn is each tie's
latest wear. `bowties doctor` must then find the store healthy. It is built once (about
ten minutes and 2 GB for the defaults; free disk is checked first) and kept, keyed by N,
M and the recipe's version. Both sides only read it.

Each command runs as a whole process (posix_spawn, wall clock from spawn to exit, stdout
and stderr to /dev/null), alternating bowties and sqlite3 and flipping which goes first
every other round, after one untimed warm-up round; medians are printed. Peak RSS comes
from separate runs under /usr/bin/time -f %M (median of 3; 1 for list --json). Every side
runs with TZ set (--tz), LANG=C and --as-of 2026-11-21.

What the sqlite3 side runs, in one sqlite3 -json process, is the SQL of
Sources/BowTieReports/ReportSQL.swift with the values bowties binds set as .parameter values (the as-of day, the date-modifier that
moves a stored instant into the time zone, the stale threshold, the list limit, each
month's bounds):
  report --format json   in one transaction: the counts (one pass over bowTie); the ten
                         most worn, least worn, never worn and longest unworn ties
                         (each an ORDER BY … LIMIT); the wears of each of the twelve
                         months (a range count on the wornAt index); the suggestion
  suggest                the suggestion query, LIMIT 1
  list --json            every tie but the photo bytes, in the app's order (as
                         scripts/bench runs it)
  history                every wear with its tie's key and name, newest first
                         (SummarySQL.history), in sqlite3's default list mode
Before timing, one run of each side is compared: the counts, every list's ties, each
month and the suggestion must be the same, or the script stops.

Targets (issue 14): report ≤ 1.25 × its SQL (goal 1.1 ×), under 100 MB peak RSS, and
under 1 MB of output in every format; suggest ≤ 1.25 × its SQL and under 100 MB. (Issue
25) list --json and history ≤ 1.5 × their SQL (goal 1.1 ×) and under 100 MB; each runs at
most 3 timed rounds, as a round of history takes minutes. The other formats' sizes and,
with --also-all, whole lists are printed for information.

The machine is shared: the script prints the load average before and after, so a figure
taken under load can be said to be.

Exit status: 0 when every run worked, 1 when a run failed or a check did not hold, 2 with
--strict when a target was missed, 64 for bad arguments.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from typing import Callable, NamedTuple, Optional
from zoneinfo import ZoneInfo

import common
from common import APP_ORDER, AS_OF, sqlite_value

RECIPE = "report-v1"
LIMIT, STALE_DAYS, MONTHS, NEVER_WORN_DAYS = 10, 30, 12, 365
TIMEOUT = 15 * 60


# --- The store ---------------------------------------------------------------------------


def fill_sql(ties, wears):
    """Replaces the sample ties with `ties` generated ones and `wears` events; event j is
    worn (j × 104729) mod three years before 2026-11-21."""
    return f"""
PRAGMA journal_mode = DELETE;
PRAGMA cache_size = -1048576;
PRAGMA synchronous = OFF;
PRAGMA foreign_keys = ON;
BEGIN;
{common.generated_ties_sql(ties)}
WITH RECURSIVE n(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM n WHERE j < {wears - 1})
INSERT INTO wearEvent (tieId, wornAt)
  SELECT {common.TIE_ID.format(common.wear_tie_sql(ties))},
    strftime('%Y-%m-%dT%H:%M:%S.000Z',
             {common.RECIPE_END} - 1 - (j * 104729) % {common.THREE_YEARS}, 'unixepoch')
  FROM n;
UPDATE bowTie SET lastWorn = (SELECT max(wornAt) FROM wearEvent WHERE tieId = bowTie.id);
COMMIT;
PRAGMA journal_mode = WAL;
"""


def store_path(script, bowties, cache, ties, wears):
    folder = os.path.join(cache, f"{RECIPE}-{ties}-{wears}")
    store = os.path.join(folder, "BowTies.sqlite")
    marker = os.path.join(folder, "complete")
    if os.path.exists(marker) and os.path.exists(store):
        return store
    shutil.rmtree(folder, ignore_errors=True)
    free = shutil.disk_usage(cache).free
    needed = (ties * 600 + wears * 220) * 2  # the store, and room to spare
    if free < needed:
        script.fail(f"{free / 1e9:.1f} GB free under {cache}; building the store needs about "
                    f"{needed / 1e9:.1f} GB")
    os.makedirs(folder)
    script.say(f"building the {ties:,}-tie, {wears:,}-wear store in {folder} ({common.load()})")
    start = time.perf_counter()
    created = subprocess.run([bowties, "list", "--store", store], env=script.env,
                             stdin=subprocess.DEVNULL, capture_output=True, text=True,
                             timeout=TIMEOUT)
    if created.returncode != 0:
        script.fail(f"bowties could not create the store: {created.stderr.strip()}")
    filled = subprocess.run(["sqlite3", store], input=fill_sql(ties, wears),
                            capture_output=True, text=True)
    if filled.returncode != 0:
        script.fail(f"filling the store failed: {filled.stderr.strip()[-2000:]}")
    script.say(f"filled in {time.perf_counter() - start:.0f} s; checking it with bowties doctor")
    doctor = subprocess.run([bowties, "doctor", "--store", store], env=script.env,
                            stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=4 * TIMEOUT)
    if doctor.returncode != 0:
        script.fail(f"bowties doctor found problems in the new store: {doctor.stdout[-2000:]}")
    counts = sqlite_value(script, store, "SELECT (SELECT count(*) FROM bowTie) || ' ' || "
                                         "(SELECT count(*) FROM wearEvent)")
    if counts != f"{ties} {wears}":
        script.fail(f"the store holds {counts} ties and wears")
    with open(marker, "w") as f:
        f.write(f"{RECIPE} {ties} {wears}\n")
    script.say(f"built and checked in {time.perf_counter() - start:.0f} s; "
               f"{os.path.getsize(store) / 1e9:.2f} GB")
    return store


# --- The SQL bowties runs (Sources/BowTieKit/Store/SummarySQL.swift) ---------------------

DAYS = ("max(0, CAST(julianday(:asOfDay) - julianday(lastWorn, :dayShift, 'start of day') "
        "AS INTEGER))")
TIE_COLUMNS = ("id, searchKey, name, rating, timesWorn, lastWorn, isFavorite, tintColor, "
               f"{DAYS} AS days")
SUMMARY = """SELECT count(*) AS ties,
  count(CASE WHEN isFavorite = TRUE THEN 1 END) AS favorites,
  avg(rating) AS averageRating,
  count(CASE WHEN timesWorn > 0 THEN 1 END) AS worn,
  count(CASE WHEN timesWorn = 0 THEN 1 END) AS neverWorn,
  count(CASE WHEN lastWorn < :staleBefore THEN 1 END) AS notWornRecently,
  count(CASE WHEN rating < 1 THEN 1 END) AS rated0,
  count(CASE WHEN rating >= 1 AND rating < 2 THEN 1 END) AS rated1,
  count(CASE WHEN rating >= 2 AND rating < 3 THEN 1 END) AS rated2,
  count(CASE WHEN rating >= 3 AND rating < 4 THEN 1 END) AS rated3,
  count(CASE WHEN rating >= 4 AND rating < 5 THEN 1 END) AS rated4,
  count(CASE WHEN rating = 5 THEN 1 END) AS rated5
FROM bowTie"""
LISTS = {
    "mostWorn": ("timesWorn > 0", f"timesWorn DESC, {APP_ORDER}"),
    "leastWorn": ("timesWorn > 0", f"timesWorn, {APP_ORDER}"),
    "neverWorn": ("timesWorn = 0", APP_ORDER),
    "notWornRecently": ("lastWorn < :staleBefore", f"lastWorn, {APP_ORDER}"),
}


def list_sql(name):
    condition, order = LISTS[name]
    return f"SELECT {TIE_COLUMNS} FROM bowTie WHERE {condition} ORDER BY {order} LIMIT :limit"


WEARS_BETWEEN = "SELECT count(*) FROM wearEvent WHERE wornAt >= :start AND wornAt < :end"
SUGGESTIONS = f"""SELECT candidate.*,
  (coalesce(days, :neverWornDays) + 1) * (1 + rating)
    * (CASE WHEN isFavorite = TRUE THEN 1.5 ELSE 1 END) AS score
FROM (
  SELECT {TIE_COLUMNS}, canonicalName, canonicalKey FROM bowTie
  WHERE lastWorn IS NULL OR lastWorn < (SELECT max(lastWorn) FROM bowTie)
) AS candidate
ORDER BY score DESC, {APP_ORDER}
LIMIT :limit"""
LIST_JSON = ("SELECT id, name, searchKey, rating, timesWorn, lastWorn, isFavorite, url, "
             "price, hex(tintColor) AS tintColor, coalesce(photoSize, 0) AS photoBytes "
             f"FROM bowTie ORDER BY {APP_ORDER}")


# --- history (issue 25): SummarySQL.history, for every wear or from `since` --------------


def history_sql(since=""):
    return ("SELECT wearEvent.id, wearEvent.tieId, wearEvent.wornAt, "
            "coalesce(bowTie.searchKey, '?') AS searchKey, coalesce(bowTie.name, '?') AS name "
            "FROM wearEvent LEFT JOIN bowTie ON bowTie.id = wearEvent.tieId "
            + (f"WHERE wearEvent.wornAt >= '{since}' " if since else "")
            + "ORDER BY wearEvent.wornAt DESC, wearEvent.id DESC")


HISTORY_CHECK_SINCE = "2026-11-14"  # a week of wears, compared line by line before timing


def storage(instant):
    return instant.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def param(name, value):
    text = f"'{value}'" if isinstance(value, str) else str(value)
    return f'.parameter set :{name} "{text}"\n'


class Scripts:
    """The sqlite3 scripts for one time zone, each with the values bowties binds set as
    .parameter values."""

    PROLOGUE = ".timeout 10000\nPRAGMA foreign_keys = ON;\n"

    def __init__(self, tz):
        zone = ZoneInfo(tz)
        as_of_day = datetime.fromisoformat(AS_OF).replace(tzinfo=zone)  # local midnight
        day_shift = "+0 seconds" if tz in ("UTC", "Etc/UTC") else "localtime"
        stale_before = as_of_day - timedelta(days=STALE_DAYS - 1)
        month_starts = []
        year, month = as_of_day.year, as_of_day.month
        for _ in range(MONTHS):
            month_starts.insert(0, datetime(year, month, 1, tzinfo=zone))
            year, month = (year, month - 1) if month > 1 else (year - 1, 12)
        month_ends = month_starts[1:] + [as_of_day + timedelta(days=1)]
        common_values = (param("asOfDay", AS_OF) + param("dayShift", day_shift)
                         + param("neverWornDays", NEVER_WORN_DAYS))
        self.report = (
            self.PROLOGUE + common_values + param("staleBefore", storage(stale_before))
            + param("limit", LIMIT) + "BEGIN;\n" + SUMMARY + ";\n"
            + "".join(list_sql(name) + ";\n" for name in LISTS)
            + "".join(param("start", storage(start)) + param("end", storage(end))
                      + WEARS_BETWEEN + ";\n" for start, end in zip(month_starts, month_ends))
            + param("limit", 1) + SUGGESTIONS + ";\nCOMMIT;\n")
        self.suggest = self.PROLOGUE + common_values + param("limit", 1) + SUGGESTIONS + ";\n"
        self.list = self.PROLOGUE + LIST_JSON + ";\n"
        self.history = self.PROLOGUE + history_sql() + ";\n"
        self.history_since = storage(
            datetime.fromisoformat(HISTORY_CHECK_SINCE).replace(tzinfo=zone))


# --- Checks: one run of each side, compared, before timing --------------------------------


def sqlite_json_results(raw):
    """sqlite3 -json prints one array per statement that returns rows, one after another;
    a blob (the color archive) is printed as its bytes, escaped as JSON but not UTF-8."""
    decoder, text, results, at = json.JSONDecoder(), raw.decode(errors="surrogateescape"), [], 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            return results
        value, at = decoder.raw_decode(text, at)
        results.append(value)


class Checker:
    """Runs both sides once and compares what they print; fails the script on a difference.
    Each check_* method takes the command being checked and the run's context."""

    def __init__(self, script, ties, history_since):
        self.script, self.ties, self.history_since = script, ties, history_since
        self.report = None

    def output_of(self, argv, stdin_path=None):
        with open(stdin_path or os.devnull) as source:
            out = subprocess.run(argv, env=self.script.env, stdin=source, capture_output=True,
                                 timeout=TIMEOUT)
        if out.returncode != 0:
            self.script.fail(f"{' '.join(argv)} exited {out.returncode}: "
                             f"{out.stderr.decode()[-1000:]}")
        return out.stdout

    def both(self, command, extra=()):
        ours = json.loads(self.output_of(command.bowties + list(extra)))
        theirs = sqlite_json_results(self.output_of(command.sqlite, command.script_path))
        return ours, theirs

    def check_report(self, command):
        fail = self.script.fail
        report, results = self.both(command)
        if len(results) != 1 + len(LISTS) + MONTHS + 1:
            fail(f"the sqlite3 side printed {len(results)} results")
        counts = results[0][0]
        expected = {
            "tieCount": counts["ties"], "favoriteCount": counts["favorites"],
            "mostWorn": counts["worn"], "leastWorn": counts["worn"],
            "neverWorn": counts["neverWorn"], "notWornRecently": counts["notWornRecently"]}
        for key, value in expected.items():
            got = report[key]["total"] if isinstance(report[key], dict) else report[key]
            if got != value:
                fail(f"report {key}: bowties {got}, sqlite3 {value}")
        if abs(report["averageRating"] - counts["averageRating"]) > 1e-9:
            fail("the average ratings differ")
        if [b["ties"] for b in report["ratingDistribution"]] != \
                [counts[f"rated{n}"] for n in range(6)]:
            fail("the rating distributions differ")
        for index, name in enumerate(LISTS, start=1):
            ours = [t["searchKey"] for t in report[name]["ties"]]
            theirs = [row["searchKey"] for row in results[index]]
            days = [t["daysSinceWorn"] for t in report[name]["ties"]]
            if ours != theirs or days != [row["days"] for row in results[index]]:
                fail(f"report {name}: bowties {ours}, sqlite3 {theirs}")
        months = [r[0]["count(*)"] for r in results[1 + len(LISTS):1 + len(LISTS) + MONTHS]]
        if [m["wears"] for m in report["wearsPerMonth"]] != months:
            fail(f"wears per month: bowties {report['wearsPerMonth']}, sqlite3 {months}")
        suggestion = results[-1][0]
        if (report["suggestion"]["tie"]["searchKey"], report["suggestion"]["score"]) != (
                suggestion["searchKey"], suggestion["score"]):
            fail(f"suggestion: bowties {report['suggestion']}, sqlite3 {suggestion}")
        self.report = report

    def check_suggest(self, command):
        ours, results = self.both(command, ["--json", "--count", "1"])
        theirs = results[0]
        if [s["tie"]["searchKey"] for s in ours] != [row["searchKey"] for row in theirs] or \
                ours[0]["tie"]["searchKey"] != self.report["suggestion"]["tie"]["searchKey"]:
            self.script.fail(f"suggest: bowties {ours}, sqlite3 {theirs}")

    def check_list(self, command):
        ours, results = self.both(command)
        theirs = results[0]
        if len(ours) != self.ties or [t["searchKey"] for t in ours[:1000]] != \
                [row["searchKey"] for row in theirs[:1000]]:
            self.script.fail("list --json: the two sides list different ties")

    def check_history(self, command):
        """A week of wears, line by line: the key and name after bowties' date, the last two
        fields of sqlite3's."""
        store = command.bowties[-1]
        ours = self.output_of(command.bowties[:1] + ["history", "--since", HISTORY_CHECK_SINCE,
                                                     "--store", store])
        theirs = self.output_of(["sqlite3", store, history_sql(self.history_since)])
        ours = [line.split("  ", 1)[1] for line in ours.decode().splitlines()]
        theirs = ["  ".join(line.split("|")[3:]) for line in theirs.decode().splitlines()]
        if not ours or ours != theirs:
            self.script.fail(f"history: the two sides list different wears ({len(ours)} "
                             f"and {len(theirs)})")


# --- The commands timed --------------------------------------------------------------------


class Measured(NamedTuple):
    """A command timed against the sqlite3 CLI: its label, bowties' arguments (before
    --store), the sqlite3 script and its flags, how many runs give its peak RSS, the check
    run before timing (a Checker method), and its targets: a ratio (None for none), a goal
    ratio, peak RSS in MB."""
    label: str
    args: list
    sql: str
    flags: list
    rss_runs: int
    check: Callable
    ratio_target: Optional[float] = None
    goal: Optional[float] = None
    rss_target: Optional[float] = None
    max_runs: Optional[int] = None  # fewer timed rounds than --runs, for a long command


class Command(NamedTuple):
    """A Measured command made concrete for one store."""
    measured: Measured
    bowties: list
    sqlite: list
    script_path: str


def measured_commands(scripts):
    """What is timed, in order. A new command is one more entry here: its SQL (in Scripts),
    its check (in Checker) and its targets; the table at the end prints it."""
    return [
        Measured("report --format json", ["report", "--format", "json", "--as-of", AS_OF],
                 scripts.report, ["-json"], 3, Checker.check_report, 1.25, 1.1, 100),
        Measured("suggest", ["suggest", "--as-of", AS_OF], scripts.suggest, ["-json"], 3,
                 Checker.check_suggest, 1.25, None, 100),
        Measured("list --json", ["list", "--json"], scripts.list, ["-json"], 1,
                 Checker.check_list, 1.5, 1.1, 100, max_runs=3),
        Measured("history", ["history"], scripts.history, [], 1, Checker.check_history,
                 1.5, 1.1, 100, max_runs=3),
    ]


def other_commands(script, bowties, store):
    """--also-others: one run each of the other commands that read every tie or wear."""
    copy = os.path.join(script.work, "backup.sqlite")
    others = []
    for label, args in (
            ("list", ["list"]), ("history --json", ["history", "--json"]),
            ("export --format json", ["export", "--format", "json"]),
            ("export --format plist", ["export", "--format", "plist"]),
            ("export --format plist --binary", ["export", "--format", "plist", "--binary"]),
            ("doctor", ["doctor"]), ("backup", ["backup", copy])):
        elapsed, rss = script.timed_with_rss([bowties, *args, "--store", store],
                                             timeout=4 * TIMEOUT)
        others.append((label, elapsed, rss))
        print(f"  {label:30} {elapsed:8.1f} s  {rss:8.1f} MB", flush=True)
        if os.path.exists(copy):
            os.remove(copy)
    return others


def print_tables(options, bowties, rows, sizes, whole, others, cut_short):
    """The Markdown tables; True when a target was missed."""
    verdict = common.verdict
    missed = False
    print(f"\nmedians; bowties: {bowties}; {options.ties:,} ties, {options.wears:,} wears, "
          f"TZ={options.tz}")
    print("| command | runs | bowties | sqlite3 (same SQL) | ratio | bowties peak RSS "
          "| sqlite3 peak RSS | ratio target | memory target |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    for measured, bt, sq, bt_rss, sq_rss, n in rows:
        ratio = bt / sq
        if measured.ratio_target is None:
            marks = ("no target", "no target")
        else:
            ratio_ok, rss_ok = ratio <= measured.ratio_target, bt_rss < measured.rss_target
            missed |= not (ratio_ok and rss_ok)
            goal = (f" (goal ≤ {measured.goal:g}×: met)"
                    if measured.goal and ratio <= measured.goal else "")
            marks = (f"≤ {measured.ratio_target:g}×: {verdict(ratio_ok)}{goal}",
                     f"< {measured.rss_target:g} MB: {verdict(rss_ok)}")
        print(f"| {measured.label} | {n} | {bt:.2f} s | {sq:.2f} s | {ratio:.2f} "
              f"| {bt_rss:.1f} MB | {sq_rss:.1f} MB | {marks[0]} | {marks[1]} |")
    if sizes:
        print("\n| report --format | output | under 1 MB |")
        print("| --- | ---: | --- |")
    for format, size in sizes:
        ok = size < 1_000_000
        missed |= not ok
        print(f"| {format} | {size:,} bytes | {verdict(ok)} |")
    if whole:
        print(f"\nreport --format json --all (every list whole, streamed to /dev/null): "
              f"{whole[0]:.1f} s, {whole[1]:.1f} MB peak RSS")
    if others:
        print("\n| other command, one run | time | bowties peak RSS |")
        print("| --- | ---: | ---: |")
        for label, elapsed, rss in others:
            print(f"| {label} | {elapsed:.1f} s | {rss:.1f} MB |")
    if cut_short:
        print(f"\nbench-report: stopped early after {options.max_minutes} minutes: "
              f"{', '.join(cut_short)}")
    return missed


def main():
    script = common.Script("bench-report")
    parser = common.parser(script, __doc__)
    common.standard_options(parser, runs=5, keep=False, cache=True)
    parser.add_argument("--ties", type=common.positive, default=1000000)
    parser.add_argument("--wears", type=common.positive, default=10000000)
    parser.add_argument("--tz", default="UTC")
    parser.add_argument("--max-minutes", type=common.positive, default=60)
    parser.add_argument("--also-all", action="store_true")
    parser.add_argument("--also-others", action="store_true")
    parser.add_argument("--only", action="append", default=[], metavar="LABEL",
                        choices=[measured.label for measured in measured_commands(Scripts("UTC"))])
    parser.add_argument("bowties", nargs="?")
    options = parser.parse_args()
    if options.ties < 1000:
        script.usage_error("--ties must be 1000 or more")
    if not os.path.exists(f"/usr/share/zoneinfo/{options.tz}"):
        script.usage_error(f"no time zone {options.tz}")
    bowties = script.binary(options.bowties, options.build)
    script.require("python3", "sqlite3", "/usr/bin/time")
    cache = common.cache_folder(options.cache)
    work = script.make_work()
    script.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": work, "LANG": "C",
                  "TZ": options.tz, "NO_COLOR": "1"}
    deadline = time.monotonic() + options.max_minutes * 60

    store = store_path(script, bowties, cache, options.ties, options.wears)
    commands = []
    for measured in measured_commands(Scripts(options.tz)):
        if options.only and measured.label not in options.only:
            continue
        path = os.path.join(work, f"{measured.label.split()[0]}.sql")
        with open(path, "w") as f:
            f.write(measured.sql)
        commands.append(Command(measured, [bowties, *measured.args, "--store", store],
                                ["sqlite3", *measured.flags, store], path))

    print(f"\nbench-report: {options.ties:,} ties, {options.wears:,} wears, TZ={options.tz}; "
          f"{store}", flush=True)
    script.say(f"before: {common.load()}")
    checker = Checker(script, options.ties, Scripts(options.tz).history_since)
    for command in commands:
        command.measured.check(checker, command)
    script.say("both sides give the same counts, lists, months, suggestion and wears")

    rows, cut_short = [], []
    for command in commands:
        measured = command.measured
        runs = min(options.runs, measured.max_runs or options.runs)
        bt, sq = script.alternate([(command.bowties, None, None),
                                   (command.sqlite, None, command.script_path)],
                                  runs, 1, TIMEOUT, deadline)
        if len(bt) < runs:
            cut_short.append(measured.label)
        bt_rss = script.median_rss_mb(command.bowties, measured.rss_runs, timeout=TIMEOUT)
        sq_rss = script.median_rss_mb(command.sqlite, measured.rss_runs,
                                      stdin_path=command.script_path, timeout=TIMEOUT)
        row = (measured, statistics.median(bt), statistics.median(sq), bt_rss, sq_rss, len(bt))
        rows.append(row)
        print(f"  {measured.label:22} {row[1]:8.2f} s  sqlite3 {row[2]:7.2f} s  "
              f"ratio {row[1] / row[2]:5.2f}  {bt_rss:7.1f} MB  ({len(bt)} runs each)",
              flush=True)

    sizes = []
    for format in () if options.only else ("text", "markdown", "html", "json", "csv"):
        out = checker.output_of([bowties, "report", "--format", format, "--as-of", AS_OF,
                                 "--store", store])
        sizes.append((format, len(out)))
    whole = None
    if options.also_all:
        argv = [bowties, "report", "--format", "json", "--as-of", AS_OF, "--all", "--store", store]
        whole = (script.spawn_timed(argv, timeout=TIMEOUT),
                 script.peak_rss_mb(argv, timeout=TIMEOUT))
    others = other_commands(script, bowties, store) if options.also_others else []
    script.say(f"after: {common.load()}")
    if print_tables(options, bowties, rows, sizes, whole, others, cut_short) and options.strict:
        sys.exit(2)


if __name__ == "__main__":
    main()
