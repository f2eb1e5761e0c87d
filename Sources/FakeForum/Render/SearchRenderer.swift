import Foundation

/// The search pages' markup: the form (as `fixtures/sa/query.html`: `form[action='query.php']`, `input#query`, a
/// `.search_forum` checkbox per forum) and the results, written to the selectors of the forum's own client
/// (Awful.app): `#search_info`, `.search_result` with `.result_number`, `a.threadtitle` (naming `postid`), `.blurb`,
/// `.hit_info` holding `.username`, `.forumtitle` and the date, and `.pages` (the current page in `b`, the others
/// linked with `qid` and `page`). No results page was ever captured: this is the markup those selectors read.
/// Everything taken from the forum's content (titles, names, the query, the snippet) is escaped.
enum SearchRenderer {
  struct Hit {
    var number: Int
    var post: FakePost
    var threadTitle: String
    var forumID: Int
    var forumTitle: String
    var authorName: String
    var date: String
    var text: String
  }

  /// The form page: one checkbox per forum, indented by depth like the forum's.
  static func form(forums: [(node: FakeForumNode, depth: Int)]) -> String {
    var rows = """
      <button type="button" data-forumid="-1" class="search_forum depth0">
      <input type="checkbox" class="forumcheck" name="forums[]" value="-1">
      Select All Forums
      </button>

      """
    for (node, depth) in forums {
      rows += """
        <div data-forumid="\(node.id)" class="search_forum depth\(depth)\(node.parentID.map { " parent\($0)" } ?? "")">
        <input type="checkbox" class="forumcheck" name="forums[]" value="\(node.id)" >
        \(HTMLText.escape(node.title))
        </div>

        """
    }
    return """
      <form action="query.php" method="post" accept-charset="UTF-8">
      <div class="search_container">
      <div class="search_form standard">
      <h1>Search the forums<span class="beta">BETA</span></h1>
      <input name="q" type="text" id="query" value="" autofocus /><br />
      <button type="submit" name="action" value="query">Search</button><br />
      </div>
      <div class="search_help">
      <div class="title">Example Searches</div>
      <div class="term">intitle:"dog breath" userid:58201 spimpo</div>
      <div class="term">threadid:8620976 quoting:"Jeffrey of YOSPOS" username:"Twitter Dude" sand</div>
      </div>
      <div class="clearfix forumlist_container standard">
      <div class="forumlist">
      \(rows)</div>
      </div>
      </div>
      </form>
      """
  }

  /// A results page: `#search_info` (the query, then the count or "There were no results"), the page list, the hits.
  static func results(qid: Int, query: String, words: [String], total: Int, page: Int, pages: Int, hits: [Hit])
    -> String
  {
    let count =
      total == 0
      ? "There were no results for your search."
      : "\(total) \(total == 1 ? "result" : "results") found."
    var html = """
      <div class="search_container">
      <div id="search_info">
      <div>Searched for posts matching the</div>
      <div>following criteria:</div>
      <div>Text contains: \(HTMLText.escape(query))</div>
      <div>\(count)</div>
      </div>

      """
    if pages > 1 { html += pageList(qid: qid, page: page, pages: pages) + "\n" }
    for hit in hits {
      html += """
        <div class="search_result">
        <div class="result_number">\(hit.number).</div>
        <a class="threadtitle" href="showthread.php?threadid=\(hit.post.threadID)&amp;goto=post&amp;postid=\(hit.post.id)#post\(hit.post.id)">\(HTMLText.escape(hit.threadTitle))</a>
        <div class="blurb">\(blurb(hit.text, words: words))</div>
        <div class="hit_info">by <a class="username" href="member.php?action=getinfo&amp;userid=\(hit.post.authorID)">\(HTMLText.escape(hit.authorName))</a> in <a class="forumtitle" href="forumdisplay.php?forumid=\(hit.forumID)">\(HTMLText.escape(hit.forumTitle))</a> at \(hit.date)</div>
        </div>

        """
    }
    if pages > 1 { html += pageList(qid: qid, page: page, pages: pages) + "\n" }
    return html + "</div>"
  }

  /// `div.pages`: every page linked but the current one, in `b`.
  private static func pageList(qid: Int, page: Int, pages: Int) -> String {
    func link(_ number: Int, _ label: String) -> String {
      "<a href=\"query.php?action=results&amp;qid=\(qid)&amp;page=\(number)\">\(label)</a>"
    }
    var parts: [String] = []
    if page > 1 { parts.append(link(page - 1, "&lsaquo; Prev")) }
    for number in 1...pages {
      parts.append(number == page ? "<b>\(number)</b>" : link(number, "\(number)"))
    }
    if page < pages { parts.append(link(page + 1, "Next &rsaquo;")) }
    return "<div class=\"pages\">Pages (\(pages)): \(parts.joined(separator: " "))</div>"
  }

  /// About 200 characters of the post around its first match, escaped, each searched word in `<em>`.
  static func blurb(_ text: String, words: [String]) -> String {
    let first = words.lazy.compactMap { text.range(of: $0, options: .caseInsensitive) }.first
    let center = first.map { text.distance(from: text.startIndex, to: $0.lowerBound) } ?? 0
    let startOffset = max(0, center - 60)
    let start = text.index(text.startIndex, offsetBy: startOffset)
    let end = text.index(start, offsetBy: 200, limitedBy: text.endIndex) ?? text.endIndex
    let window = String(text[start..<end])
    var html = startOffset > 0 ? "…" : ""
    var index = window.startIndex
    while index < window.endIndex {
      let match = words.lazy.compactMap { word -> Range<String.Index>? in
        guard !word.isEmpty,
          let range = window.range(
            of: word, options: [.caseInsensitive, .anchored],
            range: index..<window.endIndex)
        else { return nil }
        return range
      }.first
      if let match {
        html += "<em>" + HTMLText.escape(String(window[match])) + "</em>"
        index = match.upperBound
      } else {
        html += HTMLText.escape(String(window[index]))
        index = window.index(after: index)
      }
    }
    return html + (end < text.endIndex ? "…" : "")
  }
}
