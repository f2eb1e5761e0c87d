import ChatBridge
import ForumModel
import Foundation

/// `search`: the forum's own search (Platinum accounts only) from chat. `search <words>` searches the forums the room
/// follows (every forum when it follows none), `search thread <thread> <words>` one thread (`threadid:N` in the
/// query, as the forum's search form takes it), `search forum <id> <words>` one forum; `search more` pages on through
/// the room's last search. Each answer lists a few results (thread, poster, date, the forum's snippet with the
/// matched words in bold, a link that opens the post) and says how many there are.
///
/// A search is the forum's two requests (the POST and the results it redirects to), a `more` none while the forum's
/// page still holds results to show and one for the next page; both are charged to the command budget, and each
/// user may search `commands.userSearchesPerMinute` times a minute (one by default).
enum SearchCommands {
  static let spec = CommandSpec(
    name: "search", usage: "<words> | thread <thread> <words> | forum <id> <words> | more",
    summary:
      "Search the forum (the forums this room follows, or all), one thread or one forum; “more” shows the next "
      + "results.",
    role: .viewer, takesRawText: true, run: run)

  /// Results shown per answer: a chat message, not the forum's page of 20.
  static let resultsPerAnswer = 5
  /// The longest search the bot sends (the words are the asker's; longer is refused, never cut).
  static let maximumWords = 200
  /// The longest snippet shown, in characters; a longer one ends in "…".
  static let maximumSnippet = 240

  static func run(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let raw = ChatText.stripControls(input.rawArguments).trimmingCharacters(in: .whitespacesAndNewlines)
    if raw.lowercased() == "more" { return try await more(context) }
    let request = try await scope(of: raw, context)
    guard !request.words.isEmpty else { throw CommandError.usage("Say what to search for.") }
    guard request.words.count <= maximumWords else {
      throw CommandError.failed(
        "That search is \(request.words.count) characters long; the bot sends at most \(maximumWords), so say it "
          + "in fewer words.")
    }
    if let refusal = await context.searches.admitSearch(user: userKey(context), now: context.now) {
      throw CommandError.failed(
        "You may search \(refusal.limit == 1 ? "once" : "\(refusal.limit) times") a minute (the forum limits its "
          + "searches too); try again in \(NameList.count(refusal.wait, "second")).")
    }
    let page: SearchResultsPage
    do {
      page = try await context.forum.search(query: request.query, forumIDs: request.forumIDs)
    } catch {
      // The forum did not search (its refusal, a wall, an outage): the user's search of the minute is not spent.
      await context.searches.refundSearch(user: userKey(context), at: context.now)
      if let refusal = error as? SearchRefusal { throw CommandError.failed(refusal.description) }
      throw error
    }
    guard !page.results.isEmpty else {
      await context.searches.forget(room: context.room)
      let hint =
        switch request.unscopedKeyword {
        case "thread"?: " To search one thread: \(context.prefix)search thread <thread id or link> <words>."
        case "forum"?: " To search one forum: \(context.prefix)search forum <forum id> <words>."
        default: ""
        }
      return CommandReply("The forum found nothing for “\(request.words)” \(request.place).\(hint)")
    }
    var session = SearchBook.Session(
      words: request.words, queryID: page.queryID, page: page.navigation?.current ?? 1,
      pages: page.navigation?.total ?? 1, totalResults: page.totalResults, results: page.results, shown: 0,
      shownBefore: 0, expires: context.now.addingTimeInterval(SearchBook.sessionLifetime))
    if session.totalResults == nil, session.pages == 1 { session.totalResults = page.results.count }
    return await answer(&session, place: request.place, context)
  }

  /// The next results of the room's last search: from the page already read, else the forum's next page.
  private static func more(_ context: CommandContext) async throws -> CommandReply {
    guard var session = await context.searches.session(room: context.room, now: context.now) else {
      throw CommandError.failed(
        "There is no search to page through in this room (a search lasts \(Int(SearchBook.sessionLifetime / 60)) "
          + "minutes); \(context.prefix)search <words> starts one.")
    }
    if session.shown >= session.results.count {
      guard session.page < session.pages, let queryID = session.queryID else {
        await context.searches.forget(room: context.room)
        let total = session.totalResults ?? session.shownBefore + session.results.count
        return CommandReply(
          (total == 1 ? "That was the only result" : "That was the last of the \(countText(session))")
            + " for “\(session.words)”; there are no more.")
      }
      let next: SearchResultsPage
      do {
        next = try await context.forum.searchResults(queryID: queryID, page: session.page + 1)
      } catch let refusal as SearchRefusal {
        throw CommandError.failed(refusal.description)
      }
      guard !next.results.isEmpty else {
        await context.searches.forget(room: context.room)
        return CommandReply("The forum lists no more results for “\(session.words)”.")
      }
      session.shownBefore += session.results.count
      session.results = next.results
      session.shown = 0
      session.page = next.navigation?.current ?? session.page + 1
      session.pages = max(next.navigation?.total ?? session.pages, session.page)
      session.totalResults = next.totalResults ?? session.totalResults
    }
    return await answer(&session, place: nil, context)
  }

  /// Lists the next few results of `session`, remembers how far it got, and says how to go on.
  private static func answer(_ session: inout SearchBook.Session, place: String?, _ context: CommandContext) async
    -> CommandReply
  {
    let shown = Array(session.results.dropFirst(session.shown).prefix(resultsPerAnswer))
    let numbers = shown.enumerated().map { offset, result in
      result.number ?? session.shownBefore + session.shown + offset + 1
    }
    let first = numbers.first ?? 1
    let last = numbers.last ?? first
    let range = first == last ? "Result \(first)" : "Results \(first)–\(last)"
    let of = session.totalResults.map { " of \($0)" } ?? ""
    let pageNote =
      session.totalResults == nil ? " (page \(session.page) of the forum's \(session.pages) pages of results)" : ""
    var reply = CommandReply()
    reply.add(
      sentence: [.text("\(range)\(of) for “\(session.words)”\(place.map { " \($0)" } ?? "")\(pageNote):")])
    for (result, number) in zip(shown, numbers) {
      reply.add(item: parts(result, number: number, context))
    }
    session.shown += shown.count
    let hasMore = session.shown < session.results.count || (session.page < session.pages && session.queryID != nil)
    if hasMore {
      reply.add(.text("Say "), .code("\(context.prefix)search more"), .text(" for the next results."))
      await context.searches.store(session, room: context.room, now: context.now)
    } else {
      reply.add(session.shown + session.shownBefore == 1 ? "That is the only result." : "That is all of them.")
      // Kept, so a `more` now says the search is over rather than that there is none.
      await context.searches.store(session, room: context.room, now: context.now)
    }
    return reply
  }

  /// "12. Thread title — by Poster, date, in Forum: “…snippet…”", the title linking the post.
  private static func parts(_ result: SearchResult, number: Int, _ context: CommandContext) -> [CommandReply.Part] {
    var parts: [CommandReply.Part] = [
      .text("\(number). "),
      .link(
        label: result.threadTitle.isEmpty ? "Post \(result.postID)" : result.threadTitle,
        url: context.links.post(id: result.postID)),
    ]
    var details: [CommandReply.Part] = []
    if let author = result.author?.name { details.append(.text("by \(author)")) }
    if let date = result.date {
      details.append(context.composer.dates.part(date))
    } else if let text = result.dateText {
      details.append(.text(text))
    }
    if !result.forumTitle.isEmpty { details.append(.text("in \(result.forumTitle)")) }
    for (index, detail) in details.enumerated() {
      parts.append(.text(index == 0 ? " — " : ", "))
      parts.append(detail)
    }
    let snippet = snippetParts(result.snippet)
    if !snippet.isEmpty { parts += [.text(": “")] + snippet + [.text("”")] }
    return parts
  }

  /// The forum's snippet on one line: its marked words (`<em>`, italic) in bold, the rest as text, at most
  /// `maximumSnippet` characters (a longer one ends in "…").
  static func snippetParts(_ snippet: [RichText]) -> [CommandReply.Part] {
    var pieces: [(text: String, marked: Bool)] = []
    func walk(_ nodes: [RichText], marked: Bool) {
      for node in nodes {
        switch node {
        case .text(let text): pieces.append((text, marked))
        case .italic(let children), .bold(let children): walk(children, marked: true)
        case .lineBreak: pieces.append((" ", false))
        case .paragraph(let children), .underline(let children), .strike(let children), .link(_, let children),
          .spoiler(let children), .quote(_, _, let children):
          walk(children, marked: marked)
        default: pieces.append((plainText([node]), marked))
        }
      }
    }
    walk(snippet, marked: false)
    var parts: [CommandReply.Part] = []
    var left = maximumSnippet
    var lastWasSpace = true
    for piece in pieces {
      var text = piece.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      if piece.text.first?.isWhitespace == true, !lastWasSpace { text = " " + text }
      if piece.text.last?.isWhitespace == true, !text.isEmpty, text != " " { text += " " }
      guard !text.isEmpty, left > 0 else { continue }
      if text.count > left {
        // Cut at a word's end where there is one, and say so with "…".
        let kept = text.prefix(left)
        let atWord = kept.lastIndex(of: " ").map { kept[..<$0] } ?? kept
        text = String(atWord.isEmpty ? kept : atWord) + "…"
        left = 0
      }
      left = max(0, left - text.count)
      lastWasSpace = text.last == " "
      parts.append(piece.marked ? .bold(text) : .text(text))
    }
    if case .text(let text)? = parts.last {
      parts[parts.count - 1] = .text(String(text.reversed().drop { $0 == " " }.reversed()))
    }
    if case .text(let text)? = parts.first { parts[0] = .text(String(text.drop { $0 == " " })) }
    return parts.filter {
      if case .text(let text) = $0 { return !text.isEmpty }
      return true
    }
  }

  /// Which words, where: the query the forum gets, the forums it searches and how the answer names them.
  private struct Request {
    var words: String
    var query: String
    var forumIDs: [String]
    var place: String
    /// "thread" or "forum" when the words start with one but no id follows: searched as words ("thread safety"),
    /// and an answer that finds nothing says how to search one thread or forum.
    var unscopedKeyword: String? = nil
  }

  private static func scope(of raw: String, _ context: CommandContext) async throws -> Request {
    let parts = raw.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
    let keyword = parts.first?.lowercased()
    if keyword == "thread", parts.count >= 2, looksLikeThread(parts[1]) {
      let threadID = try await context.threadID(from: parts[1])
      let words = parts.count > 2 ? collapsed(parts[2]) : ""
      return Request(words: words, query: "threadid:\(threadID) \(words)", forumIDs: [], place: "in thread \(threadID)")
    }
    if keyword == "forum", parts.count >= 2, isNumber(parts[1]) {
      let words = parts.count > 2 ? collapsed(parts[2]) : ""
      return Request(words: words, query: words, forumIDs: [parts[1]], place: "in forum \(parts[1])")
    }
    let words = collapsed(raw)
    let followed = try await context.subscriptions.subscriptions(room: context.room).compactMap { subscription in
      if case .forum(let id) = subscription.target { return id }
      return nil
    }
    let forumIDs = Array(Set(followed)).sorted { (Int($0) ?? 0, $0) < (Int($1) ?? 0, $1) }
    let place =
      forumIDs.isEmpty
      ? "in all forums"
      : "in the \(forumIDs.count == 1 ? "forum" : "forums") this room follows (\(forumIDs.joined(separator: ", ")))"
    return Request(
      words: words, query: words, forumIDs: forumIDs, place: place,
      unscopedKeyword: keyword == "thread" || keyword == "forum" ? keyword : nil)
  }

  /// A thread id or a forum link: what `thread` takes before the words.
  private static func looksLikeThread(_ value: String) -> Bool {
    isNumber(value) || value.contains("showthread.php") || value.hasPrefix("http")
  }

  private static func isNumber(_ value: String) -> Bool {
    !value.isEmpty && value.count <= 12 && value.allSatisfy { $0.isASCII && $0.isNumber }
  }

  private static func collapsed(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// One share per user per transport, whatever room they search in (as the command budget counts).
  private static func userKey(_ context: CommandContext) -> String { "\(context.message.transport) \(context.userID)" }

  private static func countText(_ session: SearchBook.Session) -> String {
    NameList.count(session.totalResults ?? session.shownBefore + session.results.count, "result")
  }
}
