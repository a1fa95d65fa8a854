#!/usr/bin/env python3
"""What the shipped binaries hold, by part: the bytes each library and module puts into
the loaded sections of `bowties` and `bowties-postgresql` (what `strip` leaves), from a
link map.

It links each program once more, with SwiftPM's own link command for it (from
.build-release/release.yaml, so scripts/build-release must have built it), into a
temporary file with lld's --Map; the built programs and SwiftPM's state are not touched.
docs/performance.md, "What the binary holds", keeps the figures and what removing each
part would cost.

With --icu, it also reads the ICU data Foundation brings (the toolchain's
lib_FoundationICU.a, member icu_packaged_data.cpp.o) in ICU's common-data format, and
prints its size by kind of item.

Usage: scripts/binary-size.py [--top N] [--icu] [PRODUCT…]   (default: bowties bowties-postgresql)
Exit status: 0, or 1 when a program has not been built by scripts/build-release.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, ".build-release", "release.yaml")

# Parts, by the archive or SwiftPM module an input section comes from.
PARTS = [
    ("Foundation's ICU data (icudt)", r"lib_FoundationICU\.a\(icu_packaged_data"),
    ("Foundation's ICU code", r"lib_FoundationICU\.a"),
    ("Foundation", r"lib(Foundation\w*|CoreFoundation|_Foundation\w*)\.a"),
    ("Swift runtime and standard library", r"lib(swift\w*|_swift\w*|dispatch|BlocksRuntime)\.a|swiftrt\.o"),
    ("MuPDF and its libraries", r"lib(mupdf|mupdf-third|mujs|gumbo|openjp2|jbig2dec|freetype|brotli\w*)\.a"),
    ("photo libraries (libpng, libjpeg-turbo, libexif, zlib)", r"lib(png16|jpeg|exif|z)\.a"),
    ("SQLite", r"libsqlite3\.a"),
    ("Expat, Nettle", r"lib(expat|nettle)\.a"),
    ("glibc, libm, libstdc++, libgcc", r"lib(c|m-[\d.]+|m|stdc\+\+|gcc|gcc_eh|pthread|dl|rt)\.a|crt\w*\.o"),
    ("GRDB", r"/GRDB\.build/"),
    ("ArgumentParser", r"/ArgumentParser\w*\.build/"),
    ("BoringSSL (swift-nio-ssl, swift-crypto)", r"/C\w*BoringSSL\w*\.build/"),
    ("SwiftNIO, NIOSSL, swift-crypto", r"/(NIO\w*|_NIO\w*|CNIO\w*|Crypto\w*|_Crypto\w*|CCrypto\w*|CXKCP\w*)\.build/|/FIPS202-opt64/"),
    ("PostgresNIO and its packages", r"/(PostgresNIO|_ConnectionPoolModule|Logging|Metrics|CoreMetrics|ServiceLifecycle|UnixSignals|AsyncAlgorithms|Atomics|_AtomicsShims|DequeModule|OrderedCollections|InternalCollectionsUtilities|BasicContainers|SwiftASN1|X509|_CertificateInternals|SystemPackage|CSystem|ConcurrencyHelpers|ContainersPreview|\w+Collections?\w*)\.build/"),
    ("bowties' own modules", r"/(BowTieKit|BowTiePostgres|BowtiesCLI|TerminalImage|ImageCodecs|CImageCodecs|bowties|bowties_postgresql)\.build/"),
    ("linker tables (.eh_frame_hdr, relocations, symbols)", r"^<internal>"),
]
SKIPPED_SECTIONS = (".debug", ".comment", ".symtab", ".strtab", ".shstrtab", ".bss", ".tbss")


def link_command(product):
    """SwiftPM's link command for the product, as the llbuild manifest holds it."""
    if not os.path.exists(MANIFEST):
        return None
    wanted = f'  "C.{product}-x86_64-unknown-linux-gnu-release.exe":'
    with open(MANIFEST) as manifest:
        inside = False
        for line in manifest:
            if line.rstrip("\n") == wanted:
                inside = True
            elif inside and line.startswith("    args: "):
                return json.loads(line[len("    args: "):])
            elif inside and not line.startswith("    "):
                return None
    return None


def sizes(map_file):
    """Bytes by (input, output section), for the sections a stripped binary keeps."""
    found = collections.Counter()
    section = None
    pattern = re.compile(r"\s*[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+ (.*)$")
    with open(map_file, errors="replace") as lines:
        for line in lines:
            match = pattern.match(line)
            if not match:
                continue
            size, rest = int(match.group(1), 16), match.group(2)
            if not rest.startswith(" "):
                section = rest.strip()
            elif not rest.startswith("         ") and section and not section.startswith(SKIPPED_SECTIONS):
                found[rest.strip()] += size
    return found


def part(source):
    for name, pattern in PARTS:
        if re.search(pattern, source):
            return name
    return "other: " + os.path.basename(source.split("(")[0])


def report(product, top):
    command = link_command(product)
    if command is None:
        print(f"binary-size: no link command for {product}: run scripts/build-release first", file=sys.stderr)
        return False
    with tempfile.TemporaryDirectory() as scratch:
        output, map_file = os.path.join(scratch, product), os.path.join(scratch, "map")
        index = command.index("-o")
        command = command[: index + 1] + [output] + command[index + 2 :]
        command += ["-Xlinker", f"--Map={map_file}"]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["strip", "-o", output + ".stripped", output], check=True)
        stripped = os.path.getsize(output + ".stripped")
        parts = collections.Counter()
        for source, size in sizes(map_file).items():
            parts[part(source)] += size
    total = sum(parts.values())
    print(f"{product}: {stripped / 1e6:.1f} MB stripped; its loaded sections, by part:")
    for name, size in parts.most_common(top):
        print(f"  {size / 1e6:6.2f} MB  {100 * size / total:4.1f}%  {name}")
    rest = total - sum(size for _, size in parts.most_common(top))
    if rest:
        print(f"  {rest / 1e6:6.2f} MB  {100 * rest / total:4.1f}%  the rest")
    return True


def icu_data(top):
    """ICU's data package by kind of item: a header, then a table of contents of
    (name offset, data offset) pairs, the items in name order (ICU's udata.h, ucmndata.h)."""
    swiftc = subprocess.run(["which", "swiftc"], capture_output=True, text=True).stdout.strip()
    archive = os.path.join(os.path.dirname(os.path.realpath(swiftc)), "..", "lib", "swift_static",
                           "linux", "lib_FoundationICU.a")
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run(["ar", "x", archive, "icu_packaged_data.cpp.o"], cwd=scratch, check=True)
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.rodata", "icu_packaged_data.cpp.o",
                        "icudt.dat"], cwd=scratch, check=True)
        with open(os.path.join(scratch, "icudt.dat"), "rb") as package:
            data = package.read()
    header_size = int.from_bytes(data[0:2], "little")
    count = int.from_bytes(data[header_size:header_size + 4], "little")
    entries = []
    for index in range(count):
        at = header_size + 4 + 8 * index
        name_at = header_size + int.from_bytes(data[at:at + 4], "little")
        entries.append((data[name_at:data.index(b"\0", name_at)].decode(),
                        int.from_bytes(data[at + 4:at + 8], "little")))
    kinds = collections.Counter()
    for index, (name, offset) in enumerate(entries):
        end = entries[index + 1][1] if index + 1 < count else len(data) - header_size
        parts = name.split("/")
        kinds[parts[1] + "/" if len(parts) > 2 else "*." + name.rsplit(".", 1)[-1]] += end - offset
    print(f"Foundation's ICU data: {len(data) / 1e6:.2f} MB, {count} items, by kind:")
    for kind, size in kinds.most_common(top):
        print(f"  {size / 1e6:6.2f} MB  {kind}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=16, help="parts to name (default 16)")
    parser.add_argument("--icu", action="store_true", help="also ICU's data, by kind of item")
    parser.add_argument("products", nargs="*", default=["bowties", "bowties-postgresql"])
    arguments = parser.parse_args()
    ok = all([report(product, arguments.top) for product in arguments.products])
    if arguments.icu:
        icu_data(arguments.top)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
