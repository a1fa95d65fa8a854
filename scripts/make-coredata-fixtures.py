#!/usr/bin/env python3
"""Writes Tests/Fixtures/CoreData/: SQLite stores laid out as the BowTies app's Core Data
store is, built from public descriptions of the format (no Core Data runs here). The
README.md it writes there says which description each detail follows.

Usage: scripts/make-coredata-fixtures.py [--output DIR] [--check]

  --output DIR  write there instead of Tests/Fixtures/CoreData/
  --check       write into a temporary folder and compare with the tracked fixtures; exit
                1 on a difference. A store is compared by its rows, twice: the main file
                alone, and with its -wal (SQLite writes random salts into a -wal, and its
                version into the main file's header, so their bytes differ from run to
                run and machine to machine). Every other file is compared byte for byte,
                a link by where it points, and the set of files must be the same.

Python's standard library only (sqlite3, plistlib). The photos are the sample ties' PNGs
in images/; the colour archives come from scripts/make-color-archives.py.
"""

import argparse
import datetime
import filecmp
import importlib.util
import os
import plistlib
import shutil
import sqlite3
import sys
import tempfile
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "CoreData")
REFERENCE_DATE = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)


def color_archives():
    """scripts/make-color-archives.py, as a module: the keyed archives UIKit and AppKit
    write for a colour, from their public descriptions."""
    spec = importlib.util.spec_from_file_location(
        "color_archives", os.path.join(ROOT, "scripts", "make-color-archives.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The model of the book's later editions (BowTies.xcdatamodeld: entity BowTie), one column
# per attribute after Core Data's own three, each declared as Core Data declares its
# attribute's kind: Boolean and Integer 32 INTEGER, Date TIMESTAMP, Double FLOAT, String
# and URI VARCHAR, UUID, Binary and Transformable BLOB.
MODEL = [
    ("ZISFAVORITE", "INTEGER"), ("ZTIMESWORN", "INTEGER"), ("ZLASTWORN", "TIMESTAMP"),
    ("ZRATING", "FLOAT"), ("ZNAME", "VARCHAR"), ("ZSEARCHKEY", "VARCHAR"), ("ZURL", "VARCHAR"),
    ("ZID", "BLOB"), ("ZPHOTODATA", "BLOB"), ("ZTINTCOLOR", "BLOB"),
]
# The earlier editions' model (Bow_Ties.xcdatamodeld: entity Bowtie): no id, no url.
OLDER_MODEL = [column for column in MODEL if column[0] not in ("ZID", "ZURL")]


def metadata_plist(store_uuid, entities):
    """Z_METADATA's Z_PLIST: a binary plist naming the store's type and UUID, with a
    version hash per entity. The hashes are made up (32 zero bytes): they depend on the
    app's exact model, and bowties does not check them."""
    return plistlib.dumps({
        "NSPersistenceFrameworkVersion": 1338,
        "NSStoreModelVersionHashes": {name: bytes(32) for name in entities},
        "NSStoreModelVersionHashesVersion": 3,
        "NSStoreModelVersionIdentifiers": [""],
        "NSStoreType": "SQLite",
        "NSStoreUUID": store_uuid,
    }, fmt=plistlib.FMT_BINARY, sort_keys=True)


class Store:
    """A Core Data store being written: Core Data's own tables, then one table per
    entity, Z<ENTITY> with Z_PK, Z_ENT and Z_OPT first."""

    def __init__(self, path, entities=(("BowTie", MODEL),), wal=False, number=1):
        self.path = path
        self.numbers = {}
        self.connection = sqlite3.connect(path, isolation_level=None)
        if wal:
            # A running app's store: WAL, and nothing moved into the main file until the
            # script says so.
            self.connection.execute("PRAGMA journal_mode = WAL")
            self.connection.execute("PRAGMA wal_autocheckpoint = 0")
        store_uuid = str(uuid.UUID(int=(0xB0771E5 << 96) | number)).upper()
        with self.connection:
            self.connection.execute("BEGIN")
            self.connection.execute(
                "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, "
                "Z_SUPER INTEGER, Z_MAX INTEGER)")
            self.connection.execute(
                "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, "
                "Z_UUID VARCHAR(255), Z_PLIST BLOB)")
            self.connection.execute("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
            for entity_number, (name, columns) in enumerate(entities, start=1):
                self.numbers[name.upper()] = entity_number
                self.connection.execute(
                    "INSERT INTO Z_PRIMARYKEY VALUES (?, ?, 0, 0)", (entity_number, name))
                definition = "".join(f", {column} {kind}" for column, kind in columns)
                self.connection.execute(
                    f"CREATE TABLE Z{name.upper()} (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, "
                    f"Z_OPT INTEGER{definition})")
            self.connection.execute(
                "INSERT INTO Z_METADATA VALUES (1, ?, ?)",
                (store_uuid, metadata_plist(store_uuid, [name for name, _ in entities])))

    def insert(self, key, values, entity="BOWTIE"):
        """One row, `values` by column name, and Z_PRIMARYKEY's Z_MAX with it, in one
        transaction, as Core Data saves."""
        number = self.numbers[entity]
        names = ["Z_PK", "Z_ENT", "Z_OPT"] + list(values)
        with self.connection:
            self.connection.execute("BEGIN")
            self.connection.execute(
                f"INSERT INTO Z{entity} ({', '.join(names)}) "
                f"VALUES ({', '.join('?' * len(names))})",
                [key, number, 1] + list(values.values()))
            self.connection.execute(
                "UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, ?) WHERE Z_ENT = ?", (key, number))

    def update(self, key, values, entity="BOWTIE"):
        """A later save of a row: its values, and Z_OPT, its version, one up."""
        assignments = "".join(f", {column} = ?" for column in values)
        with self.connection:
            self.connection.execute("BEGIN")
            self.connection.execute(
                f"UPDATE Z{entity} SET Z_OPT = Z_OPT + 1{assignments} WHERE Z_PK = ?",
                list(values.values()) + [key])

    def checkpoint(self):
        """Everything saved so far into the main file; what follows stays in the -wal."""
        self.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self):
        self.connection.close()

    def copy_while_open(self):
        """Closes the store as a copy taken while the app had it open would leave it: the
        main file, -wal and -shm as they are now, not as closing (a checkpoint, and the
        -wal and -shm removed) would leave them."""
        suffixes = ("", "-wal", "-shm")
        for suffix in suffixes:
            shutil.copyfile(self.path + suffix, self.path + suffix + ".copy")
        self.connection.close()
        for suffix in suffixes:
            if os.path.exists(self.path + suffix):
                os.remove(self.path + suffix)
            os.rename(self.path + suffix + ".copy", self.path + suffix)


def photo(name):
    with open(os.path.join(ROOT, "images", name + ".png"), "rb") as file:
        return file.read()


def inline(data):
    """An "Allows External Storage" value kept in its row: byte 1, then the bytes."""
    return b"\x01" + data


def external(store_path, file_name, data=None):
    """An "Allows External Storage" value kept in a file: byte 2, the file's name and a
    NUL in the row; the bytes in .<StoreName>_SUPPORT/_EXTERNAL_DATA/<name> beside the
    store, written when `data` is given."""
    if data is not None:
        store_name = os.path.splitext(os.path.basename(store_path))[0]
        folder = os.path.join(os.path.dirname(store_path), f".{store_name}_SUPPORT",
                              "_EXTERNAL_DATA")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, file_name), "wb") as file:
            file.write(data)
    return b"\x02" + file_name.encode() + b"\x00"


def seconds(moment):
    """A date as Core Data stores it: seconds since 2001-01-01 00:00:00 UTC, with its
    fraction. `moment` is ISO 8601 in UTC, such as 2026-10-14T19:30:00."""
    when = datetime.datetime.fromisoformat(moment).replace(tzinfo=datetime.timezone.utc)
    return (when - REFERENCE_DATE).total_seconds()


def tie_id(text):
    """A UUID attribute: its 16 bytes."""
    return uuid.UUID(text).bytes


def sample_ties():
    """SampleData.plist: the app's seven ties, as its insertSampleData reads them."""
    with open(os.path.join(ROOT, "SampleData.plist"), "rb") as file:
        return plistlib.load(file)


def rgb(tie):
    color = tie["tintColor"]
    return color["red"] / 255, color["green"] / 255, color["blue"] / 255


def write_app_store(output, colors):
    """The app's store as a copy of its data container holds it, in Library/Application
    Support/: the seven sample ties and two more, each tie's colour in another form UIKit
    or AppKit writes. Five rows reach the main file; Red's later save, Indigo, Violet and
    two more ties are only in the -wal. Blue's and Violet's photos are kept outside their
    rows."""
    folder = os.path.join(output, "app", "Library", "Application Support")
    os.makedirs(folder)
    path = os.path.join(folder, "BowTies.sqlite")
    store = Store(path, wal=True)
    samples = {tie["searchKey"]: tie for tie in sample_ties()}
    forms = {
        "R": lambda t: colors.uicolor_rgb(*rgb(t)),
        "O": lambda t: colors.uicolor_rgb(*rgb(t), double=True),
        "Y": lambda t: colors.uicolor_rgb(*rgb(t), appkit_chain=True),
        "G": lambda t: colors.nscolor_rgb(*rgb(t)),
        "B": lambda t: colors.nscolor_custom_space(*rgb(t)),
        "I": lambda t: colors.uicolor_rgb(*rgb(t)),
        # The system purple, as UIKit archives it; not the sample's violet.
        "V": lambda t: colors.uicolor_system("systemPurpleColor", 175 / 255, 82 / 255, 222 / 255),
    }
    rows = []
    for number, key in enumerate("ROYGBIV", start=1):
        tie = samples[key]
        image = photo(tie["imageName"])
        rows.append((number, {
            "ZNAME": tie["name"], "ZSEARCHKEY": key, "ZRATING": tie["rating"],
            "ZTIMESWORN": tie["timesWorn"],
            "ZLASTWORN": seconds(tie["lastWorn"].isoformat()) if "lastWorn" in tie else None,
            "ZISFAVORITE": int(tie["isFavorite"]), "ZURL": tie["url"], "ZID": tie_id(tie["id"]),
            "ZPHOTODATA": (external(path, f"E7A1D6C4-0000-4000-8000-{number:012d}", image)
                           if key in "BV" else inline(image)),
            "ZTINTCOLOR": forms[key](tie),
        }))
    # Two ties the samples do not have, in grey, worn at a moment with a fraction of a
    # second; one without a photo, link or last wear.
    rows.append((8, {
        "ZNAME": "Charcoal Bow Tie", "ZSEARCHKEY": "C", "ZRATING": 3.5, "ZTIMESWORN": 3,
        "ZLASTWORN": seconds("2026-11-20T07:05:30.125"), "ZISFAVORITE": 0, "ZURL": None,
        "ZID": tie_id("0B0771E5-0000-4000-8000-000000000008"), "ZPHOTODATA": None,
        "ZTINTCOLOR": colors.uicolor_white(0.25),
    }))
    rows.append((9, {
        "ZNAME": "Silver Bow Tie", "ZSEARCHKEY": "S", "ZRATING": 2.5, "ZTIMESWORN": 0,
        "ZLASTWORN": None, "ZISFAVORITE": 1, "ZURL": None,
        "ZID": tie_id("0B0771E5-0000-4000-8000-000000000009"), "ZPHOTODATA": None,
        "ZTINTCOLOR": colors.nscolor_white(0.75),
    }))
    red = dict(rows[0][1])
    for number, values in rows[:5]:
        if number == 1:
            # Red as first saved: worn once less, a month earlier.
            values = {**values, "ZTIMESWORN": 9, "ZLASTWORN": seconds("2026-09-14T19:30:00")}
        store.insert(number, values)
    store.checkpoint()
    store.update(1, {"ZTIMESWORN": red["ZTIMESWORN"], "ZLASTWORN": red["ZLASTWORN"]})
    for number, values in rows[5:]:
        store.insert(number, values)
    store.copy_while_open()


def write_older_store(output, colors):
    """The earlier editions' store, Bow_Ties.sqlite: entity Bowtie, no ZID and no ZURL.
    One photo in its row, one kept outside it; one tie without a colour or a last wear."""
    folder = os.path.join(output, "older-model")
    os.makedirs(folder)
    path = os.path.join(folder, "Bow_Ties.sqlite")
    store = Store(path, entities=(("Bowtie", OLDER_MODEL),), number=2)
    store.insert(1, {
        "ZISFAVORITE": 0, "ZTIMESWORN": 2, "ZLASTWORN": seconds("2026-03-01T08:00:00.5"),
        "ZRATING": 3.0, "ZNAME": "Plum Bow Tie", "ZSEARCHKEY": "P",
        "ZPHOTODATA": inline(photo("violet")),
        "ZTINTCOLOR": colors.uicolor_rgb(142 / 255, 69 / 255, 133 / 255),
    }, entity="BOWTIE")
    store.insert(2, {
        "ZISFAVORITE": 1, "ZTIMESWORN": 0, "ZLASTWORN": None, "ZRATING": 4.5,
        "ZNAME": "Tan Bow Tie", "ZSEARCHKEY": "T",
        "ZPHOTODATA": external(path, "5A1E0C2B-0000-4000-8000-000000000002", photo("orange")),
        "ZTINTCOLOR": None,
    }, entity="BOWTIE")
    store.close()


TEAL = {"ZNAME": "Teal Bow Tie", "ZSEARCHKEY": "T", "ZRATING": 4.5, "ZTIMESWORN": 0,
        "ZISFAVORITE": 0}


def write_refused_store(output, name, rows, entities=(("BowTie", MODEL),),
                        store_name="BowTies", number=3):
    """A small store in a folder of its own, which bowties refuses; returns its path."""
    folder = os.path.join(output, name)
    os.makedirs(folder)
    path = os.path.join(folder, store_name + ".sqlite")
    store = Store(path, entities=entities, number=number)
    for key, values in enumerate(rows, start=1):
        store.insert(key, values, entity=entities[0][0].upper())
    store.close()
    return path


def write_refused_stores(output, colors):
    teal = {**TEAL, "ZTINTCOLOR": colors.uicolor_rgb(0.0, 128 / 255, 128 / 255)}
    # One row of three is bad: a colour archive cut short, a rating out of range, a photo
    # that is no image.
    rust = {**TEAL, "ZNAME": "Rust Bow Tie", "ZSEARCHKEY": "U"}
    write_refused_store(output, "damaged-color", [
        teal, {**rust, "ZTINTCOLOR": colors.uicolor_rgb(183 / 255, 65 / 255, 14 / 255)[:-12]},
        {**teal, "ZNAME": "Navy Bow Tie", "ZSEARCHKEY": "N"}])
    # Colours bowties refuses, row by row, as unreadable: a dynamic (asset catalog) UIColor,
    # an AppKit catalog colour, a UIColor without its green.
    write_refused_store(output, "dynamic-color", [
        teal, {**rust, "ZTINTCOLOR": colors.uicolor_dynamic()}])
    write_refused_store(output, "catalog-color", [
        teal, {**rust, "ZTINTCOLOR": colors.nscolor_catalog("System", "controlAccentColor")}])
    write_refused_store(output, "missing-component", [
        teal, {**rust, "ZTINTCOLOR": colors.uicolor_missing_component("UIGreen")}])
    write_refused_store(output, "bad-rating", [
        teal, {**rust, "ZRATING": 7.0}, {**teal, "ZNAME": "Navy Bow Tie", "ZSEARCHKEY": "N"}])
    write_refused_store(output, "bad-photo", [
        teal, {**rust, "ZPHOTODATA": inline(b"GIF89a, not a photo bowties reads")}])
    # Another app's store: Apple's Notes has a Core Data store of its own.
    write_refused_store(output, "another-app", [], store_name="Notes", entities=(
        ("Folder", [("ZTITLE", "VARCHAR")]), ("Note", [("ZTITLE", "VARCHAR"), ("ZBODY", "BLOB")])))
    # A later version of the app's model, with an attribute bowties does not know.
    write_refused_store(output, "newer-model", [teal],
                        entities=(("BowTie", MODEL + [("ZWORNWITH", "VARCHAR")]),))
    # Photos kept outside their rows that bowties must not read: a file that is not
    # there (the folder is, with another tie's photo), a link out of the support folder,
    # and a name that is a path.
    path = write_refused_store(output, "missing-photo", [
        {**teal, "ZPHOTODATA": b"\x02" + b"8D2A3C5E-0000-4000-8000-000000000001\x00"}])
    external(path, "8D2A3C5E-0000-4000-8000-000000000009", photo("blue"))
    path = write_refused_store(output, "photo-outside", [
        {**teal, "ZPHOTODATA": b"\x02" + b"8D2A3C5E-0000-4000-8000-000000000002\x00"}])
    folder = os.path.dirname(path)
    os.makedirs(os.path.join(folder, ".BowTies_SUPPORT", "_EXTERNAL_DATA"))
    with open(os.path.join(folder, "outside.png"), "wb") as file:
        file.write(photo("red"))
    os.symlink("../../outside.png", os.path.join(
        folder, ".BowTies_SUPPORT", "_EXTERNAL_DATA", "8D2A3C5E-0000-4000-8000-000000000002"))
    write_refused_store(output, "photo-name", [
        {**teal, "ZPHOTODATA": b"\x02../../outside.png\x00"}])


def write_fixtures(output):
    colors = color_archives()
    os.makedirs(output, exist_ok=True)
    write_app_store(output, colors)
    write_older_store(output, colors)
    write_refused_stores(output, colors)
    with open(os.path.join(output, "README.md"), "w") as file:
        file.write(README)


def rows_of(store, with_wal):
    """A store's schema and rows, as SQL text, read from a copy (reading the original
    would write its -shm): of the main file alone, or with its -wal."""
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, "copy.sqlite")
        shutil.copyfile(store, copy)
        if with_wal and os.path.exists(store + "-wal"):
            shutil.copyfile(store + "-wal", copy + "-wal")
        connection = sqlite3.connect(copy)
        content = list(connection.iterdump())
        connection.close()
        return content


def differences(expected, actual):
    """What differs between the tracked fixtures and a fresh run, one line each."""
    def files(top):
        found = set()
        for folder, folders, names in os.walk(top):
            for name in names + [f for f in folders if os.path.islink(os.path.join(folder, f))]:
                found.add(os.path.relpath(os.path.join(folder, name), top))
        return found

    tracked, written = files(expected), files(actual)
    found = [f"{name}: not in the tracked fixtures" for name in sorted(written - tracked)]
    found += [f"{name}: the script no longer writes it" for name in sorted(tracked - written)]
    for name in sorted(tracked & written):
        old, new = os.path.join(expected, name), os.path.join(actual, name)
        if os.path.islink(old) or os.path.islink(new):
            if not (os.path.islink(old) and os.path.islink(new)
                    and os.readlink(old) == os.readlink(new)):
                found.append(f"{name}: the link differs")
        elif name.endswith(".sqlite"):
            for with_wal, which in ((False, "main file's"), (True, "-wal's")):
                if rows_of(old, with_wal) != rows_of(new, with_wal):
                    found.append(f"{name}: the {which} rows differ")
        elif name.endswith(("-wal", "-shm")):
            continue  # compared through their store
        elif not filecmp.cmp(old, new, shallow=False):
            found.append(f"{name}: its bytes differ")
    return found


README = """# Core Data stores of the BowTies app

Made by `scripts/make-coredata-fixtures.py`: change the script and run it again, never
these files by hand (`--check` compares them with a fresh run). No Core Data runs here:
each detail below follows a public description of Core Data's SQLite store, named beside
it. bowties' reader (`Sources/BowTieKit/Seeding/CoreDataStore.swift`) follows the same
descriptions, so these stores show that it reads what the descriptions say; no store an
iPhone wrote was at hand to compare with.

| folder | what it holds |
| --- | --- |
| `app/Library/Application Support/` | the app's store, `BowTies.sqlite` with its `-wal` and `-shm`, as a copy of a running app's data container holds it: the seven sample ties and two more, each colour in another form UIKit or AppKit writes; five rows in the main file, and Red's later save (worn 10 times, not 9), Indigo, Violet, Charcoal and Silver only in the `-wal`; Blue's and Violet's photos in `.BowTies_SUPPORT/_EXTERNAL_DATA/`, the others in their rows |
| `older-model/` | `Bow_Ties.sqlite`, the earlier editions' model: entity `Bowtie`, no `ZID` and no `ZURL`; one photo in its row, one in `.Bow_Ties_SUPPORT/_EXTERNAL_DATA/`; a tie without a colour |
| `damaged-color/` | the second of three rows with a colour archive cut short |
| `dynamic-color/`, `catalog-color/`, `missing-component/` | the second row's colour a dynamic `UIColor`, an AppKit catalog colour, a `UIColor` without `UIGreen`: forms bowties refuses |
| `bad-rating/` | the second of three rows rated 7 |
| `bad-photo/` | the second row's photo, which is no PNG or JPEG |
| `another-app/` | `Notes.sqlite`, a Core Data store of another model (entities `Folder` and `Note`) |
| `newer-model/` | `ZBOWTIE` with a column bowties does not know, `ZWORNWITH` |
| `missing-photo/` | a photo kept outside its row whose file is not there |
| `photo-outside/` | a photo kept outside its row whose file is a link out of the support folder |
| `photo-name/` | a photo kept outside its row under the name `../../outside.png` |

What each detail follows:

- **Tables.** An entity `BowTie` is the table `ZBOWTIE`, its attribute `name` the column
  `ZNAME`; every table starts with `Z_PK`, `Z_ENT` and `Z_OPT`; Core Data's own tables are
  `Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX
  INTEGER)`, one row per entity with its number and largest `Z_PK`, and `Z_METADATA
  (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)`; newer stores also
  have `Z_MODELCACHE`: fatbobman.com, "How Core Data Saves Data in SQLite"
  (https://fatbobman.com/en/posts/tables_and_fields_of_coredata/), and the schema quoted
  in "Why do Core Data sqlite table columns start with 'Z'?"
  (https://softwareengineering.stackexchange.com/questions/178994). `Z_OPT` counts a
  row's saves (fatbobman.com, same article); Red's later save has 2.
- **Metadata.** `Z_PLIST` is a binary property list with `NSStoreType` (`SQLite`),
  `NSStoreUUID`, `NSStoreModelVersionHashes` (one hash per entity) and
  `NSPersistenceFrameworkVersion`: fatbobman.com, same article. The hashes here are 32
  zero bytes: they depend on the app's exact model, and bowties does not check them.
  `Z_MODELCACHE` is empty here; bowties does not read it.
- **Column types** (`INTEGER` for Boolean and Integer 32, `TIMESTAMP` for Date, `FLOAT`
  for Double, `VARCHAR` for String, `BLOB` for Binary, Transformable and UUID): the schemas
  quoted above. Dates are seconds since 2001-01-01 00:00:00 UTC with a fraction
  (fatbobman.com; Foundation's reference date); Charcoal's last wear has a fraction of
  0.125 s, Plum's 0.5 s. A UUID is its 16 bytes: the README of omarshahine/apple-journal-cli
  (Journal's store, `ZID`).
- **URI attributes** (`ZURL`) as the URL's text, `VARCHAR`: assumed; no public
  description says how Core Data stores a URI attribute.
- **External storage.** An attribute that allows external storage holds byte 1 and then
  the bytes, or byte 2, a file name and a NUL, the file in the hidden folder
  `.<StoreName>_SUPPORT/_EXTERNAL_DATA/` beside the store: bluecrowbar.com, "Core Data
  external storage" (https://bluecrowbar.com/blog/2011/08/coredata-external.html, the
  folder); omarshahine/apple-journal-cli, README and `swift/Sources/journal-cli/Store.swift`
  (the marker bytes; its reader drops the NUL); fatbobman.com, "Ask Apple 2022 Q&A Related
  on Core Data" (only the file name is in the row, the file in `_EXTERNAL_DATA`). Which
  values Core Data keeps outside is its choice by size (about 100 KB and up, per the
  latter); these photos are small, and the reader must obey the marker, so two are
  kept outside anyway.
- **The model.** Later editions: entity `BowTie` with `name`, `searchKey` (String),
  `rating` (Double), `timesWorn` (Integer 32), `lastWorn` (Date), `isFavorite` (Boolean),
  `url` (URI), `id` (UUID), `photoData` (Binary, allows external storage) and `tintColor`
  (Transformable, `ColorAttributeTransformer`, `UIColor`), in
  `NSPersistentContainer(name: "BowTies")`, hence `BowTies.sqlite`:
  pookjw/Practice_CoreData, `swift/Chapter2/BowTies/BowTies.xcdatamodeld` and
  `AppDelegate.swift`. Earlier editions: entity `Bowtie`, the same attributes without
  `id` and `url`, in `NSPersistentContainer(name: "Bow_Ties")`: pencilCool/Bow_Ties,
  `Bow Ties/Bow_Ties.xcdatamodeld` and `AppDelegate.swift`. The app's store is in
  `Library/Application Support/`, `NSPersistentContainer`'s default directory on iOS.
- **The ties** are `SampleData.plist`'s, as the app's `insertSampleData` stores them
  (colour components divided by 255); photos are the PNGs in `images/`.
- **A store copied from a running app** keeps its latest saves in its `-wal` until a
  checkpoint (https://sqlite.org/wal.html): the script turns automatic checkpoints off,
  checkpoints after the first five rows, saves the rest, and copies the three files while
  its connection is still open.
- **Colour archives** are those `scripts/make-color-archives.py` writes, from the public
  descriptions docs/color-archives.md names. In the app's store: Red and Indigo UIKit's
  RGB `UIColor` (32-bit floats), Orange with the `-Double` keys, Yellow with the class
  chain `[UIColor, NSColor, NSObject]`, Violet a system colour (`systemPurpleColor`),
  Charcoal UIKit's grey; Green AppKit's RGB `NSColor`, Silver its white, Blue an sRGB
  `NSColor` in a custom colour space (`NSComponents` and an ICC profile). The refused forms
  are in `dynamic-color/`, `catalog-color/` and `missing-component/`.
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", help="write there instead of Tests/Fixtures/CoreData/")
    parser.add_argument("--check", action="store_true",
                        help="compare a fresh run with the tracked fixtures")
    arguments = parser.parse_args()
    if arguments.check:
        with tempfile.TemporaryDirectory() as scratch:
            fresh = os.path.join(scratch, "CoreData")
            write_fixtures(fresh)
            found = differences(FIXTURES, fresh)
        for difference in found:
            print(f"make-coredata-fixtures: {difference}", file=sys.stderr)
        if found:
            print("make-coredata-fixtures: run scripts/make-coredata-fixtures.py to remake them",
                  file=sys.stderr)
        sys.exit(1 if found else 0)
    output = arguments.output or FIXTURES
    if os.path.exists(output):
        shutil.rmtree(output)
    write_fixtures(output)


if __name__ == "__main__":
    main()
