import Foundation

/// Every failure the persistence core reports.
///
/// The command-line tool maps each case to an exit status in one place
/// (`ExitStatus.swift` in the `bowties` target); the core never exits.
public enum BowTieError: Error, Equatable, Sendable {
  // MARK: Finding ties

  /// No tie matches what the user typed.
  case noSuchTie(String)
  /// Several ties match what the user typed; `candidates` are their names, eleven standing
  /// for more than ten, of which ten are listed.
  case ambiguousTie(String, candidates: [String])

  // MARK: Invalid data

  /// A tie failed validation before a save.
  case invalidTie(name: String, ValidationFailure)
  /// A seed file entry is unusable. `index` is zero-based, as plist array items are
  /// numbered; `key` names the entry's attribute at fault, when one is.
  case invalidSeedEntry(index: Int, name: String?, key: String?, reason: String)
  /// A seed file as a whole is unusable (not a property list, wrong top-level shape).
  case invalidSeedFile(source: String, reason: String)
  /// A value given on the command line or at a prompt is unusable.
  case invalidValue(String)
  /// The command line cannot be acted on (a missing argument, no way to find the store).
  case usage(String)

  // MARK: Input files

  /// An input file is missing or cannot be read.
  case inputUnreadable(path: String, reason: String)
  /// A backup to restore holds what bowties refuses to use (a photo file name or an undo
  /// entry that could reach outside the store).
  case invalidBackup(path: String, reason: String)
  /// The photo a seed entry names cannot be read, or is not a photo bowties can use.
  case seedImageUnreadable(index: Int, name: String?, path: String, reason: String)
  /// The photo a seed entry names is in none of the places looked in (`images/`, then
  /// the asset catalogs beside the plist).
  case seedImageMissing(
    index: Int, name: String?, imageName: String, lookedIn: [String], catalogsFound: Bool)

  /// An output file cannot be written.
  case outputUnwritable(path: String, reason: String)
  /// Standard output's reader has gone, as `head` goes once it has its lines: nothing to
  /// report, and the command ends quietly, as `cat` does (`ExitStatus` in the CLI).
  case outputClosed

  // MARK: The store

  /// The store cannot be opened or read, or it is damaged.
  case storeUnreadable(path: String, reason: String)
  /// The store cannot be written (read-only file or folder, full disk…).
  case storeNotWritable(path: String, reason: String)
  /// The store was written by a newer bowties whose schema this one does not know.
  case storeFromNewerVersion(path: String, unknownMigrations: [String])
  /// Another process held the store past the busy timeout.
  case storeBusy(path: String)
  /// Another process wrote the store while it was read without SQLite's locks (a store
  /// this user may not write): what was read is not trusted.
  case storeChangedWhileRead(path: String)
  /// The value transformer the model names is not registered.
  case transformerNotRegistered(String)
  /// The tie has no photo to write out.
  case noPhoto(tie: String)
  /// A tie's photo lives in a file that is missing or unreadable.
  case photoUnavailable(tie: String, path: String, reason: String)
  /// Undo would take back a change to a tie that another user changed since.
  case changedByOtherUser(tie: String, change: String, user: String)
}

/// Which attribute failed validation, and why, like Core Data's "rating is too large".
public struct ValidationFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// The attribute's name as in the model and the seed format (`rating`, `timesWorn`…).
  public var attribute: String
  /// A short explanation, e.g. "7.5 is outside 0…5".
  public var reason: String

  public init(attribute: String, reason: String) {
    self.attribute = attribute
    self.reason = reason
  }

  public var description: String { "\(attribute) \(reason)" }
}

extension BowTieError: LocalizedError {
  public var errorDescription: String? {
    switch self {
    case .noSuchTie(let query):
      return "no tie matches '\(query.excerpt)'"
    case .ambiguousTie(let query, let candidates):
      let listed = candidates.prefix(10).joined(separator: ", ")
      return candidates.count > 10
        ? "'\(query.excerpt)' matches more than 10 ties: \(listed), …"
        : "'\(query.excerpt)' matches \(candidates.count) ties: \(listed)"
    case .invalidTie(let name, let failure):
      return name.trimmingSpaces().isEmpty ? "\(failure)" : "\(name.excerpt): \(failure)"
    case .invalidSeedEntry(let index, let name, let key, let reason):
      let label = name.map { " (\($0.excerpt))" } ?? ""
      return "entry \(index)\(label): \(key.map { "\($0) " } ?? "")\(reason)"
    case .seedImageUnreadable(let index, let name, let path, let reason):
      let label = name.map { " (\($0.excerpt))" } ?? ""
      return "entry \(index)\(label): imageName: cannot read \(path): \(reason)"
    case .seedImageMissing(let index, let name, let imageName, let places, let catalogsFound):
      let label = name.map { " (\($0.excerpt))" } ?? ""
      let whereLooked =
        catalogsFound
        ? "not in \(places.joined(separator: " nor in "))"
        : "not in \(places.joined(separator: " nor in ")), and no asset catalog (*.xcassets) is beside the plist"
      return "entry \(index)\(label): imageName: \(imageName) is \(whereLooked); "
        + "seed with --no-photos to add the ties without their photos"
    case .invalidSeedFile(let source, let reason):
      return "\(source): \(reason)"
    case .invalidValue(let reason), .usage(let reason):
      return reason
    case .inputUnreadable(let path, let reason):
      return "cannot read \(path): \(reason)"
    case .invalidBackup(let path, let reason):
      return "cannot restore \(path): \(reason); nothing was changed"
    case .outputUnwritable(let path, let reason):
      return "cannot write \(path): \(reason)"
    case .outputClosed:
      return "cannot write standard output: nothing reads it any more"
    case .storeUnreadable(let path, let reason):
      return "cannot use the store \(path): \(reason)"
    case .storeNotWritable(let path, let reason):
      return "cannot write the store \(path): \(reason)"
    case .storeFromNewerVersion(let path, let unknown):
      return "the store \(path) was written by a newer bowties "
        + "(unknown schema versions: \(unknown.joined(separator: ", "))); upgrade bowties to use it"
    case .changedByOtherUser(let tie, let change, let user):
      return "cannot undo your \(change) of \(tie): \(user) changed it since; "
        + "undo as that user, or change the tie again"
    case .storeBusy(let path):
      return "the store \(path) is busy: another process held it past the timeout; try again"
    case .storeChangedWhileRead(let path):
      return "the store \(path) changed while it was read; try again "
        + "(it is read without locks, since this user may not write it)"
    case .transformerNotRegistered(let name):
      return "the value transformer '\(name)' is not registered; "
        + "call \(name).register() before opening the store"
    case .noPhoto(let tie):
      return "\(tie) has no photo"
    case .photoUnavailable(let tie, let path, let reason):
      return "\(tie): photo file \(path) \(reason)"
    }
  }
}
