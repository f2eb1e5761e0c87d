import CLibXML2
import ForumModel
import Foundation

@testable import AwfulScraping
@testable import BotCore

/// What one fuzz run feeds its input to. The scrapers read HTML from the forum (untrusted: posts are written by
/// anyone), the command parser reads chat lines (untrusted: anyone in a room), the picture sniffer reads whatever a
/// linked host serves, the retry readers what a wall or a homeserver answers: none may crash, hang or read out of
/// bounds, whatever the bytes. Errors thrown for pages that do not scrape are fine; a trap, a sanitizer report or a
/// failed consistency check below is a finding.
enum FuzzTarget: String, CaseIterable, Sendable {
  /// Bookmarks and forum pages (`ThreadListScraper`, with each expectation).
  case threadList = "threadlist"
  /// Thread pages (`PostsPageScraper`).
  case posts
  /// `announcement.php` (`AnnouncementsScraper`).
  case announcements
  /// `showthread.php?action=showpost` (`ShowPostScraper`).
  case showPost = "showpost"
  /// The forum's error pages (`ErrorPageScraper`), page recognition (`PageKind`) and the probation banner
  /// (`ProbationScraper`).
  case errorPage = "errorpage"
  /// The reply form and the answer to a reply (`ReplyFormScraper`, `ReplyResultScraper`).
  case reply
  /// `index.php?json=1` (`ForumIndexScraper`).
  case forumIndex = "forumindex"
  /// Private message folders, messages and the answer to sending one (`PrivateMessageFolderScraper`,
  /// `PrivateMessageScraper`, `PrivateMessageSendResultScraper`).
  case privateMessages = "privatemessages"
  /// The Leper's Colony and rap sheets (`LepersColonyScraper`) and the profile a user name is looked up on
  /// (`ProfileUserScraper`).
  case lepers
  /// A post body fragment through `PostContent`, the rich-text converter, and the HTML serialiser, which must write
  /// what libxml2 writes.
  case body
  /// The forum's date strings (`ForumDates`).
  case dates
  /// Chat lines through `CommandParser`, then the argument scanner, thread references and durations the handlers
  /// apply to the arguments.
  case commands
  /// A picture's first bytes through `ImageSniffer` and the size limits (`Image.excess(maxPixels:)`).
  case picture
  /// A `Retry-After` value through `RetryAfterHeader`, the forum client's wall reader and the Matrix client's.
  case retryAfter = "retryafter"
  /// A homeserver's error body through `MatrixAPIError.parse` and the retry rules.
  case matrixError = "matrixerror"
  /// The search's results pages and its refusals (`SearchResultsScraper`), and the chat snippet made of a result.
  case search
  /// Discord's answers to a webhook request (rate-limit headers, error bodies, message ids) and a post rendered as
  /// Discord messages (`FuzzDiscord`).
  case discord

  /// Whether the seed corpus is HTML pages (else short text lines).
  var readsPages: Bool {
    switch self {
    case .body, .dates, .commands, .forumIndex, .picture, .retryAfter, .matrixError, .discord: false
    default: true
    }
  }

  func run(_ bytes: UnsafeRawBufferPointer) {
    switch self {
    case .threadList:
      for expectation in [ThreadListScraper.Expectation.any, .bookmarks, .forum] {
        _ = try? ThreadListScraper().scrape(data: Data(bytes), url: Self.url, expecting: expectation)
      }
    case .posts:
      _ = try? PostsPageScraper().scrape(data: Data(bytes), url: Self.url)
    case .announcements:
      _ = try? AnnouncementsScraper().scrape(data: Data(bytes), url: Self.url)
    case .showPost:
      _ = try? ShowPostScraper().scrape(data: Data(bytes), url: Self.url)
    case .errorPage:
      _ = try? ErrorPageScraper().scrape(data: Data(bytes), url: Self.url)
      _ = PageKind.detect(data: Data(bytes), url: Self.url)
      if let document = try? HTMLDocument(data: Data(bytes), url: Self.url) { _ = ProbationScraper().scrape(document) }
    case .reply:
      _ = try? ReplyFormScraper().scrape(data: Data(bytes), url: Self.url)
      _ = try? ReplyResultScraper().scrape(data: Data(bytes), url: Self.url)
    case .forumIndex:
      _ = try? ForumIndexScraper().scrape(data: Data(bytes), url: Self.url)
    case .privateMessages:
      let data = Data(bytes)
      _ = try? PrivateMessageScraper().scrape(data: data, url: Self.url)
      _ = try? PrivateMessageFolderScraper().scrape(data: data, url: Self.url)
      _ = try? PrivateMessageSendResultScraper().scrape(data: data, url: Self.url)
    case .lepers:
      FuzzLepers.run(bytes)
    case .body:
      FuzzBody.run(bytes)
    case .discord:
      FuzzDiscord.run(bytes)
    case .dates:
      _ = ForumDates().date(from: String(decoding: bytes, as: UTF8.self))
    case .commands:
      FuzzCommands.run(bytes)
    case .picture:
      FuzzPicture.run(bytes)
    case .retryAfter:
      FuzzRetryAfter.run(bytes)
    case .matrixError:
      FuzzMatrixError.run(bytes)
    case .search:
      if let page = try? SearchResultsScraper().scrape(data: Data(bytes), url: Self.url) {
        for result in page.results { _ = SearchCommands.snippetParts(result.snippet) }
      }
    }
  }

  static let url = URL(
    string: "https://forums.somethingawful.com/showthread.php?threadid=3507451&perpage=40&pagenumber=5")!
}

/// The `body` target.
enum FuzzBody {
  static func run(_ bytes: UnsafeRawBufferPointer) {
    // The fragment inside a post body cell, as the forum's pages carry it (UTF-8, so any text stays as sent).
    var page = Data("<html><body><table class=\"post\" id=\"post1\"><tr><td class=\"postbody\">".utf8)
    page.append(contentsOf: bytes)
    page.append(contentsOf: "</td></tr></table></body></html>".utf8)
    guard let document = try? HTMLDocument(data: page, contentTypeCharset: "utf-8"),
      let cell = document.body?.firstDescendant("td", class: "postbody")
    else { return }
    let content = PostContent(cell)
    _ = PostBodyConverter(baseURL: FuzzTarget.url).convert(content.nodes)
    _ = HTMLNode.serializeTrimmed(content.nodes)
    // Our serialiser must agree with libxml2's on every subtree it writes itself.
    var elements = [cell]
    cell.walkDescendants { node in
      if node.isElement { elements.append(node) }
      return .descend
    }
    for element in elements {
      let children = element.children.map(\.raw)
      guard let ours = HTMLSerializer.withBytes(of: children, { Array($0) }) else { continue }
      let theirs = HTMLNode.serializeWithLibXML2(children) { String(decoding: $0, as: UTF8.self) }
      if String(decoding: ours, as: UTF8.self) != theirs {
        fatalError("serialisers differ under <\(element.name)>: ours \(ours) libxml2 \(Array(theirs.utf8))")
      }
    }
  }
}

/// The `commands` target.
enum FuzzCommands {
  static let parsers = [
    CommandParser(prefix: "!", botNames: ["AwfulBot"]), CommandParser(prefix: "..", botNames: ["bot", "b"]),
    CommandParser(prefix: "", botNames: ["awfulbot"]),
  ]

  static func run(_ bytes: UnsafeRawBufferPointer) {
    // The first byte picks a parser and whether the line came in a direct conversation.
    guard let first = bytes.first else { return }
    let line = String(decoding: bytes.dropFirst(), as: UTF8.self)
    let parser = parsers[Int(first) % parsers.count]
    guard case .success(let input)? = parser.parse(line, isDirect: first & 0x80 != 0) else { return }
    // As handlers ask for it: the text after the first few arguments, and past the end. (Every index would make the
    // harness itself quadratic on a line of many words.)
    let count = input.arguments.count
    for index in Set([0, 1, 2, max(count - 1, 0), count, count + 1]) { _ = input.rest(from: index) }
    let values = input.arguments.map(\.value)
    _ = try? ArgumentScanner(values, flags: ["op-only"], valueOptions: ["author", "keyword", "not-author", "backfill"])
    for value in values {
      _ = ThreadReference.parse(value, baseURL: URL(string: "https://forums.somethingawful.com/")!)
      _ = DurationText.parse(value)
    }
  }
}
