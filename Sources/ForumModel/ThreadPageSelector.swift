/// Which page of a thread to load.
package enum ThreadPageSelector: Sendable, Hashable {
  case number(Int)
  /// `goto=lastpost`: the forum redirects to the thread's last page.
  case last
}
