#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A terminal window's size in cells, and its cells' size in pixels when the terminal
/// reports it (xterm, kitty, WezTerm, foot do; many do not).
public struct WindowSize: Equatable, Sendable {
  public var columns: Int
  public var rows: Int
  public var cellWidth: Int?
  public var cellHeight: Int?

  public init(columns: Int, rows: Int, cellWidth: Int? = nil, cellHeight: Int? = nil) {
    self.columns = columns
    self.rows = rows
    self.cellWidth = cellWidth
    self.cellHeight = cellHeight
  }
}

/// What only the terminal itself can say.
public enum TerminalQueries {
  /// The window size of the terminal on `descriptor` (`TIOCGWINSZ`), or nil when it is
  /// not a terminal or does not know.
  public static func windowSize(of descriptor: Int32) -> WindowSize? {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    let columns = Int(size.ws_col)
    let rows = Int(size.ws_row)
    let hasPixels = size.ws_xpixel > 0 && size.ws_ypixel > 0 && rows > 0
    return WindowSize(
      columns: columns, rows: rows,
      cellWidth: hasPixels ? Int(size.ws_xpixel) / columns : nil,
      cellHeight: hasPixels ? Int(size.ws_ypixel) / rows : nil)
  }

  /// Asks the controlling terminal for its primary device attributes (`ESC [ c`) and
  /// returns the numbers of its reply, or nil when there is no terminal or no answer
  /// within `timeout` milliseconds.
  ///
  /// Call it only when standard input and output are both the terminal: otherwise the
  /// user is not at it, or another program is reading what it types. The terminal is
  /// put in raw mode (no echo, no line buffering) for the exchange and restored.
  public static func primaryDeviceAttributes(timeout: Int32 = 250) -> [Int]? {
    let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard tty >= 0 else { return nil }
    defer { close(tty) }
    var saved = termios()
    guard tcgetattr(tty, &saved) == 0 else { return nil }
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 0
      cc[Int(VTIME)] = 0
    }
    guard tcsetattr(tty, TCSANOW, &raw) == 0 else { return nil }
    defer { _ = tcsetattr(tty, TCSANOW, &saved) }

    let query: [UInt8] = [0x1B, UInt8(ascii: "["), UInt8(ascii: "c")]
    guard write(tty, query, query.count) == query.count else { return nil }
    var reply: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    var remaining = timeout
    var start = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    while remaining > 0, reply.count < 256 {
      var descriptor = pollfd(fd: tty, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, remaining) > 0 else { break }
      let count = read(tty, &buffer, buffer.count)
      guard count > 0 else { break }
      reply += buffer[..<count]
      if let attributes = TerminalGraphics.parseDeviceAttributes(reply) { return attributes }
      var now = timespec()
      clock_gettime(CLOCK_MONOTONIC, &now)
      let elapsed = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1_000_000
      remaining = timeout - Int32(clamping: elapsed)
    }
    return nil
  }
}
