"""What the benchmark scripts and the crash test share: their command lines, the binary they
measure, a temporary folder, processes timed as a whole, peak memory, and the generated
seed plist.

Each script in this folder is run through its link in scripts/ (scripts/bench is
scripts/benchmarks/bench.py, and so on); Python puts the folder of the file the link names
first on the module path, so `import common` finds this file.
"""

import argparse
import atexit
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DEFAULT_BINARY = ROOT / ".build-release" / "release" / "bowties"
DEFAULT_CACHE = ROOT / ".build" / "bench-stores"


class Script:
    """One run of one script: its name in messages, its environment and its folder."""

    def __init__(self, name, environment=None):
        self.name = name
        self.work = None
        self.devnull = os.open(os.devnull, os.O_RDWR)
        self.env = environment or {}
        # A closed pipe ends the script quietly, as it does a shell script.
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)

    # --- Messages -------------------------------------------------------------------------

    def fail(self, message):
        """Stops the script with exit status 1."""
        raise SystemExit(f"{self.name}: {message}")

    def usage_error(self, message):
        print(f"{self.name}: {message}", file=sys.stderr)
        raise SystemExit(64)

    def say(self, message, to=sys.stdout):
        print(f"{self.name}: {message}", file=to, flush=True)

    # --- Set-up ---------------------------------------------------------------------------

    def binary(self, path, build=False):
        """The bowties binary to measure: `path`, or the shipped build; with `build`, built
        first by scripts/build-release."""
        if build:
            self.say("building bowties (scripts/build-release)", to=sys.stderr)
            subprocess.run([ROOT / "scripts" / "build-release"], cwd=ROOT,
                           stdout=subprocess.DEVNULL, check=True)
        binary = os.path.abspath(path or DEFAULT_BINARY)
        if not os.access(binary, os.X_OK):
            self.fail(f"no bowties binary at {binary} (build it, or pass --build or its path)")
        return binary

    def require(self, *tools):
        for tool in tools:
            if not shutil.which(tool):
                self.fail(f"{tool} is missing (apt-get install -y {os.path.basename(tool)})")

    def make_work(self, keep=False, prefix=None):
        """A new temporary folder for this run, removed at exit unless `keep`."""
        folder = tempfile.mkdtemp(prefix=f"{prefix or self.name}.",
                                  dir=os.environ.get("TMPDIR", "/tmp"))
        if keep:
            self.say(f"keeping {folder}", to=sys.stderr)
        else:
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
        self.work = folder
        self.env.setdefault("HOME", folder)
        return folder

    # --- Running --------------------------------------------------------------------------

    def spawn_timed(self, argv, env=None, stdin_path=None, timeout=None):
        """Wall-clock seconds from spawn to exit, stdout and stderr to /dev/null; fails on
        a non-zero exit, or after `timeout` seconds (the process is killed then)."""
        return self.spawn_measured(argv, env, stdin_path, timeout)[0]

    def spawn_measured(self, argv, env=None, stdin_path=None, timeout=None):
        """spawn_timed's seconds, and the process's peak RSS in MB (from wait4)."""
        env = env or self.env
        program = argv[0] if os.path.isabs(argv[0]) else shutil.which(argv[0], path=env["PATH"])
        source = os.open(stdin_path, os.O_RDONLY) if stdin_path else self.devnull
        start = time.perf_counter()
        pid = os.posix_spawn(program, argv, env,
                             file_actions=[(os.POSIX_SPAWN_DUP2, source, 0),
                                           (os.POSIX_SPAWN_DUP2, self.devnull, 1),
                                           (os.POSIX_SPAWN_DUP2, self.devnull, 2)])
        timer = None
        if timeout:
            timer = threading.Timer(timeout, os.kill, (pid, signal.SIGKILL))
            timer.start()
        _, status, usage = os.wait4(pid, 0)
        elapsed = time.perf_counter() - start
        if timer:
            timer.cancel()
        if stdin_path:
            os.close(source)
        code = os.waitstatus_to_exitcode(status)
        if timeout and elapsed >= timeout and code == -signal.SIGKILL:
            self.fail(f"{' '.join(argv[:3])} ran past {timeout} s")
        if code != 0:
            with open(stdin_path or os.devnull) as source_file:
                out = subprocess.run(argv, env=env, stdin=source_file, capture_output=True,
                                     text=True, errors="replace", timeout=timeout)
            self.fail(f"{' '.join(argv[:3])} exited {code}: {out.stderr.strip()[-1000:]}")
        return elapsed, usage.ru_maxrss / 1024

    def timed_with_rss(self, argv, env=None, stdin_path=None, log=None, timeout=None):
        """One run under /usr/bin/time: (wall seconds, peak RSS in MB). stdout and stderr go
        to `log` (else /dev/null); fails on a non-zero exit, with the log's end."""
        usage = os.path.join(self.work, "time.out")
        output = open(log, "wb") if log else subprocess.DEVNULL
        try:
            with open(stdin_path or os.devnull) as source:
                start = time.perf_counter()
                done = subprocess.run(["/usr/bin/time", "-o", usage, "-f", "%M"] + argv,
                                      env=env or self.env, stdin=source, stdout=output,
                                      stderr=output, timeout=timeout)
                elapsed = time.perf_counter() - start
        finally:
            if log:
                output.close()
        if done.returncode != 0:
            tail = ""
            if log:
                with open(log, errors="replace") as f:
                    tail = ":\n" + f.read()[-2000:]
            self.fail(f"{' '.join(argv[:3])} failed (exit {done.returncode}) under "
                      f"/usr/bin/time{tail}")
        with open(usage) as f:
            return elapsed, int(f.read().split()[-1]) / 1024

    def peak_rss_mb(self, argv, env=None, stdin_path=None, timeout=None):
        """Peak RSS of one run, from /usr/bin/time -f %M, in MB."""
        return self.timed_with_rss(argv, env, stdin_path, timeout=timeout)[1]

    def median_rss_mb(self, argv, runs, env=None, stdin_path=None, timeout=None):
        return statistics.median(self.peak_rss_mb(argv, env, stdin_path, timeout)
                                 for _ in range(runs))

    def alternate(self, sides, runs, warmups, timeout=None, deadline=None):
        """Times each side `runs` times, after `warmups` untimed rounds, alternating the
        sides and flipping which goes first every other round. A side is (argv, env,
        stdin path), or a function returning one, called before each run. Returns each
        side's list of seconds. Past `deadline` (a time.monotonic()), no round starts once
        each side has one timed run."""
        times = [[] for _ in sides]
        for round in range(runs + warmups):
            if deadline and round > warmups and time.monotonic() > deadline:
                break
            order = list(enumerate(sides))
            if round % 2:
                order.reverse()
            for index, side in order:
                argv, env, stdin_path = side() if callable(side) else side
                elapsed = self.spawn_timed(argv, env, stdin_path, timeout)
                if round >= warmups:
                    times[index].append(elapsed)
        return times


# --- Command lines ----------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """argparse, with the scripts' conventions: -h prints the script's documentation, a
    usage error is one line on stderr and exit status 64."""

    def __init__(self, script, doc):
        super().__init__(prog=script.name, add_help=False, allow_abbrev=False)
        self.script, self.doc = script, doc
        self.add_argument("-h", "--help", action="store_true")

    def error(self, message):
        self.script.usage_error(f"{message} (see --help)")

    def parse_args(self, args=None, namespace=None):
        options = super().parse_args(args, namespace)
        if options.help:
            print(self.doc.strip("\n"))
            raise SystemExit(0)
        return options


def parser(script, doc):
    return _Parser(script, doc)


def positive(text):
    """A positive integer argument."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a positive integer: {text!r}")
    return int(text)


def standard_options(parser, runs, build=True, keep=True, cache=False):
    """The options most of the scripts take."""
    parser.add_argument("-r", "--runs", type=positive, default=runs)
    if cache:
        parser.add_argument("--cache", default=str(DEFAULT_CACHE))
    if build:
        parser.add_argument("--build", action="store_true")
    if keep:
        parser.add_argument("--keep", action="store_true")
    parser.add_argument("--strict", action="store_true")


def cache_folder(path):
    os.makedirs(path, exist_ok=True)
    return os.path.realpath(path)


# --- Reporting --------------------------------------------------------------------------------


def load():
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def verdict(ok):
    return "PASS" if ok else "FAIL"


# --- Stores ---------------------------------------------------------------------------------


def sqlite_value(script, store, sql):
    """What the sqlite3 CLI prints for `sql` on `store`, stripped."""
    out = subprocess.run(["sqlite3", store, sql], capture_output=True, text=True)
    if out.returncode != 0:
        script.fail(f"sqlite3 failed on {store}: {out.stderr.strip()}")
    return out.stdout.strip()


def seed_rounds(script, work, runs, count, sides, keep, after_first=None):
    """Runs two commands that each fill a store with `count` ties, in turn, for `runs`
    rounds, each round in a folder of its own (run-N in `work`, removed after unless `keep`).

    `sides` is [(name, make)] in the order they run, `make(folder)` giving a side's argv and
    the SQLite file it fills, which must then hold `count` rows in bowTie.
    `after_first(paths)` looks at the first round's files, by side. Prints each round;
    returns each side's wall times and peak RSS, by name."""
    times = {name: [] for name, _ in sides}
    memory = {name: [] for name, _ in sides}
    for run in range(1, runs + 1):
        folder = os.path.join(work, f"run-{run}")
        os.mkdir(folder)
        paths = {}
        for name, make in sides:
            argv, path = make(folder)
            wall, rss = script.timed_with_rss(argv, log=os.path.join(folder, f"{name}.log"))
            try:
                rows = sqlite_value(script, path, "SELECT count(*) FROM bowTie")
            except SystemExit as error:
                rows = f"nothing readable ({error})"
            if rows != str(count):
                script.fail(f"FAIL: the {name} store {path} holds {rows} ties, not {count}")
            times[name].append(wall)
            memory[name].append(rss)
            paths[name] = path
        if run == 1 and after_first:
            after_first(paths)
        (first, _), (second, _) = sides
        print(f"  run {run}: {first} {times[first][-1]:7.2f} s {memory[first][-1]:6.0f} MB   "
              f"{second} {times[second][-1]:7.2f} s {memory[second][-1]:6.0f} MB   "
              f"ratio {times[second][-1] / times[first][-1]:.2f}", flush=True)
        if not keep:
            shutil.rmtree(folder)  # a store of a million ties is hundreds of MB
    return times, memory


def generate_plist(path, count):
    """N ties in SampleData.plist's format (no imageName; keys sorted as Apple writes them;
    every tie its own color, name and search key K0…), seeded, so the same bytes every
    time."""
    rng = random.Random(20261121)
    colors = rng.sample(range(1 << 24), count)  # distinct per tie
    width = max(6, len(str(count - 1)))
    epoch = datetime(2020, 1, 1, tzinfo=timezone.utc)
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                  '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
                  '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
                  '<plist version="1.0">\n<array>\n')
        for i in range(count):
            tie_id = str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper()
            # Six years from 2020, all before 2026: seed refuses a wear after today.
            worn = (epoch + timedelta(seconds=rng.randrange(6 * 365 * 86400))).strftime(
                "%Y-%m-%dT%H:%M:%SZ")
            color = colors[i]
            out.write(
                "\t<dict>\n"
                f"\t\t<key>id</key>\n\t\t<string>{tie_id}</string>\n"
                f"\t\t<key>isFavorite</key>\n\t\t<{'true' if rng.random() < 0.2 else 'false'}/>\n"
                f"\t\t<key>lastWorn</key>\n\t\t<date>{worn}</date>\n"
                f"\t\t<key>name</key>\n\t\t<string>Bow Tie {i:0{width}d}</string>\n"
                f"\t\t<key>rating</key>\n\t\t<real>{rng.randrange(11) / 2}</real>\n"
                f"\t\t<key>searchKey</key>\n\t\t<string>K{i}</string>\n"
                f"\t\t<key>timesWorn</key>\n\t\t<integer>{rng.randrange(200)}</integer>\n"
                "\t\t<key>tintColor</key>\n\t\t<dict>\n"
                f"\t\t\t<key>blue</key>\n\t\t\t<integer>{color & 0xFF}</integer>\n"
                f"\t\t\t<key>green</key>\n\t\t\t<integer>{(color >> 8) & 0xFF}</integer>\n"
                f"\t\t\t<key>red</key>\n\t\t\t<integer>{color >> 16}</integer>\n"
                "\t\t</dict>\n"
                f"\t\t<key>url</key>\n\t\t<string>https://example.com/ties/{i}</string>\n"
                "\t</dict>\n")
        out.write("</array>\n</plist>\n")


# The generated report store's recipe, on SQLite (scripts/bench-report) and PostgreSQL
# (scripts/bench-pg): K0…K(N-1), one in ten never worn, one in five a favorite, ratings 0
# to 5 in halves, the seven sample colors, M wears spread over three years before AS_OF.
AS_OF = "2026-11-21"
THREE_YEARS = 3 * 365 * 86400
RECIPE_END = int(datetime(2026, 11, 21, tzinfo=timezone.utc).timestamp())


TIE_ID = "printf('%08X-0000-4000-8000-%012X', {0}, {0})"


def generated_ties_sql(ties, worn="0"):
    """The statements that replace a new store's sample ties with `ties` generated ones
    (K0…K(N-1), Bow Tie 0000000…, one in five a favorite, ratings 0 to 5 in halves, the
    seven sample colors), each worn `worn` times before its history (an SQL expression of
    i), inside the caller's transaction. Shared by the report and browse stores."""
    return f"""
CREATE TEMP TABLE sampleColor (n INTEGER PRIMARY KEY, archive BLOB NOT NULL);
INSERT INTO sampleColor (n, archive)
  SELECT row_number() OVER (ORDER BY id) - 1, tintColor FROM bowTie WHERE tintColor IS NOT NULL;
DELETE FROM undoEntry;
DELETE FROM wearEvent;
DELETE FROM bowTie;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {ties - 1})
INSERT INTO bowTie (id, name, canonicalName, searchKey, canonicalKey, rating, timesWorn,
    lastWorn, isFavorite, url, tintColor, wearsBeforeHistory)
  SELECT {TIE_ID.format("i")}, printf('Bow Tie %07d', i), printf('bow tie %07d', i),
    'K' || i, 'k' || i, ((i * 7) % 11) / 2.0, {worn}, NULL, i % 5 = 0,
    'https://example.com/ties/' || i, (SELECT archive FROM sampleColor WHERE n = i % 7), {worn}
  FROM n;"""


def wear_tie_sql(ties):
    """Which tie event j goes to: (j × 2654435761) mod N, a bijection over each run of N
    events (the multiplier is odd and not a multiple of 5), moved on by one from the
    never-worn ties (every tenth)."""
    tie_of = f"((j * 2654435761) % {ties})"
    return f"(CASE WHEN {tie_of} % 10 = 0 THEN {tie_of} + 1 ELSE {tie_of} END)"


# The order bowties lists ties in (R O Y G B I V, then by name).
APP_ORDER = ("CASE upper(searchKey) WHEN 'R' THEN 0 WHEN 'O' THEN 1 WHEN 'Y' THEN 2 "
             "WHEN 'G' THEN 3 WHEN 'B' THEN 4 WHEN 'I' THEN 5 WHEN 'V' THEN 6 ELSE 7 END, "
             "canonicalName, canonicalKey")
