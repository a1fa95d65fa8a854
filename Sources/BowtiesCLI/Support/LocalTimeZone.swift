import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One local time zone for the C library and Foundation.
///
/// bowties reads the local zone twice: the C library's `localtime_r` writes the dates of
/// the POSIX locale (and SQLite's `localtime`), and Foundation's `Calendar.current`
/// counts days and months and reads `--date today`. They read `TZ` differently. The C
/// library takes `:Asia/Tokyo`, a path to a zone file (`TZ=:/etc/localtime`, a common
/// setting) and a POSIX rule (`UTC+3`, which is three hours *west*; `<+14>-14`);
/// Foundation takes none of the first two, falling back to UTC, and reads `UTC+3` as
/// three hours east. A wear's date was then printed in one zone and counted in another.
enum LocalTimeZone {
  /// Rewrites `TZ`, before either reader has read it, to a value both read alike: the
  /// zone's name for a name or a path to a zone file, and `Etc/GMT±N` for a POSIX rule of
  /// a whole number of hours without daylight saving time, with the C library's sign.
  /// Any other value is left as it is: unset or empty (both read the machine's zone, or
  /// UTC), a name both know, a rule with daylight saving time, which Foundation cannot
  /// follow.
  static func settle() {
    guard let raw = getenv("TZ"), raw.pointee != 0 else { return }
    let value = String(cString: raw)
    guard let name = zoneName(value) ?? fixedOffsetName(), name != value else { return }
    setenv("TZ", name, 1)
    // The C library reads TZ again only when asked to.
    tzset()
  }

  /// The folder of zone files, as the C library finds it.
  private static var zoneFolder: String {
    getenv("TZDIR").map { String(cString: $0) } ?? "/usr/share/zoneinfo"
  }

  /// The name of the zone `value` leads to: itself when a zone file has that name, the
  /// file's name in the zone folder for a path (after `:` or not, through links), or nil.
  private static func zoneName(_ value: String) -> String? {
    let text = value.hasPrefix(":") ? String(value.dropFirst()) : value
    var name: String
    if text.hasPrefix("/") {
      guard let resolved = realpath(text, nil) else { return nil }
      defer { free(resolved) }
      let path = String(cString: resolved)
      guard let range = path.range(of: "/zoneinfo/", options: .backwards) else { return nil }
      name = String(path[range.upperBound...])
      if name.hasPrefix("posix/") { name.removeFirst("posix/".count) }
    } else {
      name = text
    }
    guard !name.isEmpty, !name.split(separator: "/").contains(".."),
      isZoneFile("\(zoneFolder)/\(name)")
    else { return nil }
    // A name the C library knows and Foundation does not would still be read two ways.
    if name != value && TimeZone(identifier: name) == nil { return nil }
    return name
  }

  private static func isZoneFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
  }

  /// `Etc/GMT-14` for a rule the C library reads as 14 hours east of UTC all year, in
  /// the tz database's sign (the POSIX one); nil for UTC itself, which both read alike, for
  /// a rule with daylight saving time or a part of an hour, and beyond the `Etc` zones.
  private static func fixedOffsetName() -> String? {
    tzset()
    var now = time(nil)
    var parts = tm()
    guard gmtime_r(&now, &parts) != nil else { return nil }
    var offsets: [Int] = []
    for month: Int32 in [0, 6] {
      var day = tm()
      day.tm_year = parts.tm_year
      day.tm_mon = month
      day.tm_mday = 1
      day.tm_hour = 12
      var seconds = timegm(&day)
      var local = tm()
      guard localtime_r(&seconds, &local) != nil else { return nil }
      offsets.append(local.tm_gmtoff)
    }
    let east = offsets[0]
    guard offsets[1] == east, east != 0, east % 3600 == 0, (-12...14).contains(east / 3600) else {
      return nil
    }
    return "Etc/GMT\(east > 0 ? "-" : "+")\(abs(east) / 3600)"
  }
}
