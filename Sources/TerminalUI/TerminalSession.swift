#if canImport(Glibc)
  import Glibc
#endif

/// What happened while ``TerminalSession/nextEvents(timeout:watching:)`` waited.
public enum TerminalEvent: Equatable, Sendable {
  case key(Key)
  /// The window changed size (SIGWINCH).
  case resized
  /// SIGINT, SIGTERM or SIGHUP arrived; the program should end as the signal asks, with
  /// exit status 128 + its number.
  case signal(Int32)
  /// Another process asked the program to stop (SIGTSTP, as `kill -TSTP` sends it; the
  /// terminal's own Ctrl-Z arrives as a key, since raw mode turns its signal off). The
  /// program gives the terminal back and stops: ``TerminalSession/suspend()``.
  case suspend
  /// The process was stopped, by any signal, and continued (SIGCONT): the shell may have
  /// changed the terminal's modes and drawn on the screen meanwhile, so the program takes
  /// it again (``TerminalSession/resume()``) and draws the whole frame.
  case resumed
  /// The terminal went away: its input ended or failed (a closed window, a hang-up).
  case hangUp
  /// The descriptor the caller asked to watch became readable.
  case watched
}

/// The terminal taken over for a full-screen view: raw input, the alternate screen, the
/// keypad in application mode, the cursor hidden; and given back as it was by
/// ``restore()``, which the program calls on every way out.
///
/// So that no way out leaves the terminal raw: SIGINT, SIGTERM and SIGHUP become events
/// (the program restores, then exits as the signal asks), and a crash's signal (SIGSEGV,
/// SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE), or another that ends a process (SIGQUIT,
/// SIGUSR1, SIGALRM…), restores the terminal from its handler, with only async-signal-safe
/// calls, before the process dies of it. Ctrl-Z, or SIGTSTP from
/// elsewhere, gives the terminal back before the process stops, as the shell's job control
/// expects of a full-screen program, and `fg` takes it again.
///
/// One session per process at a time: signal handlers are process-wide.
public final class TerminalSession {
  public let capabilities: TerminalCapabilities
  private let input: Int32
  private let output: Int32
  private var saved = termios()
  private var active = false
  private var decoder: KeyDecoder
  private var signalPipe: (read: Int32, write: Int32) = (-1, -1)
  private var previousActions: [Int32: sigaction] = [:]
  /// Set while the SIGCONT that ended this process's own ``suspend()`` is still in the
  /// pipe: the terminal is taken again already.
  private var resumedBySuspend = false

  /// How long an ESC waits for the rest of a key's sequence before it counts as Escape, in
  /// milliseconds: the bytes of one key arrive together, so a short wait is enough
  /// (ncurses' ESCDELAY is often set to 25 for the same reason).
  public static let escapeDelay: Int32 = 50

  /// The signals that end a session as the user or the system asked.
  public static let endingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
  /// The signals of a crash, and the others whose default action ends the process (a
  /// SIGQUIT, SIGUSR1 or SIGALRM another process sends): the terminal is restored, then the
  /// process dies of the signal.
  static let fatalSignals: [Int32] = [
    SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
    SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
  ]

  public init(
    capabilities: TerminalCapabilities, input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO
  ) {
    self.capabilities = capabilities
    self.input = input
    self.output = output
    decoder = KeyDecoder(capabilities: capabilities)
  }

  /// Takes the terminal over.
  ///
  /// - Throws: ``TerminalError/setupFailed(_:)`` when the terminal's modes cannot be read
  ///   or set; the terminal is then as it was.
  public func start() throws(TerminalError) {
    guard !active else { return }
    guard tcgetattr(input, &saved) == 0 else {
      throw .setupFailed(String(cString: strerror(errno)))
    }
    guard let pipe = Self.makePipe() else {
      throw .setupFailed(String(cString: strerror(errno)))
    }
    signalPipe = pipe
    // What a crash's handler sends and sets, ready before anything can crash.
    SignalState.prepare(
      output: output, input: input, saved: saved, restore: Array(restoreSequence.utf8),
      pipe: signalPipe.write)
    installHandlers()

    guard enter() else {
      let reason = String(cString: strerror(errno))
      uninstallHandlers()
      close(signalPipe.read)
      close(signalPipe.write)
      signalPipe = (-1, -1)
      throw .setupFailed(reason)
    }
    active = true
  }

  /// Sets raw mode and draws the empty alternate screen; false when the modes cannot be set.
  private func enter() -> Bool {
    var raw = saved
    // As cfmakeraw, but output processing stays on: "\n" still returns the carriage.
    raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
    raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
    raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    guard tcsetattr(input, TCSANOW, &raw) == 0 else { return false }
    write(
      capabilities["smcup"] + capabilities["smkx"] + capabilities["civis"] + capabilities["clear"])
    return true
  }

  /// Gives the terminal back and stops the process's group, as the shell's Ctrl-Z stops a
  /// job; once continued (`fg`), takes the terminal again, whose whole frame the caller
  /// then draws.
  ///
  /// - Returns: whether the process stopped. It does not when nothing could continue it: a
  ///   process group no job-controlling shell looks after (an orphaned one, as a script's
  ///   `sh` makes) is not stopped by SIGTSTP, and the program goes on as it was.
  public func suspend() -> Bool {
    guard active else { return false }
    write(restoreSequence)
    _ = tcsetattr(input, TCSAFLUSH, &saved)
    SignalState.continued = false
    // The default action, which stops, for the one signal sent; the group, as the shell
    // would, so that a pipeline the program is part of stops with it.
    var stop = sigaction()
    stop.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&stop.sa_mask)
    var handler = sigaction()
    sigaction(SIGTSTP, &stop, &handler)
    kill(0, SIGTSTP)
    // Stopped and continued by now: SIGCONT's handler runs before kill returns.
    sigaction(SIGTSTP, &handler, nil)
    let stopped = SignalState.continued
    // Taken again here, so the SIGCONT that continued it is not an event for the caller.
    resumedBySuspend = stopped
    resume()
    return stopped
  }

  /// Takes the terminal again after the process was stopped and continued: raw mode, the
  /// alternate screen, cleared for a whole frame.
  public func resume() {
    guard active else { return }
    _ = enter()
  }

  /// What gives the terminal back its screen and modes: the keypad in its normal mode, the
  /// cursor shown, attributes off, the main screen. (Without an alternate screen, the view
  /// is cleared instead, so the shell's prompt comes back on an empty screen.)
  private var restoreSequence: String {
    let leave = capabilities.strings["rmcup"] ?? capabilities["clear"]
    return capabilities["rmkx"] + capabilities["sgr0"] + capabilities["cnorm"] + leave
  }

  /// Gives the terminal back as it was before ``start()``; does nothing when it is not
  /// taken over, so every way out may call it.
  public func restore() {
    guard active else { return }
    active = false
    write(restoreSequence)
    _ = tcsetattr(input, TCSAFLUSH, &saved)
    uninstallHandlers()
    if signalPipe.read >= 0 {
      close(signalPipe.read)
      close(signalPipe.write)
      signalPipe = (-1, -1)
    }
  }

  deinit { restore() }

  /// The window's size in cells (and its cells' in pixels, when the terminal says).
  public func size() -> (columns: Int, rows: Int, cellWidth: Int?, cellHeight: Int?) {
    var size = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
      return (80, 24, nil, nil)
    }
    let columns = Int(size.ws_col)
    let rows = Int(size.ws_row)
    let pixels = size.ws_xpixel > 0 && size.ws_ypixel > 0
    return (
      columns, rows, pixels ? Int(size.ws_xpixel) / columns : nil,
      pixels ? Int(size.ws_ypixel) / rows : nil
    )
  }

  /// Writes `text` whole. A terminal that went away (EIO) is noticed by the next read.
  public func write(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    // Partial writes and EINTR go round again; a full non-blocking buffer waits a little.
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { buffer in
        Glibc.write(output, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN {
          var descriptor = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
          _ = poll(&descriptor, 1, 100)
          continue
        }
        return
      }
      offset += written
    }
  }

  /// Waits up to `timeout` milliseconds (-1: without end) for keys, a signal, or
  /// `watching` becoming readable, and returns what came, in order; empty on a timeout.
  public func nextEvents(timeout: Int32, watching: Int32? = nil) -> [TerminalEvent] {
    var descriptors = [
      pollfd(fd: input, events: Int16(POLLIN), revents: 0),
      pollfd(fd: signalPipe.read, events: Int16(POLLIN), revents: 0),
    ]
    if let watching { descriptors.append(pollfd(fd: watching, events: Int16(POLLIN), revents: 0)) }
    let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
    if ready < 0 { return [] }  // EINTR: a signal, whose byte the next call reads
    var events: [TerminalEvent] = []
    if descriptors[1].revents & Int16(POLLIN) != 0 {
      var signals = [UInt8](repeating: 0, count: 16)
      let count = read(signalPipe.read, &signals, signals.count)
      for signal in signals.prefix(max(0, count)) {
        switch Int32(signal) {
        case SIGWINCH: events.append(.resized)
        case SIGTSTP: events.append(.suspend)
        case SIGCONT:
          if resumedBySuspend {
            resumedBySuspend = false
          } else {
            events.append(.resumed)
          }
        case let other: events.append(.signal(other))
        }
      }
    }
    if descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
      events += readKeys()
    }
    if descriptors.count > 2, descriptors[2].revents != 0 { events.append(.watched) }
    return events
  }

  /// Reads what the terminal sent, and waits ``escapeDelay`` for the rest of a sequence
  /// that began.
  private func readKeys() -> [TerminalEvent] {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = read(input, &buffer, buffer.count)
    if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { return [.hangUp] }
    guard count > 0 else { return [] }
    var keys = decoder.decode(buffer.prefix(count))
    while decoder.hasPending {
      var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
      if poll(&descriptor, 1, Self.escapeDelay) > 0 {
        let more = read(input, &buffer, buffer.count)
        if more <= 0 { break }
        keys += decoder.decode(buffer.prefix(more))
      } else {
        break
      }
    }
    keys += decoder.flushPending()
    return keys.map { .key($0) }
  }

  /// A pipe whose ends do not block and are not inherited by programs this one runs.
  public static func makePipe() -> (read: Int32, write: Int32)? {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return nil }
    for fd in fds {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    return (fds[0], fds[1])
  }

  // MARK: - Signals

  private func installHandlers() {
    for signal in Self.endingSignals + [SIGWINCH, SIGTSTP] {
      install(signal, handler: { signal in SignalState.notify(signal) })
    }
    install(SIGCONT, handler: { signal in SignalState.noteContinued(signal) })
    for signal in Self.fatalSignals {
      install(signal, handler: { signal in SignalState.restoreAndDie(signal) }, resetting: true)
    }
  }

  private func install(
    _ signal: Int32, handler: @escaping @convention(c) (Int32) -> Void, resetting: Bool = false
  ) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_RESTART | (resetting ? Int32(bitPattern: UInt32(SA_RESETHAND)) : 0)
    var previous = sigaction()
    if sigaction(signal, &action, &previous) == 0 { previousActions[signal] = previous }
  }

  private func uninstallHandlers() {
    for (signal, previous) in previousActions {
      var action = previous
      sigaction(signal, &action, nil)
    }
    previousActions.removeAll()
    SignalState.disarm()
  }
}

/// What the signal handlers reach: plain memory set before they are installed, read with
/// async-signal-safe calls only.
private enum SignalState {
  nonisolated(unsafe) static var output: Int32 = -1
  nonisolated(unsafe) static var input: Int32 = -1
  nonisolated(unsafe) static var pipe: Int32 = -1
  nonisolated(unsafe) static var saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
  nonisolated(unsafe) static var restore = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
  nonisolated(unsafe) static var restoreCount = 0
  nonisolated(unsafe) static var armed = false
  /// Set by SIGCONT's handler: the process was stopped and continued.
  nonisolated(unsafe) static var continued = false

  static func prepare(
    output: Int32, input: Int32, saved: termios, restore bytes: [UInt8], pipe: Int32
  ) {
    self.output = output
    self.input = input
    self.pipe = pipe
    self.saved.pointee = saved
    restoreCount = min(bytes.count, 256)
    for index in 0..<restoreCount { restore[index] = bytes[index] }
    armed = true
  }

  static func disarm() {
    armed = false
    pipe = -1
  }

  /// An ending signal, SIGWINCH, SIGTSTP or SIGCONT: its number down the pipe, for the event loop.
  static func notify(_ signal: Int32) {
    guard pipe >= 0 else { return }
    let saveErrno = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = Glibc.write(pipe, &byte, 1)
    errno = saveErrno
  }

  /// SIGCONT: noted for ``TerminalSession/suspend()``, and sent down the pipe.
  static func noteContinued(_ signal: Int32) {
    continued = true
    notify(signal)
  }

  /// A crash: the terminal back as it was, then the signal's own default (the handler was
  /// reset as it ran), raised again.
  static func restoreAndDie(_ signal: Int32) {
    if armed {
      armed = false
      _ = Glibc.write(output, restore, restoreCount)
      _ = tcsetattr(input, TCSAFLUSH, saved)
    }
    raise(signal)
  }
}
