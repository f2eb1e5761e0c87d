/// `div.pages` in either markup the forum has used.
struct PageNavRenderer {
  var style: PageNavStyle
  var current: Int
  var total: Int
  /// Unescaped, e.g. `showthread.php?threadid=3&userid=0&perpage=40`.
  var baseURL: String
  var perPage: Int
  /// Extra class such as `top` or `bottom`.
  var extraClass: String = ""

  func render() -> String {
    let total = max(1, self.total)
    let base = HTMLText.escape(baseURL)
    let classes = extraClass.isEmpty ? "pages" : "pages \(extraClass)"
    var html = "<div class=\"\(classes)\""
    if style.isModern {
      html +=
        " data-current-page=\"\(current)\" data-total-pages=\"\(total)\" data-base-url=\"\(base)\" data-per-page=\"\(perPage)\""
    }
    html += ">"
    if current > 1 {
      html += "<a href=\"\(base)&amp;pagenumber=1\" title=\"First page\">&laquo;</a>"
      html += "<a href=\"\(base)&amp;pagenumber=\(current - 1)\" title=\"Previous page\">&lsaquo;</a>"
    } else {
      html += "<span class=\"disabled\">&laquo;</span><span class=\"disabled\">&lsaquo;</span>"
    }
    if style != .data {
      html += "<select data-url=\"\(base)\">"
      for page in 1...total {
        html +=
          page == current
          ? "<option value=\"\(page)\" selected=\"selected\">\(page)</option>"
          : "<option value=\"\(page)\">\(page)</option>"
      }
      html += "</select>"
    }
    if current < total {
      html += "<a href=\"\(base)&amp;pagenumber=\(current + 1)\" title=\"Next page\">&rsaquo;</a>"
      html += "<a href=\"\(base)&amp;pagenumber=\(total)\" title=\"Last page\">\(total) &raquo;</a>"
    }
    html += "</div>"
    return html
  }
}
