/// A post shown because it quotes or mentions a name a room asked to be alerted about.
package struct PostAlert: Sendable, Hashable, Codable {
  /// Why, one entry per name: "alice was quoted", "bob was mentioned".
  package var reasons: [String]
  package var post: PostRelay

  package init(reasons: [String], post: PostRelay) {
    self.reasons = reasons
    self.post = post
  }
}
