#!/usr/bin/env python3
"""Crash test: seed COUNT ties (every 500th with a photo above 128 KiB, a real JPEG that
the seed decodes, so external photo files are being written too) into a store that already
holds the sample ties, and `kill -9` the seed at a chosen moment, KILLS times. After each
kill:
  - PRAGMA integrity_check is ok;
  - the store holds either none of the seed (7 ties) or all of it (7 + COUNT), and which
    one agrees with where the kill fell (below);
  - every photo file in _EXTERNAL_DATA is referenced once the next command (`bowties
    list`) has run, since that open sweeps what a killed transaction wrote, and `bowties
    doctor` then reports the store healthy.

With --new, each seed creates its store instead (built under a temporary name, then
linked into place): after a kill the store is all of the seed or absent; the next
command creates it and must remove the half-built file and any photo files the killed
build wrote.

Usage: scripts/crash-test [-k KILLS] [--new] [COUNT [BOWTIES]]
  KILLS   kills (default 20)          COUNT   ties per seed (default 100000)
  BOWTIES the binary (default .build-release/release/bowties)

Where each kill falls. The seed is stopped (SIGSTOP) at the chosen moment and, while it
cannot run, the script looks at what it has done, then kills it (SIGKILL): what is seen is
what the kill leaves. Nothing is added to the binary for this; the evidence is what the
kernel and SQLite's files show:
  - the write lock: SQLite takes a POSIX lock, seen in /proc/locks, for a write
    transaction: in WAL mode byte 120 of the store's -shm file (WAL_WRITE_LOCK); building
    a new store (--new, rollback journal) the RESERVED byte or the SHARED range of the
    file being built;
  - the commit: the -wal file's frames that carry the header's salts (those of this log),
    and among them a commit frame (one whose "database size after commit" is not 0);
    with --new, the store's name linked into place;
  - the last row written: stderr is a pseudo-terminal, so the seed draws its progress bar,
    and clears it (ESC [2K) when its last entry is stored, just before it commits. The
    script reads everything the seed wrote before it was stopped.
From these, each kill fell:
  before the transaction  no write lock yet (reading the plist, decoding the photos,
                          opening the store), nothing committed;
  during the writes       the write lock held, the bar not yet cleared;
  during the commit       the bar cleared (every row written) but no commit frame yet,
                          the write lock still held (with --new: until the store is
                          linked into place, since the build's own commit is not the
                          store's: a kill before the link leaves no store);
  after the commit        a commit frame in the -wal, or the lock released after the
                          last row (with --new: the store linked into place), or the
                          seed had already exited.
A kill before or during the commit must leave none of the seed, after it all of it.

The kills are spread over those moments: a probe seed first times the phases here, then
kills cycle through aiming at the commit (stopped once as the bar is cleared, to see what
the files hold then, and again at a random moment within the probe's commit, a window
halved each time one lands after it; every other kill aims there until one lands), the
writes (when the bar shows a random share of the entries stored), before the transaction
(a random moment before the probe took the lock), after the commit (a random moment
after it is seen done), and anywhere. With 4 kills or more, at least one must land inside
the commit.

Exit status: 0 when every kill left the store sound, 1 otherwise, 64 for bad arguments.
"""

import math
import os
import plistlib
import random
import re
import select
import signal
import struct
import subprocess
import sys
import time
from typing import NamedTuple

import common
from common import ROOT, sqlite_value

PHASES = ("before the transaction", "during the writes", "during the commit",
          "after the commit")
BEFORE, WRITES, COMMIT, AFTER = PHASES
BAR_CLEARED = b"\x1b[2K"
PHOTO_EVERY = 500
# SQLite's lock bytes (os_unix.c, wal.c): in WAL mode the write lock is byte 120 of the
# -shm file; with a rollback journal, RESERVED is byte 0x40000001 of the database and
# EXCLUSIVE takes the SHARED range after it.
WAL_WRITE_LOCK = 120
RESERVED_BYTE, SHARED_FIRST, SHARED_SIZE = 0x40000001, 0x40000002, 510


def make_seed(script, work, count):
    """The seed plist and its photos (scripts/make-photo-fixtures.py --series)."""
    images = os.path.join(work, "images")
    photos = math.ceil(count / PHOTO_EVERY)
    subprocess.run([ROOT / "scripts" / "python", ROOT / "scripts" / "make-photo-fixtures.py",
                    "--series", images, str(photos)], check=True)
    rng = random.Random(2026)
    ties = []
    for i in range(count):
        tie = {"name": f"Crash Tie {i}", "searchKey": f"C{i}", "rating": rng.randrange(6),
               "tintColor": {"red": rng.randrange(256), "green": rng.randrange(256),
                             "blue": rng.randrange(256)}}
        if i % PHOTO_EVERY == 0:
            tie["imageName"] = f"photo{i // PHOTO_EVERY:05d}.jpg"
        ties.append(tie)
    path = os.path.join(work, "seed.plist")
    with open(path, "wb") as f:
        plistlib.dump(ties, f)
    return path


# --- Evidence -------------------------------------------------------------------------------


def file_id(path):
    """The major:minor:inode /proc/locks names a file by, or None."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    return f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"


def write_locks(pid):
    """{file id: [(start, end)]} of the POSIX write locks `pid` holds."""
    locks = {}
    with open("/proc/locks") as f:
        for line in f:
            fields = line.split()
            if "->" in fields:  # a lock waiting, not held
                continue
            if len(fields) >= 8 and fields[1] == "POSIX" and fields[3] == "WRITE" \
                    and fields[4] == str(pid):
                end = math.inf if fields[7] == "EOF" else int(fields[7])
                locks.setdefault(fields[5], []).append((int(fields[6]), end))
    return locks


def holds(ranges, first, last=None):
    last = first if last is None else last
    return any(start <= last and first <= end for start, end in ranges)


def build_files(store):
    """The files a store is being built in (--new), before it is linked into place."""
    folder, name = os.path.split(store)
    names = os.listdir(folder) if os.path.isdir(folder) else []
    return [os.path.join(folder, n) for n in names
            if n.startswith(f".{name}.new-") and not n.endswith(("-journal", "-wal", "-shm"))]


def size_if_present(path):
    """The file's size, or 0 once it is gone: a build file is unlinked when the seed links
    the store into place, which can fall between listing the folder and asking its size."""
    try:
        return os.path.getsize(path)
    except FileNotFoundError:
        return 0


def written(store, new):
    """What the seed has written into the store's files so far, in words."""
    if new:
        size = sum(size_if_present(path) for path in build_files(store))
        return f"build file {size:,} bytes"
    return f"{wal_frames(store + '-wal')[0]} WAL frames"


def wal_frames(path):
    """(frames, commit frames) of this log in a -wal file: those that carry the salts of
    its header (a frame from before the log was last restarted carries older ones)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return 0, 0
    if len(data) < 32:
        return 0, 0
    page_size = struct.unpack(">I", data[8:12])[0]
    salts = data[16:24]
    frames = commits = 0
    at = 32
    while at + 24 + page_size <= len(data):
        header = data[at:at + 24]
        if header[8:16] != salts:
            break
        frames += 1
        if struct.unpack(">I", header[4:8])[0] != 0:
            commits += 1
        at += 24 + page_size
    return frames, commits


class Seed:
    """One seed, its stderr on a pseudo-terminal, stopped and killed on demand."""

    def __init__(self, script, bowties, plist, store):
        self.store = store
        master, slave = os.openpty()
        self.master = master
        env = dict(script.env, TERM="xterm")
        self.process = subprocess.Popen([bowties, "seed", plist, "--store", store], env=env,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=slave, close_fds=True)
        os.close(slave)
        self.start = time.monotonic()
        self.output = b""
        self.cleared_at = None  # seconds after the start at which the bar was seen cleared
        self.exited = False

    def elapsed(self):
        return time.monotonic() - self.start

    def read(self, timeout):
        """Reads what the seed wrote, waiting at most `timeout` seconds for it."""
        ready, _, _ = select.select([self.master], [], [], max(0, timeout))
        if not ready:
            return
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # EIO: every copy of the terminal's other side is closed
            chunk = b""
        if not chunk:
            time.sleep(max(0, timeout))
            return
        self.output += chunk
        if self.cleared_at is None and BAR_CLEARED in self.output:
            self.cleared_at = self.elapsed()

    def progress(self):
        """The share of the entries stored, as the bar last showed it (0 before it)."""
        shown = re.findall(rb" (\d+)/(\d+) \d+%", self.output[-200:])
        return int(shown[-1][0]) / int(shown[-1][1]) if shown else 0

    def wait_until(self, moment=None, after_cleared=None, progress=None, check=None):
        """Lets the seed run until `moment` seconds after its start, `after_cleared`
        seconds after the bar is cleared, the bar shows `progress` (a share), or `check()`
        holds; or until it exits."""
        while self.process.poll() is None:
            if progress is not None or check is not None:
                if (progress is not None and self.progress() >= progress) or \
                        (check is not None and check()):
                    return
                self.read(0.001)
            elif after_cleared is not None and self.cleared_at is not None:
                left = self.cleared_at + after_cleared - self.elapsed()
                if left <= 0:
                    return
                if left < 0.002:  # closer than select's wake-up: spin
                    while self.elapsed() < self.cleared_at + after_cleared:
                        pass
                    return
                self.read(min(left, 0.001))
            elif moment is not None:
                left = moment - self.elapsed()
                if left <= 0:
                    return
                self.read(min(left, 0.01))
            else:
                self.read(0.01)

    def stop(self):
        """SIGSTOP, and waits until it is stopped; False when it had exited already."""
        if self.process.poll() is not None:
            self.exited = True
            return False
        os.kill(self.process.pid, signal.SIGSTOP)
        _, status = os.waitpid(self.process.pid, os.WUNTRACED)
        if not os.WIFSTOPPED(status):
            self.process.returncode = os.waitstatus_to_exitcode(status)
            self.exited = True
            return False
        # Everything it wrote before it stopped.
        while select.select([self.master], [], [], 0)[0]:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                break
            if not chunk:
                break
            self.output += chunk
        if self.cleared_at is None and BAR_CLEARED in self.output:
            self.cleared_at = self.elapsed()
        return True

    def kill(self):
        if not self.exited and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()
        os.close(self.master)


def where(seed, new):
    """Where a stopped seed is (PHASES), and the evidence, from the locks it holds and the
    store's files."""
    cleared = BAR_CLEARED in seed.output
    if seed.exited:
        return AFTER, f"the seed had exited ({seed.process.returncode})"
    locks = write_locks(seed.process.pid)
    if new:
        if os.path.exists(seed.store):
            return AFTER, "store linked into place"
        builds = build_files(seed.store)
        locked = any(holds(locks.get(file_id(path), []), RESERVED_BYTE)
                     or holds(locks.get(file_id(path), []), SHARED_FIRST,
                              SHARED_FIRST + SHARED_SIZE - 1) for path in builds)
        evidence = (f"{written(seed.store, new)}, "
                    f"{'locked for writing' if locked else 'not locked for writing'}"
                    if builds else "no build file")
        if cleared:
            # A new store's commit ends when its file is linked into place.
            return COMMIT, evidence + ", bar cleared, store not linked yet"
        return (WRITES if locked else BEFORE), evidence
    locked = holds(locks.get(file_id(seed.store + "-shm"), []), WAL_WRITE_LOCK)
    frames, commits = wal_frames(seed.store + "-wal")
    evidence = (f"write lock {'held' if locked else 'not held'}, {frames} WAL frames"
                f"{f', {commits} commit' if commits else ''}{', bar cleared' if cleared else ''}")
    if commits or (cleared and not locked):
        return AFTER, evidence
    if cleared:
        return COMMIT, evidence
    return (WRITES if locked else BEFORE), evidence


# --- The test -------------------------------------------------------------------------------


class Timeline(NamedTuple):
    """Seconds from a probe seed's start: the write lock first held, the last row written,
    the commit seen done, the exit."""
    locked: float
    cleared: float
    committed: float
    total: float


class CrashTest:
    def __init__(self, script, bowties, plist, count, new):
        self.script, self.bowties, self.plist, self.count, self.new = (
            script, bowties, plist, count, new)

    def bowties_quietly(self, *args):
        return subprocess.run([self.bowties, *args], env=self.script.env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True)

    def probe(self):
        """One whole seed, watched: when the write lock was first held, when the bar was
        cleared (every row written), when the commit was seen done, when it exited."""
        store = os.path.join(self.script.work, "probe", "B.sqlite")
        if not self.new:
            self.bowties_quietly("list", "--store", store)
        seed = Seed(self.script, self.bowties, self.plist, store)
        locked_at = committed_at = None
        while seed.process.poll() is None:
            seed.read(0.001)
            if committed_at is None:
                phase = where(seed, self.new)[0]
                if locked_at is None and phase != BEFORE:
                    locked_at = seed.elapsed()
                if phase == AFTER:
                    committed_at = seed.elapsed()
        total = seed.elapsed()
        seed.kill()
        if seed.process.returncode != 0:
            self.script.fail(f"the probe seed failed (exit {seed.process.returncode}): "
                             f"{seed.output.decode(errors='replace')[-1000:]}")
        if seed.cleared_at is None:
            self.script.fail("the probe seed drew no progress bar on a terminal")
        return Timeline(locked_at or seed.cleared_at / 2, seed.cleared_at,
                        committed_at or total, total)

    def one_kill(self, number, aim, timeline, commit_window):
        """Stops, looks, kills; returns (phase, evidence, moment)."""
        folder = os.path.join(self.script.work, f"run{number}")
        store = os.path.join(folder, "B.sqlite")
        if not self.new:
            self.bowties_quietly("list", "--store", store)
        seed = Seed(self.script, self.bowties, self.plist, store)
        before = ""
        if aim == COMMIT:
            # Stopped once as the last row is written, to see what the log holds then, and
            # again a moment into the commit.
            seed.wait_until(after_cleared=0)
            if seed.stop():
                before = f"{written(store, self.new)} at the last row; "
                os.kill(seed.process.pid, signal.SIGCONT)
                seed.wait_until(after_cleared=random.uniform(0, commit_window))
        elif aim == WRITES:
            seed.wait_until(progress=random.uniform(0.02, 0.98))
        elif aim == AFTER:
            seed.wait_until(check=lambda: where(seed, self.new)[0] == AFTER)
            seed.wait_until(moment=seed.elapsed() + random.uniform(
                0, max(0, timeline.total - timeline.committed)))
        else:
            high = timeline.locked * 0.9 if aim == BEFORE else timeline.total * 1.05
            seed.wait_until(moment=random.uniform(0.05, max(0.05, high)))
        moment = seed.elapsed()
        seed.stop()
        phase, evidence = where(seed, self.new)
        seed.kill()
        return phase, before + evidence, moment

    def check_store(self, number):
        """The store after a kill: (ties, problems, line)."""
        script = self.script
        folder = os.path.join(script.work, f"run{number}")
        store = os.path.join(folder, "B.sqlite")
        external = os.path.join(folder, ".B_SUPPORT", "_EXTERNAL_DATA")

        def photo_files():
            return len(os.listdir(external)) if os.path.isdir(external) else 0

        def half_built():
            names = os.listdir(folder) if os.path.isdir(folder) else []
            return sum(1 for n in names if n.startswith(".B.sqlite.new-"))
        # Counted before anything opens the store: files a killed transaction left behind.
        left = photo_files()
        base = 7
        extra = ""
        if self.new:
            # A new store is all of the seed or not there at all; then the next command
            # creates it (with the sample ties) and must sweep what the killed build left.
            base = 0
            builds = half_built()
            if not os.path.exists(store):
                base = 7
        # The user's next command: it opens the store (creating it, with --new, when the
        # kill left none), which sweeps the photo files of a killed transaction. doctor
        # alone would not: it only reads, and reports them.
        after = self.bowties_quietly("list", "--store", store)
        if after.returncode != 0:
            script.fail(f"bowties list after kill {number} exited {after.returncode}: "
                        f"{after.stderr.strip()}")
        integrity = sqlite_value(script, store, "PRAGMA integrity_check")
        ties = int(sqlite_value(script, store, "SELECT count(*) FROM bowTie"))
        doctor = self.bowties_quietly("doctor", "--store", store)
        leftover = half_built()
        files = photo_files()
        referenced = int(sqlite_value(script, store, "SELECT count(DISTINCT photoFile) FROM "
                                                     "bowTie WHERE photoFile IS NOT NULL"))
        problems = []
        if integrity != "ok":
            problems.append(f"integrity_check: {integrity}")
        if ties not in (7, base + self.count):
            problems.append(f"{ties} ties: neither none nor all of the seed")
        if doctor.returncode != 0:
            problems.append("doctor: " + (doctor.stdout + doctor.stderr).strip())
        if files != referenced:
            problems.append(f"{files} photo files, {referenced} referenced")
        if leftover:
            problems.append(f"{leftover} half-built stores left")
        if self.new:
            extra = f", half-built stores {builds} left, {leftover} after"
        line = (f"integrity {integrity}, {ties:7} ties, photo files {left:3} left, {files:3} "
                f"after the next command ({referenced} referenced){extra}, doctor "
                f"{'yes' if doctor.returncode == 0 else 'no'}")
        return ties, base, problems, line


def main():
    script = common.Script("crash-test")
    parser = common.parser(script, __doc__)
    parser.add_argument("-k", type=common.positive, default=20, dest="kills")
    parser.add_argument("--new", action="store_true")
    parser.add_argument("count", nargs="?", type=common.positive, default=100000)
    parser.add_argument("bowties", nargs="?")
    options = parser.parse_args()
    bowties = script.binary(options.bowties)
    script.require("sqlite3")
    work = script.make_work()
    script.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": work, "LANG": "C",
                  "TZ": "UTC"}
    plist = make_seed(script, work, options.count)
    test = CrashTest(script, bowties, plist, options.count, options.new)
    timeline = test.probe()
    print(f"crash-test: a whole seed of {options.count} ties takes {timeline.total:.2f}s here "
          f"(write lock from {timeline.locked:.3f}s, last row at {timeline.cleared:.3f}s, "
          f"committed by {timeline.committed:.3f}s); {options.kills} kills",
          file=sys.stderr, flush=True)

    aims = [COMMIT, WRITES, BEFORE, AFTER, "anywhere"]
    # How far into the commit a kill aimed at it may fall; halved after each that lands
    # after it.
    commit_window = max(0.0005, timeline.committed - timeline.cleared)
    failures, none, whole = 0, 0, 0
    fell = {phase: 0 for phase in PHASES}
    for number in range(1, options.kills + 1):
        # Until one has landed inside the commit, every other kill aims at it.
        aim = COMMIT if fell[COMMIT] == 0 and number % 2 else aims[(number - 1) % len(aims)]
        phase, evidence, moment = test.one_kill(number, aim, timeline, commit_window)
        if aim == COMMIT and phase == AFTER:
            commit_window /= 2
        fell[phase] += 1
        ties, base, problems, line = test.check_store(number)
        all_of_it = ties == base + options.count
        if all_of_it != (phase == AFTER):
            problems.append(f"a kill {phase} left {'all' if all_of_it else 'none'} of the seed")
        none += ties == 7
        whole += all_of_it
        failures += bool(problems)
        print(f"  kill {number:2} at {moment:6.3f}s, {phase} ({evidence}): {line}: "
              f"{'FAIL' if problems else 'ok'}", flush=True)
        for problem in problems:
            print(f"      {problem}")
        subprocess.run(["rm", "-rf", os.path.join(work, f"run{number}")], check=True)
    print(f"crash-test: {options.kills} kills: {none} left none of the seed, {whole} all of "
          f"it, {failures} failures; "
          + ", ".join(f"{count} {phase}" for phase, count in fell.items()))
    if options.kills >= 4 and fell[COMMIT] == 0:
        print("crash-test: FAIL: no kill landed inside the commit")
        failures += 1
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
