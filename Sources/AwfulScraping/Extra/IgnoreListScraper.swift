import Foundation

/// Scrapes the ignore-list editor (`member2.php?action=viewlist&userlist=ignore`) and the forum's answer to an update.
package struct IgnoreListScraper: Sendable {
  package init() {}

  package func scrapeForm(data: Data, url: URL? = nil, charset: String? = nil) throws -> IgnoreListForm {
    try scrapeForm(HTMLDocument(data: data, url: url, contentTypeCharset: charset))
  }

  /// The `member2.php` form holding `userlist=ignore` and at least one `listbits[]` text box.
  package func scrapeForm(_ document: HTMLDocument) throws -> IgnoreListForm {
    try ErrorPageScraper().check(document)
    let forms = document.nodes(
      "//form[contains(@action, 'member2.php')][.//input[@name = 'userlist' and @value = 'ignore']]")
    guard let form = forms.first(where: { $0.first(".//input[@name = 'listbits[]']") != nil }) else {
      throw ScrapeError(page: "ignore list", reason: "no member2.php form with userlist=ignore and listbits[] boxes")
    }
    var fields: [IgnoreListForm.Field] = []
    var submit: IgnoreListForm.Field?
    for input in form.nodes(".//input[@name]") {
      let name = input.attribute("name") ?? ""
      let value = input.attribute("value") ?? ""
      switch (input.attribute("type") ?? "text").lowercased() {
      case "submit":
        if submit == nil { submit = IgnoreListForm.Field(name: name, value: value) }
      case "checkbox", "radio":
        if input.attribute("checked") != nil { fields.append(IgnoreListForm.Field(name: name, value: value)) }
      case "reset", "button", "file", "image":
        continue
      default:
        fields.append(IgnoreListForm.Field(name: name, value: value))
      }
    }
    return IgnoreListForm(action: form.attribute("action") ?? "member2.php", fields: fields, submitButton: submit)
  }

  /// Reads the page the forum returns after an update: a redirect page confirming it, or a standard error (a
  /// moderator/admin on the list: "Sorry Lowtax is a moderator/admin and you are not allowed to ignore him or her.").
  package func scrapeChangeResult(_ document: HTMLDocument) -> IgnoreListChangeResult {
    let inner = document.first("//div[\(ExtraScraping.cls("standard"))]//div[\(ExtraScraping.cls("inner"))]")
    let message = inner.map { ExtraScraping.collapsed($0.textContent) } ?? ""
    if document.first("//body[\(ExtraScraping.cls("standarderror"))]") != nil {
      return .rejected(problemUsername: problemUsername(in: message), message: message)
    }
    if message.contains("Your ignore list has been updated")
      || message.contains("has now been successfully added to your ignore list")
    {
      return .success
    }
    return .unrecognized
  }

  private func problemUsername(in message: String) -> String? {
    guard let start = message.range(of: "Sorry "),
      let end = message.range(of: " is a moderator/admin and you", range: start.upperBound..<message.endIndex)
    else { return nil }
    let name = message[start.upperBound..<end.lowerBound]
    return name.isEmpty ? nil : String(name)
  }
}
