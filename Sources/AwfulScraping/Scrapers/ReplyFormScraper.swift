import ForumModel
import Foundation

/// Reads the reply form of `newreply.php` (also new-thread and edit forms): always `form[name=vbform]`, never the
/// first form on the page (an unrelated search form can come first). Fields keep document order: every hidden input,
/// checked checkboxes and radios, selected options, text inputs and textareas (`message` included, also given as
/// `message`, its text as a browser would submit it: entities decoded, a line break right after the tag dropped);
/// submit buttons are listed apart. A page without the form throws `ForumPageError` when it is an error
/// page or carries the probation banner (`.probation`: an account on probation cannot post), else `ScrapeError`. The
/// private-message form (`private.php?action=newmessage`) is read the same way.
package struct ReplyFormScraper: Sendable {
  package init() {}

  package func scrape(data: Data, url: URL? = nil, charset: String? = nil) throws -> ReplyForm {
    try scrape(HTMLDocument(data: data, url: url, contentTypeCharset: charset))
  }

  package func scrape(_ document: HTMLDocument) throws -> ReplyForm {
    try ErrorPageScraper().check(document)
    guard let body = document.body,
      let form = body.firstDescendant(where: { $0.isElement("form") && $0.attribute("name", equals: "vbform") })
    else {
      if let probation = ProbationScraper().scrape(document) {
        throw ForumPageError.probation(message: probation.message)
      }
      throw ScrapeError(page: "reply form", reason: "no form[name=vbform]; the thread may be closed")
    }
    var fields: [ReplyForm.Field] = []
    var submits: [ReplyForm.Field] = []
    var message: String?
    form.walkDescendants { node in
      guard node.isElement else { return .skipChildren }
      if node.isElement("input") {
        guard let name = node.attribute("name"), !name.isEmpty else { return .skipChildren }
        let value = node.attribute("value") ?? ""
        switch (node.attribute("type") ?? "text").lowercased() {
        case "hidden", "text", "password", "email", "number", "url", "search", "tel", "":
          fields.append(.init(name: name, value: value))
        case "checkbox", "radio":
          if node.hasAttribute("checked") { fields.append(.init(name: name, value: node.attribute("value") ?? "on")) }
        case "submit", "image":
          submits.append(.init(name: name, value: value))
        default:
          break
        }
        return .skipChildren
      }
      if node.isElement("textarea") {
        guard let name = node.attribute("name"), !name.isEmpty else { return .skipChildren }
        let value = Self.textareaValue(node.textContent)
        fields.append(.init(name: name, value: value))
        if name == "message", message == nil { message = value }
        return .skipChildren
      }
      if node.isElement("select") {
        guard let name = node.attribute("name"), !name.isEmpty else { return .skipChildren }
        let options = node.descendants("option")
        var selected = options.filter { $0.hasAttribute("selected") }
        if selected.isEmpty, !node.hasAttribute("multiple"), let first = options.first { selected = [first] }
        if !node.hasAttribute("multiple") { selected = Array(selected.prefix(1)) }
        for option in selected {
          fields.append(.init(name: name, value: option.attribute("value") ?? option.normalizedText))
        }
        return .skipChildren
      }
      if node.isElement("button") {
        let type = (node.attribute("type") ?? "submit").lowercased()
        if type == "submit", let name = node.attribute("name"), !name.isEmpty {
          submits.append(.init(name: name, value: node.attribute("value") ?? node.normalizedText))
        }
        return .skipChildren
      }
      return .descend
    }
    return ReplyForm(
      action: form.attribute("action") ?? "newreply.php", fields: fields, message: message ?? "", submitButtons: submits
    )
  }

  /// A textarea's text as a browser submits it: HTML drops one line break right after `<textarea>` (so a page may
  /// start the text on its own line), which libxml2 keeps. Entities are already decoded by the parser.
  static func textareaValue(_ text: String) -> String {
    // "\r\n" is one Character, so one drop takes either kind of line break.
    guard let first = text.first, first == "\r\n" || first == "\n" || first == "\r" else { return text }
    return String(text.dropFirst())
  }
}
