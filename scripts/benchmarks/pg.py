#!/usr/bin/env python3
"""PostgreSQL benchmark (issue 16, "Measured"): bowties on a PostgreSQL store, each command a
whole process, against psql running the same SQL on the same server, connection and
password authentication included on both sides.

Usage: scripts/bench-pg [options] [BOWTIES]

  BOWTIES           the bowties binary (default: .build-release/release/bowties in the
                    repo root, where scripts/build-release puts the binary we ship)
  -r, --runs R      timed runs of each side of show and wear (default 40); report and
                    suggest run --report-runs times, the seed --seed-runs times
  --report-runs R   timed runs of report and suggest (default 5)
  --seed-runs R     timed runs of each side of the seed (default 3)
  --parts LIST      which parts to run, comma-separated: seed, show (show and wear),
                    report (report and suggest); default seed,show,report
  --ties N          ties in the report store (default 1000000)
  --wears M         wear events in the report store (default 10000000)
  --seed-count N    ties in the seed (default 100000)
  --cache DIR       where the server's data folder (with the report store) is kept
                    between runs of the script (default .build/bench-stores in the repo
                    root)
  --build           first build the binary with scripts/build-release
  --keep            keep the temporary folder (captured SQL, server log, seed plist and
                    CSV files) and print its path
  --strict          exit 2 when a target is missed (default: exit 0 once every run worked)
  -h, --help        show this help

The server: PostgreSQL 15 (/usr/lib/postgresql/15/bin), started by the script as the
postgres user on a free loopback port, with Debian's defaults otherwise (fsync on); its
socket and log in a temporary folder, its few settings on its command line, its data
folder in the cache (made by initdb on first use); stopped at exit. Local connections authenticate by peer (the
script's own set-up, as postgres), TCP connections by scram-sha-256 password. Both sides
connect as the role `bench` over TCP to 127.0.0.1 with its password (bowties by the URI
postgresql://bench:…@127.0.0.1:PORT/DB?sslmode=disable, psql with PGPASSWORD,
PGSSLMODE=disable and PGGSSENCMODE=disable, so neither asks for TLS or GSSAPI first).
psql is /usr/lib/postgresql/15/bin/psql itself: /usr/bin/psql is Debian's pg_wrapper, a
Perl script whose start-up would be timed too.

The SQL psql runs is the SQL bowties runs: for each command, one bowties run with the
server's `log_statement = all` set on that database (and reset after) logs every
statement with its bound values; the script puts the values into the statements as
literals and gives psql the whole sequence, the opening schema check included: each
transaction (BEGIN … COMMIT) as one -c, each statement outside one as a -c of its own
(one simple-protocol message, one round trip, each, against bowties' one per statement).
The captured SQL is written to the temporary folder (--keep to read it).

Parts, each command timed as a whole process (posix_spawn, wall clock from spawn to
exit, stdout and stderr to /dev/null), alternating the two sides and flipping which goes
first every other round, after warm-up rounds; medians are printed. Peak RSS comes from
separate runs under /usr/bin/time -f %M (median of 5 for show and wear, 3 for report and
suggest, each seed run's own). Every side runs with TZ=UTC, LANG=C.
  seed    `bowties seed PLIST --store URI` into a new, empty database (bowties makes the
          schema and loads the ties in one transaction) against psql -1 loading the same
          rows with \copy from CSV files (the ties, then their wear events, through the
          store's own triggers) in one transaction into a database with the same schema
          and nothing else (a copy of a store bowties made, emptied). The plist is
          scripts/bench-seed's, N ties; the CSV files are what the first bowties seed
          stored, read back with \copy … TO. A new database for every run of each side;
          after each, the ties (and, for psql, the wears and the sum of timesWorn) are
          counted and must match.
  show    `show R` and `wear R` on the sample store (7 ties, `bowties list` makes it),
          and `show K(N/2)` and `wear K(N/2)` on the N-tie store the last seed made
          (when the seed part runs). Before timing, one run of each side is checked: it
          exits 0 and prints the tie; a wear adds one event and one to timesWorn. Every
          wear adds an event, on either side.
  report  `report --format json --as-of 2026-11-21` and `suggest --as-of 2026-11-21` on
          a store of N ties and M wears: `bowties list` makes the store (schema,
          triggers and migrations the binary's own), then psql replaces the samples with
          generated ties and wears (scripts/bench-report's recipe: K0…K(N-1), one in ten
          never worn, one in five a favorite, the seven sample colors, wears spread over
          three years before 2026-11-21) with the wear trigger disabled during the bulk
          insert and timesWorn and lastWorn then set from the events by one UPDATE, the
          trigger enabled again; then VACUUM FULL of bowTie (that UPDATE left every worn
          tie's old row behind: 825 MB instead of 455 MB at the defaults) and VACUUM
          ANALYZE, and `bowties doctor` must find it healthy. Built once (about 11
          minutes and 3.5 GB at the defaults) and kept in the cache, keyed by N, M and
          the recipe. Before timing, psql's rows must name the tie bowties suggests.

Targets (issue 16): show and wear ≤ 1.2 × psql (goal 1.0 ×); report and suggest ≤ 1.25 ×
psql; the seed ≤ 2 × psql's \copy; peak RSS within the SQLite bounds (scripts/bench,
bench-report, bench-seed): under 30 MB for show and wear, 100 MB for report and
suggest, 500 MB for the seed.

The machine is shared: the script prints the load average before and after each part.

Exit status: 0 when every run worked, 1 when a run failed or a check did not hold, 2 with
--strict when a target was missed, 64 for bad arguments.
"""

import json
import os
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import time

import common
from common import AS_OF

PG_BIN = "/usr/lib/postgresql/15/bin"
# The psql binary itself: /usr/bin/psql is Debian's pg_wrapper, a Perl script that picks a
# cluster's version first and would add its own start-up to every run.
PSQL = PG_BIN + "/psql"
RECIPE = "pg-report-v2"
TIMEOUT = 30 * 60
SHOW_TARGET, SHOW_GOAL, SHOW_RSS = 1.2, 1.0, 30
REPORT_TARGET, REPORT_RSS = 1.25, 100
SEED_TARGET, SEED_RSS = 2.0, 500


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- The SQL bowties runs, from the server's log -------------------------------------------

ENTRY = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \S+_(\d+)_(\w+):  (.*)$")

PARAMETER = re.compile(r"\$(\d+) = (NULL|'(?:[^']|'')*')")


def log_entries(text):
    """(pid, level, message) for each entry of a stderr log; a message's later lines are
    the lines that do not start with the log line prefix."""
    entries = []
    for line in text.split("\n"):
        match = ENTRY.match(line)
        if match:
            entries.append([match.group(1), match.group(2), match.group(3)])
        elif entries:
            entries[-1][2] += "\n" + line
    return entries


def transactions(statements):
    """The statements as psql is given them, one -c each: a BEGIN … COMMIT block whole, a
    statement outside one alone. (Several statements in one -c run as one implicit
    transaction, which a BEGIN with an isolation level cannot then start.)"""
    groups, current = [], None
    for statement in (s.rstrip().rstrip(";") for s in statements):
        word = statement.split(None, 1)[0].upper()
        if current is None:
            if word in ("BEGIN", "START"):
                current = [statement]
            else:
                groups.append(statement + ";")
        else:
            current.append(statement)
            if word in ("COMMIT", "ROLLBACK", "END"):
                groups.append(";\n".join(current) + ";")
                current = None
    if current is not None:
        groups.append(";\n".join(current) + ";")
    return groups

TIE_COLUMNS = ("id, name, canonicalName, searchKey, canonicalKey, rating, timesWorn, lastWorn, "
               "isFavorite, url, tintColor, photoData, photoFile, photoSize, wearsBeforeHistory, "
               "price, photoFormat, photoWidth, photoHeight")


class PgBench:
    """One run: the server, its databases, and the rows measured."""

    def __init__(self, script, options, bowties, cache, work):
        self.script, self.bowties, self.cache, self.work = script, bowties, cache, work
        self.runs, self.report_runs, self.seed_runs = (options.runs, options.report_runs,
                                                       options.seed_runs)
        self.parts = options.parts.split(",")
        self.ties, self.wears, self.seed_count = options.ties, options.wears, options.seed_count
        self.keep = options.keep
        self.password = "bench-" + secrets.token_hex(12)
        self.data = os.path.join(cache, "pg-v1", "data")
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": work, "LANG": "C",
                    "TZ": "UTC", "NO_COLOR": "1"}
        self.psql_env = dict(self.env, PGPASSWORD=self.password, PGSSLMODE="disable",
                             PGGSSENCMODE="disable", PGCONNECT_TIMEOUT="10")
        self.port = free_port()
        self.log = os.path.join(work, "server.log")
        # (part, label, n, bowties s, psql s, bowties MB, psql MB, ratio target, goal, rss target)
        self.rows = []

    def fail(self, message):
        self.script.fail(message)

    def say(self, message):
        self.script.say(message)

    def alternate(self, bt_argv, ps_argv, n, warmups):
        """Medians of n timed runs of each side, after `warmups` untimed rounds."""
        bt, ps = self.script.alternate([(bt_argv, self.env, None), (ps_argv, self.psql_env, None)],
                                       n, warmups, TIMEOUT)
        return statistics.median(bt), statistics.median(ps)

    # --- The server ---------------------------------------------------------------------------

    def as_postgres(self, argv, **kwargs):
        return subprocess.run(["runuser", "-u", "postgres", "--"] + argv, **kwargs)

    def start_server(self):
        if not os.path.exists(os.path.join(self.data, "PG_VERSION")):
            shutil.rmtree(self.data, ignore_errors=True)
            os.makedirs(self.data)
            shutil.chown(self.data, "postgres")
            os.chmod(self.data, 0o700)
            done = self.as_postgres([f"{PG_BIN}/initdb", "-D", self.data, "-U", "postgres",
                                     "--auth-local=peer", "--auth-host=scram-sha-256",
                                     "--encoding=UTF8", "--locale=C"],
                                    capture_output=True, text=True)
            if done.returncode != 0:
                self.fail(f"initdb failed: {done.stderr[-2000:]}")
        # Every run's log is new; the server writes it as postgres.
        open(self.log, "w").close()
        shutil.chown(self.log, "postgres")
        options = (f"-p {self.port} -k {self.work} -c listen_addresses=127.0.0.1 "
                   "-c log_line_prefix=%m_%p_ -c log_parameter_max_length=-1 "
                   "-c password_encryption=scram-sha-256")
        done = self.as_postgres([f"{PG_BIN}/pg_ctl", "-D", self.data, "-l", self.log, "-w", "-t",
                                 "120", "-o", options, "start"], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            self.fail(f"the server did not start: {done.stderr[-1000:]} (see {self.log})")

    def stop_server(self):
        self.as_postgres([f"{PG_BIN}/pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)

    def superuser(self, sql, database="postgres"):
        """SQL as the postgres superuser, over the socket (peer authentication)."""
        done = self.as_postgres([PSQL, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h",
                                 self.work, "-p", str(self.port), "-d", database, "-c", sql],
                                capture_output=True, text=True, env=dict(self.env, HOME="/tmp"))
        if done.returncode != 0:
            self.fail(f"psql as postgres failed on {sql[:200]!r}: {done.stderr.strip()[-2000:]}")
        return done.stdout.strip()

    def bench_psql(self, database, *args, stdin=None):
        """psql as the bench role over TCP; returns stdout."""
        argv = [PSQL, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p",
                str(self.port), "-U", "bench", "-d", database, *args]
        done = subprocess.run(argv, capture_output=True, text=True, env=self.psql_env, input=stdin,
                              timeout=4 * TIMEOUT)
        if done.returncode != 0:
            self.fail(f"psql on {database} failed: {done.stderr.strip()[-2000:]}")
        return done.stdout.strip()

    def uri(self, database):
        return (f"postgresql://bench:{self.password}@127.0.0.1:{self.port}/{database}"
                "?sslmode=disable")

    def psql_argv(self, database, groups):
        return [PSQL, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p",
                str(self.port), "-U", "bench", "-d", database] + [
                    a for g in groups for a in ("-c", g)]

    def new_database(self, name, template=None):
        self.superuser(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        self.superuser(f"CREATE DATABASE {name} OWNER bench"
                       + (f" TEMPLATE {template}" if template else ""))

    def drop_database(self, name):
        self.superuser(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    # --- Running ------------------------------------------------------------------------------

    def run_bowties(self, args, database, timeout=TIMEOUT):
        done = subprocess.run([self.bowties, *args, "--store", self.uri(database)], env=self.env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=timeout)
        if done.returncode != 0:
            self.fail(f"bowties {' '.join(args)} exited {done.returncode}: "
                      f"{done.stderr.strip()[-2000:]}")
        return done.stdout

    def captured_sql(self, args, database):
        """Every statement one bowties run sends, with its bound values as literals."""
        self.superuser(f"ALTER DATABASE {database} SET log_statement = 'all'")
        start = os.path.getsize(self.log)
        try:
            self.run_bowties(args, database)
        finally:
            self.superuser(f"ALTER DATABASE {database} RESET log_statement")
        time.sleep(0.2)  # the log collector may not have written the last lines yet
        with open(self.log, encoding="utf-8", errors="surrogateescape") as f:
            f.seek(start)
            text = f.read()
        statements, pid = [], None
        for entry_pid, level, message in log_entries(text):
            if level == "LOG" and (message.startswith("execute ")
                                   or message.startswith("statement: ")):
                if "ALTER DATABASE" in message:
                    continue
                if pid is None:
                    pid = entry_pid
                if entry_pid != pid:
                    continue
                sql = message.split(": ", 1)[1].rstrip()
                statements.append([sql, {}])
            elif level == "DETAIL" and message.startswith("parameters: ") and entry_pid == pid:
                values = {int(n): v for n, v in PARAMETER.findall(message)}
                statements[-1][1] = values
        if not statements:
            self.fail(f"nothing was logged for bowties {' '.join(args)}")
        out = []
        for sql, values in statements:
            out.append(re.sub(r"\$(\d+)\b", lambda m: values[int(m.group(1))], sql)
                       if values else sql)
        return out

    # --- Stores -------------------------------------------------------------------------------

    def fill_sql(self):
        """Replaces the sample ties with `ties` generated ones and `wears` events, as
        scripts/bench-report's recipe does on SQLite."""
        three_years, end = common.THREE_YEARS, common.RECIPE_END
        tie = common.wear_tie_sql(self.ties)
        tie_id = ("lpad(upper(to_hex({0})), 8, '0') || '-0000-4000-8000-' || "
                  "lpad(upper(to_hex({0})), 12, '0')")
        return f"""
    SET maintenance_work_mem = '1GB';
    SET synchronous_commit = off;
    BEGIN;
    CREATE TEMP TABLE sampleColor AS
      SELECT row_number() OVER (ORDER BY id) - 1 AS n, tintColor AS archive
      FROM bowTie WHERE tintColor IS NOT NULL;
    DELETE FROM undoEntry;
    DELETE FROM wearEvent;
    UPDATE bowTie SET photoFile = NULL;
    DELETE FROM bowTie;
    DELETE FROM photo;
    INSERT INTO bowTie (id, name, canonicalName, searchKey, canonicalKey, rating, timesWorn,
        lastWorn, isFavorite, url, tintColor, wearsBeforeHistory)
      SELECT {tie_id.format("i")}, 'Bow Tie ' || lpad(i::text, 7, '0'),
        'bow tie ' || lpad(i::text, 7, '0'), 'K' || i, 'k' || i, ((i * 7) % 11) / 2.0, 0, NULL,
        CASE WHEN i % 5 = 0 THEN 1 ELSE 0 END, 'https://example.com/ties/' || i,
        (SELECT archive FROM sampleColor WHERE n = i % 7), 0
      FROM generate_series(0, {self.ties - 1}) AS i;
    ALTER TABLE wearEvent DISABLE TRIGGER wearEvent_afterInsert;
    INSERT INTO wearEvent (tieId, wornAt)
      SELECT {tie_id.format(tie)},
        to_char(to_timestamp({end} - 1 - (j * 104729) % {three_years}) AT TIME ZONE 'UTC',
                'YYYY-MM-DD"T"HH24:MI:SS".000Z"')
      FROM generate_series(0::bigint, {self.wears - 1}) AS j;
    ALTER TABLE wearEvent ENABLE TRIGGER wearEvent_afterInsert;
    UPDATE bowTie SET timesWorn = worn.events, lastWorn = worn.latest
      FROM (SELECT tieId, count(*) AS events, max(wornAt) AS latest FROM wearEvent GROUP BY tieId)
        AS worn
      WHERE bowTie.id = worn.tieId;
    COMMIT;
    VACUUM (FULL, ANALYZE) bowTie;
    VACUUM (ANALYZE);
    """

    def report_store(self):
        name = f"bench_report_{self.ties}_{self.wears}".replace("-", "_")
        marker = os.path.join(self.cache, "pg-v1", f"{RECIPE}-{self.ties}-{self.wears}.complete")
        exists = self.superuser(f"SELECT count(*) FROM pg_database WHERE datname = '{name}'") == "1"
        if exists and os.path.exists(marker):
            return name
        if os.path.exists(marker):
            os.remove(marker)
        free = shutil.disk_usage(self.cache).free
        needed = (self.ties * 700 + self.wears * 250) * 2
        if free < needed:
            self.fail(f"{free / 1e9:.1f} GB free under {self.cache}; the store needs about "
                      f"{needed / 1e9:.1f} GB")
        self.say(f"building the {self.ties:,}-tie, {self.wears:,}-wear store {name} "
                 f"({common.load()})")
        start = time.perf_counter()
        self.new_database(name)
        self.run_bowties(["list"], name)
        self.bench_psql(name, "-f", "-", stdin=self.fill_sql())
        self.say(f"filled in {time.perf_counter() - start:.0f} s; checking it with bowties doctor")
        doctor = subprocess.run([self.bowties, "doctor", "--store", self.uri(name)], env=self.env,
                                stdin=subprocess.DEVNULL,
                                capture_output=True, text=True, timeout=4 * TIMEOUT)
        if doctor.returncode != 0:
            self.fail(f"bowties doctor found problems in the new store: {doctor.stdout[-2000:]}"
                      f"{doctor.stderr[-2000:]}")
        counts = self.bench_psql(name, "-c", "SELECT (SELECT count(*) FROM bowTie) || ' ' || "
                                 "(SELECT count(*) FROM wearEvent)")
        if counts != f"{self.ties} {self.wears}":
            self.fail(f"the store holds {counts} ties and wears")
        with open(marker, "w") as f:
            f.write(f"{RECIPE} {self.ties} {self.wears}\n")
        size = self.bench_psql(name, "-c", f"SELECT pg_size_pretty(pg_database_size('{name}'))")
        self.say(f"built and checked in {time.perf_counter() - start:.0f} s; {size}")
        return name

    # --- Parts --------------------------------------------------------------------------------

    def record(self, part, label, n, bt, ps, bt_rss, ps_rss, target, goal, rss_target):
        self.rows.append((part, label, n, bt, ps, bt_rss, ps_rss, target, goal, rss_target))
        unit, scale = ("ms", 1e3) if part == "show" else ("s", 1)
        print(f"  {label:34} bowties {bt * scale:9.2f} {unit}  psql {ps * scale:9.2f} {unit}  "
              f"ratio {bt / ps:5.2f}  {bt_rss:6.1f} MB / {ps_rss:5.1f} MB  ({n} runs each)",
              flush=True)

    def seed_part(self):
        self.say(f"seed: {self.seed_count:,} ties ({common.load()})")
        plist = os.path.join(self.work, f"seed-{self.seed_count}.plist")
        common.generate_plist(plist, self.seed_count)
        # The psql side's schema: a store bowties made, emptied.
        self.new_database("bench_seed_template")
        self.run_bowties(["list"], "bench_seed_template")
        self.bench_psql("bench_seed_template", "-c",
                        "TRUNCATE undoEntry, wearEvent, bowTie, photo RESTART IDENTITY CASCADE")
        ties_csv = os.path.join(self.work, "ties.csv")
        wears_csv = os.path.join(self.work, "wears.csv")
        load_sql = os.path.join(self.work, "copy.sql")
        bt_times, ps_times, bt_rss, ps_rss = [], [], [], []
        seeded = None
        for run in range(1, self.seed_runs + 1):
            sides = ["bowties", "psql"] if run % 2 else ["psql", "bowties"]
            for side in sides:  # the first run's bowties side goes first: it writes the CSV
                database = f"bench_seed_{side}_{run}"
                if side == "bowties":
                    self.new_database(database)
                    argv = [self.bowties, "seed", plist, "--store", self.uri(database)]
                    env = self.env
                else:
                    self.new_database(database, template="bench_seed_template")
                    argv = [PSQL, "-X", "-q", "-1", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
                            "-p", str(self.port), "-U", "bench", "-d", database, "-f", load_sql]
                    env = self.psql_env
                elapsed, rss = self.script.timed_with_rss(
                    argv, env, log=os.path.join(self.work, f"{side}-seed.log"), timeout=TIMEOUT)
                counts = self.bench_psql(database, "-c",
                                         "SELECT (SELECT count(*) FROM bowTie) || ' ' || "
                                         "(SELECT count(*) FROM wearEvent)")
                if counts.split()[0] != str(self.seed_count):
                    self.fail(f"the {side} seed stored {counts} ties and wears, "
                              f"not {self.seed_count:,} ties")
                if side == "bowties":
                    bt_times.append(elapsed); bt_rss.append(rss)
                    if not os.path.exists(load_sql):
                        # The tie rows as bowties inserted them: their wears, inserted after,
                        # added to timesWorn through the trigger.
                        columns = TIE_COLUMNS.replace(
                            "timesWorn,", "timesWorn - (SELECT count(*) FROM wearEvent "
                            "WHERE tieId = bowTie.id),", 1)
                        self.bench_psql(database, "-c", f"\\copy (SELECT {columns} FROM bowTie) "
                                                        f"TO '{ties_csv}' CSV")
                        self.bench_psql(database, "-c",
                                        f"\\copy (SELECT tieId, wornAt FROM wearEvent ORDER BY id) "
                                        f"TO '{wears_csv}' CSV")
                        with open(load_sql, "w") as f:
                            f.write(f"\\copy bowTie ({TIE_COLUMNS}) FROM '{ties_csv}' CSV\n"
                                    f"\\copy wearEvent (tieId, wornAt) FROM '{wears_csv}' CSV\n")
                    if seeded:
                        self.drop_database(seeded)
                    seeded = database
                else:
                    ps_times.append(elapsed); ps_rss.append(rss)
                    expected = self.bench_psql(seeded, "-c",
                                               "SELECT (SELECT count(*) FROM bowTie) || ' ' || "
                                               "(SELECT count(*) FROM wearEvent) || ' ' || "
                                               "(SELECT sum(timesWorn) FROM bowTie)")
                    got = self.bench_psql(database, "-c",
                                          "SELECT (SELECT count(*) FROM bowTie) || ' ' || "
                                          "(SELECT count(*) FROM wearEvent) || ' ' || "
                                          "(SELECT sum(timesWorn) FROM bowTie)")
                    if got != expected:
                        self.fail(f"psql's \\copy stored {got}, bowties {expected} "
                                  "(ties, wears, timesWorn)")
                    self.drop_database(database)
            print(f"  run {run}: bowties {bt_times[-1]:6.2f} s {bt_rss[-1]:6.1f} MB   "
                  f"psql \\copy {ps_times[-1]:6.2f} s {ps_rss[-1]:5.1f} MB   "
                  f"ratio {bt_times[-1] / ps_times[-1]:.2f}", flush=True)
        doctor = self.run_bowties(["doctor"], seeded)
        self.record("seed", f"seed {self.seed_count:,} ties", self.seed_runs,
                    statistics.median(bt_times), statistics.median(ps_times),
                    statistics.median(bt_rss), statistics.median(ps_rss),
                    SEED_TARGET, None, SEED_RSS)
        self.say(f"seed done ({common.load()}); bowties doctor on the last seeded store: "
                 f"{doctor.strip().splitlines()[-1] if doctor.strip() else 'healthy'}")
        self.drop_database("bench_seed_template")
        return seeded

    def show_part(self, seeded):
        stores = [("bench_sample", "R", None)]
        self.new_database("bench_sample")
        self.run_bowties(["list"], "bench_sample")
        if seeded:
            key = f"K{self.seed_count // 2}"
            stores.append((seeded, key, self.seed_count))
        for database, tie, size in stores:
            name = self.run_bowties(["show", tie, "--json"], database)
            name = json.loads(name)["name"]
            self.say(f"show and wear on {database} ({size or 7:,} ties), tie {tie} ({name}); "
                     f"{common.load()}")
            for command in (["show", tie], ["wear", tie]):
                label = f"{command[0]} ({size or 7:,} ties)"
                groups = transactions(self.captured_sql(command, database))
                with open(os.path.join(self.work, f"{command[0]}-{database}.sql"), "w") as f:
                    f.write("\n\n".join(groups) + "\n")
                bt_argv = [self.bowties, *command, "--store", self.uri(database)]
                ps_argv = self.psql_argv(database, groups)
                # One checked run of each side: exit 0, the tie printed; a wear adds one event.
                def state():
                    return self.bench_psql(database, "-c",
                                           "SELECT (SELECT count(*) FROM wearEvent) || ' ' || "
                                           "timesWorn FROM bowTie "
                                           f"WHERE canonicalKey = '{tie.lower()}'")
                for side, argv, env in (("bowties", bt_argv, self.env),
                                        ("psql", ps_argv, self.psql_env)):
                    before = state()
                    out = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL,
                                         capture_output=True, text=True)
                    if out.returncode != 0:
                        self.fail(
                            f"{side} {label} exited {out.returncode}: {out.stderr.strip()[-1000:]}")
                    if name not in out.stdout:
                        self.fail(f"{side} {label} did not print {name!r}: {out.stdout[:300]!r}")
                    if command[0] == "wear":
                        events, worn = map(int, before.split())
                        if state() != f"{events + 1} {worn + 1}":
                            self.fail(f"{side} wear did not add one wear: {before} -> {state()}")
                bt, ps = self.alternate(bt_argv, ps_argv, self.runs, 3)
                bt_rss = self.script.median_rss_mb(bt_argv, 5, self.env, timeout=TIMEOUT)
                ps_rss = self.script.median_rss_mb(ps_argv, 5, self.psql_env, timeout=TIMEOUT)
                self.record(
    "show",
    label,
    self.runs,
    bt,
    ps,
    bt_rss,
    ps_rss,
    SHOW_TARGET,
    SHOW_GOAL,
     SHOW_RSS)
        self.drop_database("bench_sample")

    def report_part(self):
        database = self.report_store()
        self.say(f"report and suggest on {database} ({self.ties:,} ties, {self.wears:,} wears); "
                 f"{common.load()}")
        for command in (["report", "--format", "json", "--as-of", AS_OF],
                        ["suggest", "--as-of", AS_OF]):
            label = " ".join(command[:3] if command[0] == "report" else command[:1])
            groups = transactions(self.captured_sql(command, database))
            with open(os.path.join(self.work, f"{command[0]}.sql"), "w") as f:
                f.write("\n\n".join(groups) + "\n")
            bt_argv = [self.bowties, *command, "--store", self.uri(database)]
            ps_argv = self.psql_argv(database, groups)
            # One checked run of each side: the suggested tie is the one psql's rows name.
            extra = ["--json"] if command[0] == "suggest" else []
            ours = json.loads(self.run_bowties(command + extra, database))
            key = (ours["suggestion"]["tie"] if command[0] == "report"
                   else ours[0]["tie"])["searchKey"]
            theirs = subprocess.run(ps_argv, env=self.psql_env, stdin=subprocess.DEVNULL,
                                    capture_output=True, text=True, timeout=TIMEOUT)
            if theirs.returncode != 0 or f"|{key}|" not in theirs.stdout:
                self.fail(
                    f"psql's {label} did not give the suggestion {key}: {theirs.stderr[-1000:]}")
            bt, ps = self.alternate(bt_argv, ps_argv, self.report_runs, 1)
            bt_rss = self.script.median_rss_mb(bt_argv, 3, self.env, timeout=TIMEOUT)
            ps_rss = self.script.median_rss_mb(ps_argv, 3, self.psql_env, timeout=TIMEOUT)
            self.record("report", label, self.report_runs, bt, ps, bt_rss, ps_rss, REPORT_TARGET,
                        None, REPORT_RSS)

    def run(self):
        self.start_server()
        try:
            self.say(f"server on 127.0.0.1:{self.port}, data in {self.data}; "
                     f"bowties: {self.bowties}; {common.load()}")
            if self.superuser("SELECT count(*) FROM pg_roles WHERE rolname = 'bench'") == "0":
                self.superuser("CREATE ROLE bench LOGIN")
            self.superuser(f"ALTER ROLE bench PASSWORD '{self.password}'")
            seeded = self.seed_part() if "seed" in self.parts else None
            if "show" in self.parts:
                self.show_part(seeded)
            if seeded and not self.keep:
                self.drop_database(seeded)
            if "report" in self.parts:
                self.report_part()
            self.say(f"after: {common.load()}")
        finally:
            self.stop_server()

    def print_table(self):
        """The Markdown table; True when a target was missed."""
        missed = False
        verdict = common.verdict
        version = subprocess.run([PG_BIN + "/postgres", "--version"], capture_output=True,
                                 text=True)
        print(f"\nmedians; bowties: {self.bowties}; server PostgreSQL {version.stdout.split()[2]}, "
              "local, TCP 127.0.0.1, scram-sha-256")
        print("| command | runs | bowties | psql (same SQL) | ratio | bowties peak RSS "
              "| psql peak RSS | ratio target | memory target |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
        for part, label, n, bt, ps, bt_rss, ps_rss, target, goal, rss_target in self.rows:
            ratio = bt / ps
            ratio_ok, rss_ok = ratio <= target, bt_rss < rss_target
            missed |= not (ratio_ok and rss_ok)
            goal_text = (f" (goal ≤ {goal:g}×: {'met' if ratio <= goal else 'not met'})"
                         if goal else "")
            unit, scale = ("ms", 1e3) if part == "show" else ("s", 1)
            print(f"| {label} | {n} | {bt * scale:.2f} {unit} | {ps * scale:.2f} {unit} "
                  f"| {ratio:.2f} | {bt_rss:.1f} MB | {ps_rss:.1f} MB "
                  f"| ≤ {target:g}×: {verdict(ratio_ok)}{goal_text} "
                  f"| < {rss_target} MB: {verdict(rss_ok)} |")
        return missed


def main():
    script = common.Script("bench-pg")
    parser = common.parser(script, __doc__)
    common.standard_options(parser, runs=40, cache=True)
    parser.add_argument("--report-runs", type=common.positive, default=5)
    parser.add_argument("--seed-runs", type=common.positive, default=3)
    parser.add_argument("--parts", default="seed,show,report")
    parser.add_argument("--ties", type=common.positive, default=1000000)
    parser.add_argument("--wears", type=common.positive, default=10000000)
    parser.add_argument("--seed-count", type=common.positive, default=100000)
    parser.add_argument("bowties", nargs="?")
    options = parser.parse_args()
    if options.ties < 1000:
        script.usage_error("--ties must be 1000 or more")
    if not re.fullmatch(r"(seed|show|report)(,(seed|show|report))*", options.parts):
        script.usage_error("--parts takes seed, show and report, separated by commas")
    bowties = script.binary(options.bowties, options.build)
    if not os.access(f"{PG_BIN}/postgres", os.X_OK):
        script.fail(f"no PostgreSQL 15 in {PG_BIN} (apt-get install -y postgresql)")
    if os.geteuid() != 0:
        script.fail("the server runs as the postgres user, which needs root")
    script.require("python3", PSQL, "/usr/bin/time", "runuser")
    cache = common.cache_folder(options.cache)
    work = script.make_work(options.keep)
    # The server keeps its socket and log here, and runs as postgres.
    os.chmod(work, 0o755)
    shutil.chown(work, "postgres")
    bench = PgBench(script, options, bowties, cache, work)
    bench.run()
    if bench.print_table() and options.strict:
        sys.exit(2)


if __name__ == "__main__":
    main()
