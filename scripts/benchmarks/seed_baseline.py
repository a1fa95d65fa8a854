"""scripts/bench-seed's yardstick: a plain Python script loading a seed plist with plistlib
and storing it with sqlite3's executemany in one commit.

Usage: python3 seed_baseline.py PLIST DB
"""

import plistlib
import sqlite3
import sys


def rows(ties):
    for t in ties:
        c = t["tintColor"]
        worn = t.get("lastWorn")
        yield (t["id"], t["name"], t["searchKey"], t["rating"], t.get("timesWorn", 0),
               worn.strftime("%Y-%m-%dT%H:%M:%S.000Z") if worn else None,
               int(t.get("isFavorite", False)), t.get("url"),
               bytes((c["red"], c["green"], c["blue"])))


def main():
    plist_path, db_path = sys.argv[1], sys.argv[2]
    with open(plist_path, "rb") as f:
        ties = plistlib.load(f)
    db = sqlite3.connect(db_path)
    db.execute("""CREATE TABLE bowTie (
      id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, searchKey TEXT NOT NULL UNIQUE,
      rating REAL NOT NULL, timesWorn INTEGER NOT NULL, lastWorn TEXT,
      isFavorite INTEGER NOT NULL, url TEXT, tintColor BLOB)""")
    db.executemany("INSERT INTO bowTie VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows(ties))
    db.commit()
    db.close()


if __name__ == "__main__":
    main()
