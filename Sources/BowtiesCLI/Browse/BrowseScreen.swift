import BowTieKit
import BowTieModel
import Foundation
import TerminalUI

#if canImport(Glibc)
  import Glibc
#endif

/// The browse screen's life: the terminal taken over, the store watched, keys and changes
/// turned into frames, and the terminal given back before anything else is printed.
struct BrowseScreen {
  var store: BowTieStore
  /// Closes a store and opens it again, as browse opened it.
  var reopen: (BowTieStore) throws -> BowTieStore
  var capabilities: TerminalCapabilities
  var color: Bool
  /// Draws photos; nil draws none.
  var photos: BrowsePhoto.Renderer?

  /// Runs until a key, a signal or the terminal ends it.
  ///
  /// - Returns: the exit status: 0 for `q` or Esc, 128 + the signal's number for a signal
  ///   (130 for Ctrl-C), 129 when the terminal hung up.
  /// - Throws: what ends it otherwise (the store gone away, unreadable), with the terminal
  ///   already given back, so that the message goes to the shell's screen.
  func run() throws -> Int32 {
    let session = TerminalSession(capabilities: capabilities)
    do {
      try session.start()
    } catch {
      throw BowTieError.usage(error.message)
    }
    defer { session.restore() }

    var size = session.size()
    let controller = try BrowseController(store: store, reach: Self.reach(columns: size.columns))
    controller.onChange = { [photos] in photos?.forget() }
    var renderer = FrameRenderer(capabilities: capabilities)
    var lastLook = Self.now()
    while true {
      let current = session.size()
      if current.columns != size.columns || current.rows != size.rows {
        size = current
        renderer.invalidate()
        controller.reach = Self.reach(columns: size.columns)
        try controller.refresh()
      }
      let view = BrowseView(
        columns: size.columns, rows: size.rows, color: color, capabilities: capabilities,
        photos: photos)
      let (frame, shownBefore) = view.frame(controller)
      controller.segmentsBefore = shownBefore
      session.write(renderer.render(frame))

      let watch = controller.watch
      let events = session.nextEvents(timeout: watch.interval, watching: watch.descriptor)
      let now = Self.now()
      if events.isEmpty || events.contains(.watched)
        || now - lastLook >= Double(watch.interval) / 1000
      {
        lastLook = now
        try reading(controller) { try controller.lookForChanges() }
      }
      for event in events {
        switch event {
        case .key(let key):
          switch try reading(controller, { try controller.handle(key) }) {
          case .stay: break
          case .quit(let status): return status
          case .suspend: suspend(session, controller, &renderer)
          }
        case .suspend:
          suspend(session, controller, &renderer)
        case .resumed:
          session.resume()
          renderer.invalidate()
        case .resized:
          renderer.invalidate()
        case .signal(let signal):
          return 128 + signal
        case .hangUp:
          return 128 + SIGHUP
        case .watched:
          break
        }
      }
    }
  }

  /// Runs `body`, which reads the store. A store this process reads without locks (it may
  /// not write it) holds no snapshot another process's write must wait for, so after such a
  /// write what was read is not trusted (``BowTieError/storeChangedWhileRead(path:)``): a
  /// command ends with 75, to be run again; the screen opens the store again, reads its
  /// ties from it, and runs `body` again. That is safe, since nothing was written: a store
  /// read without locks refuses every write. A store written more often than it can be
  /// read still ends the screen with 75, after a few tries.
  private func reading<T>(_ controller: BrowseController, _ body: () throws -> T) throws -> T {
    var tries = 0
    while true {
      do {
        if tries > 0 { try controller.reopen(on: reopen(controller.store)) }
        return try body()
      } catch BowTieError.storeChangedWhileRead where tries < Self.rereads {
        tries += 1
        // At once the first time; then a writer's next commit is given time to land.
        if tries > 1 { usleep(50_000) }
      }
    }
  }

  /// How many times a read is run again on the store opened again.
  static let rereads = 10

  /// Stops until `fg`, the terminal given back meanwhile; then the whole frame again, since
  /// the shell drew on the screen. Where no shell can continue it, says so and stays.
  private func suspend(
    _ session: TerminalSession, _ controller: BrowseController, _ renderer: inout FrameRenderer
  ) {
    if !session.suspend() { controller.couldNotSuspend() }
    renderer.invalidate()
  }

  /// Segments read on each side of the tie: more than a row of this width can show.
  static func reach(columns: Int) -> Int { max(8, columns / 3) }

  private static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
