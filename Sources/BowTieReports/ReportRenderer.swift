import BowTieKit
import BowTieModel
import Foundation

/// Turns a ``Report`` into the document `bowties report --format` writes.
///
/// Every format carries the same sections: the counts and average rating, the suggestion,
/// the most, least and never worn ties, the ties not worn in the last `staleDays` days,
/// each of those lists with its total, the wears per month, the rating distribution, and
/// every tie when the report lists them all. The output depends only on the report and
/// the locale (no clock, no random identifiers, no dictionary order), so the same report
/// renders to the same bytes every time.
public enum ReportRenderer {
  /// Renders `report` as one complete document in `format`, ending with a newline.
  ///
  /// - Parameters:
  ///   - locale: Formats the dates meant for people (medium date style) and month names in
  ///     text, Markdown and HTML. JSON and CSV ignore it: they are for programs, so their
  ///     dates are ISO 8601 UTC and their numbers always use a dot.
  public static func render(_ report: Report, as format: ReportFormat, locale: Locale) -> String {
    var text = ""
    do {
      try write(report, ties: report, as: format, locale: locale, to: &text)
    } catch {
      // A report's own lists are in memory: reading them cannot fail.
      preconditionFailure("rendering a report from memory failed: \(error)")
    }
    return text
  }

  /// Writes `report` in `format` to `output`, the ties of its lists read from `ties`.
  static func write(
    _ report: Report, ties: some ReportTieSource, as format: ReportFormat, locale: Locale,
    to output: inout some TextOutputStream
  ) throws {
    switch format {
    case .text: try TextReport.write(report, ties, locale: locale, to: &output)
    case .markdown: try MarkdownReport.write(report, ties, locale: locale, to: &output)
    case .html: try HTMLReport.write(report, ties, locale: locale, to: &output)
    case .json: try JSONReport.write(report, ties, to: &output)
    case .csv: try CSVReport.write(report, ties, to: &output)
    }
  }
}
