#!/usr/bin/env python3
"""How long `show` takes on a 12-megapixel phone JPEG, against `show` on a sample tie.

Usage: scripts/bench-photo [-r RUNS] [BOWTIES]

  BOWTIES      the bowties binary (default: the shipped build, .build-release/release/
               bowties in the repo root, where scripts/build-release puts it)
  -r RUNS      timed runs of each command (default 41)

Makes a 4032x3024 JPEG of about 4.8 MB with EXIF orientation 6, as a phone held upright
writes it (scripts/make-photo-fixtures.py --phone, run by scripts/python), in a new store
beside the seven sample ties, where it is stored outside the database (above 128 KiB), as
such a photo is. Then, with COLUMNS=100 and stdout to /dev/null, runs in alternation,
flipping which goes first every round, after two untimed rounds:

  sample       bowties show R --image always      (the red sample tie: a 128x128 PNG)
  phone        bowties show P --image always      (the phone JPEG, in truecolor half-blocks)
  phone-sixel  the same with BOWTIES_IMAGE_PROTOCOL=sixel (10x20-pixel cells: a larger decode)
  phone-json   bowties show P --json              (no photo read or decoded: the floor)

Each run is one process, timed by wall clock from spawn to exit; its peak RSS comes from
wait4. Prints the median, 10th and 90th percentile of each, and the medians' ratio to
`sample`. Also prints how long `add --photo` took for the phone JPEG (decoded whole once,
a row at a time, on its way in), once.
"""

import statistics
import subprocess

import common
from common import ROOT


def main():
    script = common.Script("bench-photo")
    parser = common.parser(script, __doc__)
    parser.add_argument("-r", type=common.positive, default=41, dest="runs")
    parser.add_argument("bowties", nargs="?")
    options = parser.parse_args()
    binary = script.binary(options.bowties)
    folder = script.make_work(prefix="bowties-bench-photo")
    phone = f"{folder}/phone.jpg"
    subprocess.run([ROOT / "scripts/python", ROOT / "scripts/make-photo-fixtures.py", "--phone",
                    phone], check=True)
    store = f"{folder}/BowTies.sqlite"
    env = {"PATH": "/usr/bin:/bin", "HOME": folder, "LANG": "C", "TZ": "UTC", "COLUMNS": "100"}
    script.spawn_timed([binary, "show", "R", "--store", store], env)
    added, added_rss = script.spawn_measured(
        [binary, "add", "--name", "Phone Bow Tie", "--key", "P", "--photo", phone,
         "--store", store], env)
    commands = {
        "sample": ([binary, "show", "R", "--image", "always", "--store", store], env),
        "phone": ([binary, "show", "P", "--image", "always", "--store", store], env),
        "phone-sixel": ([binary, "show", "P", "--image", "always", "--store", store],
                        {**env, "BOWTIES_IMAGE_PROTOCOL": "sixel"}),
        "phone-json": ([binary, "show", "P", "--json", "--store", store], env),
    }
    times = {name: [] for name in commands}
    memory = {name: [] for name in commands}
    for round in range(options.runs + 2):
        order = list(commands) if round % 2 == 0 else list(reversed(commands))
        for name in order:
            elapsed, rss = script.spawn_measured(*commands[name])
            if round >= 2:
                times[name].append(elapsed * 1e3)
                memory[name].append(rss)
    size = len(open(phone, "rb").read())
    print(f"photo: {size:,} bytes, 4032x3024, EXIF orientation 6")
    print(f"add --photo (once): {added * 1e3:.1f} ms, peak RSS {added_rss:.1f} MB")
    print()
    print("| command | runs | median | p10 | p90 | ratio to sample | peak RSS |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    base = statistics.median(times["sample"])
    for name in commands:
        values = sorted(times[name])
        median = statistics.median(values)
        p10 = values[len(values) // 10]
        p90 = values[len(values) * 9 // 10]
        print(f"| {name} | {len(values)} | {median:.2f} ms | {p10:.2f} ms | {p90:.2f} ms "
              f"| {median / base:.2f} | {statistics.median(memory[name]):.1f} MB |")


if __name__ == "__main__":
    main()
