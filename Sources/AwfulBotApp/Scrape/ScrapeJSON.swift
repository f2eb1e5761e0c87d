import ForumModel
import Foundation

/// The one encoding of `awfulbot scrape` output (docs/scrape.md): the scraping models encode themselves, and this
/// encoder alone decides how they read. Pretty-printed with sorted keys and unescaped slashes, for a person to diff;
/// dates as ISO-8601 UTC strings; a value the page does not have is left out (the models' synthesised coding), never
/// written as null; bodies in the form `--body` asks for.
enum ScrapeJSON {
  static func encode(_ value: some Encodable, bodyFormat: ScrapeBodyFormat) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    encoder.userInfo[RichTextBody.formKey] = bodyFormat.richTextForm
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}
