// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "bowties",
  products: [
    .executable(name: "bowties", targets: ["bowties"]),
    .library(name: "BowTieKit", targets: ["BowTieKit"]),
    .library(name: "TerminalImage", targets: ["TerminalImage"]),
  ],
  dependencies: [
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
  ],
  targets: [
    // The persistence core: model, color transformer, store, seeding. No terminal I/O.
    .target(
      name: "BowTieKit",
      dependencies: [
        "CLibXML2",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      plugins: ["EmbedSampleData"]
    ),
    // libxml2's streaming reader, for XML seed plists too large for Foundation's parser.
    .systemLibrary(
      name: "CLibXML2",
      pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"])]
    ),
    // Photos on a terminal: PNG decoding, scaling, half-block rendering, the kitty,
    // iTerm2 and sixel encoders, and which of them a terminal speaks. Knows nothing of ties.
    .target(name: "TerminalImage", dependencies: ["CLibPNG"]),
    // libpng's simplified API, so that no PNG decoder is written by hand.
    .systemLibrary(
      name: "CLibPNG",
      pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"])]
    ),
    // The command-line interface: parsing, formatting, exit codes. No SQL.
    .executableTarget(
      name: "bowties",
      dependencies: [
        "BowTieKit", "TerminalImage",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // Build-time tool that turns SampleData.plist and images/ into Swift source,
    // so a lone copy of the binary can still seed the sample ties.
    .executableTarget(name: "EmbedResources", path: "Sources/EmbedResources"),
    .plugin(
      name: "EmbedSampleData",
      capability: .buildTool(),
      dependencies: ["EmbedResources"]
    ),
    .testTarget(name: "BowTieKitTests", dependencies: ["BowTieKit"]),
    .testTarget(name: "TerminalImageTests", dependencies: ["TerminalImage"]),
    .testTarget(
      name: "bowtiesTests",
      dependencies: [
        "bowties", "BowTieKit", "TerminalImage",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      // Expected `show --image always` output, compared byte for byte by PhotoTests.
      exclude: ["Golden"]
    ),
  ]
)
