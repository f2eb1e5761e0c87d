import ForumModel
import Foundation

/// What changes when the client follows a forum redirect itself.
package enum RedirectRules {
  /// Pages whose redirects drop `perpage`, which would fall back to the account's own page size and break the
  /// client's 40-a-page arithmetic.
  private static let pagedEndpoints: Set<String> = ["showthread.php", "forumdisplay.php", "bookmarkthreads.php"]

  /// `target` with `perpage=40` appended when it is a paged endpoint without one, and with the `noseen` of the
  /// request that was redirected (`from`) when it is a thread page: `goto=lastpost` must not mark posts read just
  /// because the redirect dropped the parameter.
  package static func adjusted(_ target: URL, from previous: URL? = nil) -> URL {
    guard pagedEndpoints.contains(target.lastPathComponent),
      var components = URLComponents(url: target, resolvingAgainstBaseURL: true)
    else { return target }
    var items = components.percentEncodedQueryItems ?? []
    let before = items
    if !items.contains(where: { $0.name == "perpage" }) {
      items.append(URLQueryItem(name: "perpage", value: String(forumPageSize)))
    }
    if target.lastPathComponent == "showthread.php", !items.contains(where: { $0.name == "noseen" }),
      let previous,
      let noseen = URLComponents(url: previous, resolvingAgainstBaseURL: true)?.percentEncodedQueryItems?
        .first(where: { $0.name == "noseen" })
    {
      items.append(noseen)
    }
    guard items != before else { return target }
    components.percentEncodedQueryItems = items
    return components.url ?? target
  }

  /// The method of the next hop: 301/302/303 turn a POST into a GET without body (as browsers do); 307/308 keep it.
  package static func keepsMethodAndBody(status: Int) -> Bool {
    status == 307 || status == 308
  }
}
