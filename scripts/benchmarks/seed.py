#!/usr/bin/env python3
"""Scripted-seeding benchmark: how long `bowties seed` takes to load N ties from an XML
plist, against a plain Python script doing the same job (plistlib.load, then sqlite3
executemany into an equivalent table with a 3-byte color blob, one commit).

Usage: scripts/bench-seed [options] [COUNT [BOWTIES]]

  COUNT        ties to generate and seed (default 100000)
  BOWTIES      the bowties binary (default: .build-release/release/bowties in the repo root)
  -r, --runs R run each side R times, alternating, and report medians (default 3)
  --build      first build the binary with scripts/build-release (fully static, as
               shipped; without it, nothing is built)
  --keep       keep the temporary folder (seed plist, stores, logs) and print its path
  --strict     exit 2 when a target is missed (default: exit 0 once every run worked)
  -h, --help   show this help

It writes a deterministic seed plist in SampleData.plist's format (no imageName; every
tie has its own color, name and search key) into a temporary folder, then alternates
the two runs, each as a whole process timed by wall clock with its peak RSS from
/usr/bin/time (apt-get install -y time):
  python   python3 baseline.py PLIST DB      a fresh DB file each run
  bowties  bowties seed PLIST --store STORE  a store that does not exist yet, stderr
                                            to a file (not a terminal)
After each bowties run the store must hold COUNT rows in bowTie (checked with sqlite3;
apt-get install -y sqlite3). It prints the medians and PASS/FAIL against the targets:
bowties/python <= 0.5 and bowties peak RSS < 500 MB.

Exit status: 0 when every run worked, 1 when a run failed or a store did not hold COUNT
ties, 2 with --strict when a target was missed, 64 for bad arguments.
"""

import os
import statistics
import sys
import time

import common

TARGET_RATIO, TARGET_RSS_MB = 0.5, 500
# The baseline, exactly as the issue describes it, run as its own process: plistlib.load,
# then sqlite3 executemany into an equivalent table with a 3-byte color blob, one commit.
BASELINE = os.path.join(os.path.dirname(os.path.realpath(__file__)), "seed_baseline.py")


def main():
    script = common.Script("bench-seed")
    parser = common.parser(script, __doc__)
    common.standard_options(parser, runs=3)
    parser.add_argument("count", nargs="?", type=common.positive, default=100000)
    parser.add_argument("bowties", nargs="?")
    options = parser.parse_args()
    count, runs = options.count, options.runs
    bowties = script.binary(options.bowties, options.build)
    script.require("python3", "sqlite3", "/usr/bin/time")
    work = script.make_work(options.keep)
    script.env = dict(os.environ)

    plist = os.path.join(work, f"seed-{count}.plist")
    start = time.perf_counter()
    common.generate_plist(plist, count)
    print(f"bench-seed: {count} ties, {os.path.getsize(plist) / 1e6:.1f} MB plist "
          f"(generated in {time.perf_counter() - start:.1f} s), {runs} alternating run(s) each; "
          f"bowties: {bowties}", flush=True)

    def python(folder):
        db = os.path.join(folder, "python.sqlite")
        return [sys.executable, BASELINE, plist, db], db

    def seed(folder):
        store = os.path.join(folder, "store", "BowTies.sqlite")
        return [bowties, "seed", plist, "--store", store], store

    times, memory = common.seed_rounds(script, work, runs, count,
                                       [("python", python), ("bowties", seed)], options.keep)
    py_times, py_rss, bt_times, bt_rss = (times["python"], memory["python"],
                                          times["bowties"], memory["bowties"])

    py_t, bt_t = statistics.median(py_times), statistics.median(bt_times)
    py_m, bt_m = statistics.median(py_rss), statistics.median(bt_rss)
    ratio = bt_t / py_t
    ratio_ok, rss_ok = ratio <= TARGET_RATIO, bt_m < TARGET_RSS_MB
    verdict = common.verdict
    print(f"\nmedians of {runs} run(s), N = {count}")
    print(f"  {'':21}{'seconds':>8}{'peak RSS':>11}{'µs/tie':>9}")
    print(f"  {'python (plistlib)':21}{py_t:8.2f}{py_m:8.0f} MB{py_t / count * 1e6:9.1f}")
    print(f"  {'bowties seed':21}{bt_t:8.2f}{bt_m:8.0f} MB{bt_t / count * 1e6:9.1f}")
    print(f"  {'ratio bowties/python':21}{ratio:8.2f}{'':11}{'':9}   "
          f"target <= {TARGET_RATIO:<5}    {verdict(ratio_ok)}")
    print(f"  {'bowties peak RSS':21}{'':8}{bt_m:8.0f} MB{'':9}   "
          f"target < {TARGET_RSS_MB} MB  {verdict(rss_ok)}")
    print(f"  {'bowTie rows':21}{count:8d}{'':20}   every run        PASS")
    if options.strict and not (ratio_ok and rss_ok):
        sys.exit(2)


if __name__ == "__main__":
    main()
