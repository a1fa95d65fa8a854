import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation
import TerminalUI

extension Bowties {
  struct Browse: BowtiesCommand {
    static let configuration = CommandConfiguration(
      commandName: "browse",
      abstract:
        "Browse your ties full-screen, one at a time with its photo, as the app shows them.",
      discussion: """
        Keys: Left and Right (or Tab and Shift-Tab) move between ties, Home and End go to \
        the first and the last; / finds a tie (a TIE, as the commands take it); w wears the \
        tie now; r rates it (0 to 5; Enter confirms, Esc cancels); f marks it a favorite or \
        no longer; u undoes your last change; ? shows the keys; q or Esc quits; Ctrl-Z \
        suspends it to the shell (fg brings it back). Changes made elsewhere show within \
        two seconds.

        It needs a terminal on stdin and stdout, and TERM naming its type; in scripts and \
        pipes, use show and list. Ctrl-C ends it with 130, SIGTERM with 143, SIGHUP with 129.
        """)

    @OptionGroup var storeOptions: StoreOptions

    // The terminal is checked before the store is opened, or created; and once the line is
    // parsed, so that `browse --help | less` is help, and `browse --bogus` an unknown option.
    func run(in context: CommandContext) throws {
      try Self.checkTerminal(
        inputIsTerminal: Terminal.standardInputIsTerminal,
        outputIsTerminal: Terminal.standardOutputIsTerminal,
        term: ProcessEnvironment.value("TERM"))
      let capabilities: TerminalCapabilities
      do {
        capabilities = try TerminalCapabilities.load(term: ProcessEnvironment.value("TERM") ?? "")
      } catch {
        throw BowTieError.usage("browse cannot draw here: \(error.message)")
      }
      let store = try context.open(storeOptions)
      let color = Terminal.usesColor
      // Asked before the screen is taken over: detection may ask the terminal itself.
      let photos = color ? BrowsePhoto.Renderer(drawing: PhotoDrawing.forStandardOutput()) : nil
      let screen = BrowseScreen(
        store: store, reopen: { try context.reopen($0, storeOptions) }, capabilities: capabilities,
        color: color, photos: photos)
      let status = try screen.run()
      if status != 0 { throw ExitCode(status) }
    }

    /// Refuses to start where no person can use a full screen: without a terminal on both
    /// ends, or without a `TERM` that can move the cursor.
    static func checkTerminal(inputIsTerminal: Bool, outputIsTerminal: Bool, term: String?)
      throws(BowTieError)
    {
      guard inputIsTerminal && outputIsTerminal else {
        throw .usage(
          "browse needs a terminal on stdin and stdout; in scripts and pipes, use "
            + "bowties show TIE or bowties list")
      }
      guard let term, !term.isEmpty else {
        throw .usage(
          "browse needs TERM to name the terminal's type; without it, use bowties show TIE "
            + "or bowties list")
      }
      guard term != "dumb" else {
        throw .usage(
          "browse cannot draw on TERM=dumb, which cannot move the cursor; use bowties show TIE "
            + "or bowties list")
      }
    }
  }
}
