// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "bowties",
  products: [
    .executable(name: "bowties", targets: ["bowties"]),
    .executable(name: "bowties-postgresql", targets: ["bowties-postgresql"]),
    .library(name: "BowTieModel", targets: ["BowTieModel"]),
    .library(name: "BowTieKit", targets: ["BowTieKit"]),
    .library(name: "BowtiesCLI", targets: ["BowtiesCLI"]),
    .library(name: "TerminalImage", targets: ["TerminalImage"]),
    .library(name: "TerminalUI", targets: ["TerminalUI"]),
    .library(name: "ImageCodecs", targets: ["ImageCodecs"]),
    .library(name: "PropertyLists", targets: ["PropertyLists"]),
  ],
  dependencies: [
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
    .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
    .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
    .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
  ],
  targets: [
    // The model: a tie, its color, its price and its photo as values, their validation, the
    // color transformer that archives a color as UIKit does, and the one error enum. Knows
    // nothing of stores, files or terminals.
    .target(name: "BowTieModel", dependencies: ["ImageCodecs", "PropertyLists"]),
    // The persistence core: the store and its SQLite engine, seeding, exchange, maintenance.
    // No terminal I/O.
    .target(
      name: "BowTieKit",
      dependencies: [
        "BowTieModel", "CNettle", "ImageCodecs", "PropertyLists", "TextOutput",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      plugins: ["EmbedSampleData"]
    ),
    // The store on a PostgreSQL server: connection settings as libpq reads them, the
    // connection (postgres-nio, TLS by NIOSSL), the schema and the engine BowTieKit's store
    // runs on. Kept out of BowTieKit so that what does not need a server does not build one.
    .target(
      name: "BowTiePostgres",
      dependencies: [
        "BowTieKit", "BowTieModel", "TextOutput",
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // Property lists and keyed archives: one value type, the XML (Expat) and binary readers
    // and writers, and the strict NSKeyedArchiver-format codec. Knows nothing of ties.
    .target(name: "PropertyLists", dependencies: ["CExpat"]),
    // The report and the suggestions: what a store's summary queries say, rendered in each
    // format. Reads the store through BowTieKit's public API; knows nothing of engines.
    .target(
      name: "BowTieReports",
      dependencies: ["BowTieKit", "BowTieModel", "PropertyLists", "TextOutput"]),
    // Bytes out: a file descriptor's stream that reports every failed write, the one JSON
    // writer of long arrays, and the cells text takes on a terminal. Knows nothing of ties;
    // the store, the reports, the export and the command line all write through it.
    .target(name: "TextOutput"),
    // Expat, the XML parser seed plists stream through, an entry at a time.
    .systemLibrary(name: "CExpat", pkgConfig: "expat", providers: [.apt(["libexpat1-dev"])]),
    // Nettle, for the SHA-256 that names photo files.
    .systemLibrary(name: "CNettle", pkgConfig: "nettle", providers: [.apt(["nettle-dev"])]),
    // Photos on a terminal: scaling, half-block rendering, the kitty, iTerm2 and sixel
    // encoders, and which of them a terminal speaks. Knows nothing of ties.
    .target(name: "TerminalImage", dependencies: ["ImageCodecs"]),
    // A full-screen view on a terminal: its terminfo capabilities (ncurses' libtinfo, with
    // a few types built in for machines without a terminfo database), keys, raw mode and the
    // alternate screen given back on every way out, frames drawn by changed rows. Knows
    // nothing of ties.
    .target(name: "TerminalUI", dependencies: ["CTerminfo", "TextOutput"]),
    // libtinfo's setupterm, tigetstr and tiparm, the last variadic, which Swift cannot call.
    .target(name: "CTerminfo", linkerSettings: [.linkedLibrary("tinfo")]),
    // Photo formats: PNG (libpng), JPEG with its EXIF orientation (libjpeg-turbo, libexif),
    // PDF rasterized (MuPDF), and telling them apart. Knows nothing of ties or terminals.
    .target(name: "ImageCodecs", dependencies: ["CLibPNG", "CImageCodecs"]),
    // libjpeg's and MuPDF's errors longjmp, which must not cross Swift frames: these C
    // wrappers catch them. Debian ships MuPDF only as a static library, so its own
    // dependencies are named here too, in the order a static link needs them.
    .target(
      name: "CImageCodecs",
      linkerSettings: [
        "mupdf", "mupdf-third", "mujs", "gumbo", "openjp2", "jbig2dec", "freetype", "jpeg", "exif",
        "z", "m",
      ].map { .linkedLibrary($0) }
    ),
    // libpng's simplified API, so that no PNG decoder is written by hand.
    .systemLibrary(
      name: "CLibPNG",
      pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"])]
    ),
    // The command-line interface: parsing, formatting, exit codes. No SQL.
    .target(
      name: "BowtiesCLI",
      dependencies: [
        "BowTieKit", "BowTieModel", "BowTieReports", "TerminalImage", "TerminalUI", "ImageCodecs",
        "TextOutput",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The program: BowtiesCLI's root command.
    .executableTarget(name: "bowties", dependencies: ["BowtiesCLI"]),
    .executableTarget(name: "bowties-postgresql", dependencies: ["BowtiesCLI", "BowTiePostgres"]),
    // Build-time tool that turns SampleData.plist and images/ into Swift source,
    // so a lone copy of the binary can still seed the sample ties.
    .executableTarget(name: "EmbedResources", path: "Sources/EmbedResources"),
    .plugin(
      name: "EmbedSampleData",
      capability: .buildTool(),
      dependencies: ["EmbedResources"]
    ),
    // A PostgreSQL server in a temporary folder, for the tests of both engines.
    .target(name: "PostgresTestSupport", path: "Tests/PostgresTestSupport"),
    // One seeded random generator, for the tests that draw their inputs.
    .target(name: "SeededRandom", path: "Tests/SeededRandom"),
    .testTarget(
      name: "BowTieKitTests",
      dependencies: [
        "BowTieKit", "BowTieModel", "BowTieReports", "PropertyLists", "SeededRandom", "TextOutput",
      ]),
    .testTarget(name: "PropertyListsTests", dependencies: ["PropertyLists", "SeededRandom"]),
    .testTarget(name: "TextOutputTests", dependencies: ["SeededRandom", "TextOutput"]),
    .testTarget(
      name: "BowTiePostgresTests",
      dependencies: [
        "BowTieKit", "BowTieModel", "BowTiePostgres", "PostgresTestSupport", "PropertyLists",
      ]),
    .testTarget(name: "TerminalImageTests", dependencies: ["TerminalImage", "ImageCodecs"]),
    .testTarget(name: "ImageCodecsTests", dependencies: ["ImageCodecs"]),
    .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI"]),
    .testTarget(
      name: "bowtiesTests",
      dependencies: [
        "bowties", "bowties-postgresql", "BowtiesCLI", "BowTieKit", "BowTieModel", "BowTiePostgres",
        "TerminalImage",
        "TerminalUI",
        "ImageCodecs", "PropertyLists", "PostgresTestSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      // Expected `show --image always` output, compared byte for byte by PhotoTests.
      exclude: ["Golden"]
    ),
  ]
)
