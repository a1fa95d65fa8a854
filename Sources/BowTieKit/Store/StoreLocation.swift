import BowTieModel
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where the store lives: `--store PATH`, else `BOWTIES_STORE`, else
/// `$XDG_DATA_HOME/bowties/BowTies.sqlite` (default `~/.local/share/bowties/BowTies.sqlite`).
public enum StoreLocation {
  public static let fileName = "BowTies.sqlite"

  /// The environment variables the store's location depends on.
  static let variables = ["BOWTIES_STORE", "XDG_DATA_HOME", "HOME"]

  /// Resolves where the store is from an explicit path or URI and the environment: a
  /// location a registered engine takes (``StoreEngines``), else a SQLite file.
  public static func address(
    explicitPath: String?, environment given: [String: String]? = nil
  ) throws(BowTieError) -> any StoreAddress {
    let environment: [String: String]
    if let given {
      environment = given
    } else {
      environment = try ProcessEnvironment.values(variables)
    }
    if let location = explicitPath ?? environment["BOWTIES_STORE"],
      let address = StoreEngines.address(of: location)
    {
      return address
    }
    return SQLiteStoreFile(url: try resolve(explicitPath: explicitPath, environment: environment))
  }

  /// Resolves the store's file URL from an explicit path and the environment.
  ///
  /// - Parameter environment: the variables to use instead of the process's.
  public static func resolve(
    explicitPath: String?, environment given: [String: String]? = nil
  ) throws(BowTieError) -> URL {
    let environment: [String: String]
    if let given {
      environment = given
    } else {
      environment = try ProcessEnvironment.values(variables)
    }
    if let explicitPath {
      guard !explicitPath.isEmpty else { throw .usage("--store needs a path") }
      try refuseURI(explicitPath, from: "--store")
      return URL(fileURLWithPath: explicitPath).standardizedFileURL
    }
    if let path = environment["BOWTIES_STORE"], !path.isEmpty {
      try refuseURI(path, from: "BOWTIES_STORE")
      return URL(fileURLWithPath: path).standardizedFileURL
    }
    // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
    let dataHome: URL
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      dataHome = URL(fileURLWithPath: xdg, isDirectory: true)
    } else if let home = environment["HOME"], !home.isEmpty {
      dataHome = URL(fileURLWithPath: home, isDirectory: true)
        .appendingPathComponent(".local/share", isDirectory: true)
    } else {
      throw .usage("cannot find the store: HOME is not set; pass --store or set BOWTIES_STORE")
    }
    return dataHome.appendingPathComponent("bowties", isDirectory: true)
      .appendingPathComponent(fileName)
  }

  /// Refuses a location written as a URI that no engine took (`sqlite:///tmp/t.sqlite`,
  /// `file:t.sqlite`, `mysql://…`), which as a path would make a store in a folder named
  /// `sqlite:`. A file whose name really starts so is reached as `./sqlite:…`.
  static func refuseURI(_ location: String, from source: String) throws(BowTieError) {
    let scheme = location.prefix {
      $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0))
    }
    guard let first = scheme.first, first.isLetter, location.dropFirst(scheme.count).first == ":",
      location.dropFirst(scheme.count + 1).hasPrefix("//") || scheme.lowercased() == "file"
    else { return }
    throw .usage(
      "\(source) '\(location.excerpt)' is a URI bowties cannot open: a store is "
        + "a file path (./\(location.excerpt) for a file named so) or a "
        + "postgresql:// URI")
  }

  /// The hidden folder beside the store that holds its external photos, named as
  /// Core Data names it: `.BowTies_SUPPORT/_EXTERNAL_DATA` for `BowTies.sqlite`.
  ///
  /// Beside the file itself: a store reached through a symbolic link keeps its photos
  /// where the file the link leads to keeps them, as SQLite keeps its log there, so that
  /// the store opened by either name, and a copy of the file with its folder, have them.
  public static func externalDataDirectory(forStoreAt url: URL) -> URL {
    let file = linkTarget(of: url) ?? url
    let base = file.deletingPathExtension().lastPathComponent
    return file.deletingLastPathComponent()
      .appendingPathComponent(".\(base)_SUPPORT", isDirectory: true)
      .appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
  }

  /// The file a symbolic link at `url` leads to, through any further links; nil when
  /// `url` is no link, or a link to nothing.
  private static func linkTarget(of url: URL) -> URL? {
    var info = stat()
    guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK,
      let resolved = realpath(url.path, nil)
    else { return nil }
    defer { free(resolved) }
    return URL(fileURLWithPath: String(cString: resolved))
  }
}
