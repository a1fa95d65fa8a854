import BowTieKit
import BowTieModel
import Foundation
import TerminalUI

/// What the browse screen shows and what its keys do, apart from the terminal: the tie on
/// screen and its neighbours, a prompt if one is open, and the last action's outcome.
///
/// Every change goes through the store method its command uses (`wear`, `rate`,
/// `favorite`, `undo`), so it is one transaction, in the history and the undo log as the
/// command's would be.
final class BrowseController {
  /// The store, and what tells of another process's changes to it; both replaced when the
  /// store is opened again (``reopen(on:)``).
  private(set) var store: BowTieStore
  private(set) var watch: any StoreChangeWatch
  /// How many segments are read on each side of the tie: enough to fill the row.
  var reach: Int
  private(set) var window: TieWindow
  private(set) var mode = Mode.main
  /// The outcome of the last action, or a refusal, for the status line.
  private(set) var message: String?
  /// How many segments before the tie the row showed last: the row scrolls only when the
  /// selection would leave it.
  var segmentsBefore = 0
  /// Called when the store changed, so that what was drawn from it is drawn again.
  var onChange: () -> Void = {}

  enum Mode: Equatable {
    case main
    /// `r`: the tie it rates, the rating typed so far, and why the last one was refused.
    case rating(tie: BowTie, field: String, refusal: String?)
    /// `/`: the TIE typed so far, and why the last one found none.
    case finding(field: String, refusal: String?)
    case help
  }

  /// What a key leads to.
  enum Outcome: Equatable {
    case stay
    /// End the program with this exit status.
    case quit(Int32)
    /// Give the terminal back to the shell and stop, until `fg`.
    case suspend
  }

  /// The longest text a prompt takes: a rating or a TIE is short.
  static let fieldLimit = 80

  init(store: BowTieStore, reach: Int) throws(BowTieError) {
    self.store = store
    self.reach = reach
    // Watching starts before the first read, so that no change after it goes unnoticed.
    watch = try store.watchChanges()
    window = try store.window(at: .first, reach: reach)
  }

  // MARK: - Reading

  /// Reads the window again around the tie on screen (or its place, if it is gone): after
  /// a change here, or another client's. Returns whether anything on screen changed.
  @discardableResult
  func refresh() throws(BowTieError) -> Bool {
    let before = window
    try load(window.segment.map { .tie($0) } ?? .first)
    let changed =
      window.tie != before.tie || window.before != before.before || window.after != before.after
    // A prompt rates the tie it was opened on: when another process removed it, the prompt
    // closes rather than rate the tie that took its place.
    if case .rating(let tie, _, _) = mode, window.tie?.id != tie.id {
      mode = .main
      message = "\(tie.name) was removed by another process: nothing rated"
    }
    if changed { onChange() }
    return changed
  }

  /// Reads the window again when another process changed the store since the last look.
  /// The status line spoke of the tie on screen: when another process's change puts another
  /// tie there (it removed the one shown), the line is cleared rather than left describing a
  /// tie no longer in sight.
  func lookForChanges() throws(BowTieError) {
    guard try watch.changed() else { return }
    let shown = window.tie?.id
    let wasMain = mode == .main
    try refresh()
    if wasMain && window.tie?.id != shown { message = nil }
  }

  /// Goes on with `store`, the same store opened again: what was read from the one before
  /// is read again, photos too.
  func reopen(on store: BowTieStore) throws(BowTieError) {
    self.store = store
    watch = try store.watchChanges()
    onChange()
    try refresh()
  }

  /// Ctrl-Z did not stop the program (no shell with job control started it): the status
  /// line says why it stayed.
  func couldNotSuspend() {
    message = "Ctrl-Z: the shell that started browse has no job control to stop it"
  }

  private func load(_ anchor: TieWindowAnchor) throws(BowTieError) {
    window = try store.window(at: anchor, reach: reach)
  }

  private func select(id: UUID) throws(BowTieError) {
    try load(.tieID(id))
  }

  // MARK: - Keys

  func handle(_ key: Key) throws(BowTieError) -> Outcome {
    // Ctrl-C ends the program from anywhere, as the shell's interrupt would.
    if key == .control("c") { return .quit(130) }
    // Ctrl-Z too, as the shell's suspend would: raw mode turns both signals into keys.
    if key == .control("z") { return .suspend }
    switch mode {
    case .main: return try handleMain(key)
    case .help:
      mode = .main
      return .stay
    case .rating(let tie, let field, let refusal):
      switch edit(field, with: key) {
      case .editing(let text): mode = .rating(tie: tie, field: text, refusal: refusal)
      case .cancelled: mode = .main
      case .confirmed(let text): try confirmRating(text, of: tie)
      }
      return .stay
    case .finding(let field, let refusal):
      switch edit(field, with: key) {
      case .editing(let text): mode = .finding(field: text, refusal: refusal)
      case .cancelled: mode = .main
      case .confirmed(let text): try confirmFind(text)
      }
      return .stay
    }
  }

  private func handleMain(_ key: Key) throws(BowTieError) -> Outcome {
    message = nil
    switch key {
    case .left, .backTab, .up:
      if let previous = window.before.first {
        try load(.tie(previous))
        segmentsBefore -= 1
      }
    case .right, .tab, .down:
      if let next = window.after.first {
        try load(.tie(next))
        segmentsBefore += 1
      }
    case .home:
      try load(.first)
      segmentsBefore = 0
    case .end:
      try load(.last)
      segmentsBefore = Int.max
    case .character("/"):
      mode = .finding(field: "", refusal: nil)
    case .character("w"):
      try change { tie throws(BowTieError) in
        let worn = try store.wear(tie.id.uuidString)
        return
          "wore \(worn.name): worn \(counted(Int(worn.timesWorn), "time")), last \(TieOutput.day(Date()))"
      }
    case .character("r"):
      if let tie = window.tie {
        mode = .rating(tie: tie, field: "", refusal: nil)
      } else {
        message = Self.noTie
      }
    case .character("f"):
      try change { tie throws(BowTieError) in
        let changed = try store.favorite(tie.id.uuidString, .toggle)
        return changed.isFavorite
          ? "\(changed.name) is a favorite" : "\(changed.name) is no longer a favorite"
      }
    case .character("u"):
      try undo()
    case .character("?"):
      mode = .help
    case .character("q"), .escape:
      return .quit(0)
    default:
      break
    }
    return .stay
  }

  /// What `w`, `r` and `f` say in a store without ties, whose screen says how to add one.
  static let noTie = "no tie to change: the store has none"

  /// Runs a change of the tie on screen and says how it went; a refusal (the tie removed
  /// meanwhile, the store busy or read-only) is said, not fatal.
  private func change(_ body: (BowTie) throws(BowTieError) -> String) throws(BowTieError) {
    guard let tie = window.tie else {
      message = Self.noTie
      return
    }
    do {
      message = try body(tie)
    } catch  where Self.isRefusal(error) {
      message = error.localizedDescription
    }
    try refresh()
  }

  private func undo() throws(BowTieError) {
    do {
      guard let undone = try store.undo() else {
        message = "nothing to undo"
        return
      }
      message = Bowties.Undo.describe(undone)
      if let tie = undone.tie {
        try select(id: tie.id)
        onChange()
      } else {
        try refresh()
      }
    } catch  where Self.isRefusal(error) {
      message = error.localizedDescription
      try refresh()
    }
  }

  private func confirmRating(_ text: String, of tie: BowTie) throws(BowTieError) {
    let rating: Double
    do {
      rating = try BowTie.parseRating(text)
    } catch {
      // As the app's alert: asked again, the field empty, the reason given.
      mode = .rating(tie: tie, field: "", refusal: error.localizedDescription)
      return
    }
    mode = .main
    try change { onScreen throws(BowTieError) in
      let previous = onScreen.id == tie.id ? onScreen.rating : tie.rating
      // By the id of the tie the prompt was opened on: if it is gone, the store says so.
      let rated = try store.rate(tie.id.uuidString, rating: rating)
      return "rated \(rated.name) \(BowTie.formatRating(rated.rating))/5 "
        + "(was \(BowTie.formatRating(previous))/5)"
    }
  }

  private func confirmFind(_ text: String) throws(BowTieError) {
    // As the rating prompt says of an empty answer: nothing typed is not a tie not found.
    guard !text.isEmpty else {
      mode = .finding(
        field: text, refusal: "a tie is needed: a search key, a name or its beginning")
      return
    }
    do {
      let found = try store.tie(matching: text)
      mode = .main
      try select(id: found.id)
      segmentsBefore = Int.max / 2
    } catch  where Self.isRefusal(error) {
      mode = .finding(field: text, refusal: error.localizedDescription)
    }
  }

  /// Errors the screen says and goes on from; any other ends the program with its exit
  /// code (the store unreadable, from a newer bowties).
  static func isRefusal(_ error: BowTieError) -> Bool {
    switch error {
    case .noSuchTie, .ambiguousTie, .invalidValue, .invalidTie, .changedByOtherUser, .storeBusy,
      .storeNotWritable, .usage:
      true
    default:
      false
    }
  }

  // MARK: - Prompts

  private enum Editing {
    case editing(String)
    case cancelled
    case confirmed(String)
  }

  /// A prompt's field after `key`: typed characters added, Backspace taking the last one,
  /// Enter confirming, Esc cancelling.
  private func edit(_ field: String, with key: Key) -> Editing {
    switch key {
    case .enter: return .confirmed(field)
    case .escape: return .cancelled
    case .backspace: return .editing(String(field.dropLast()))
    case .character(let character) where field.count < Self.fieldLimit:
      return .editing(field + String(character))
    default: return .editing(field)
    }
  }
}
