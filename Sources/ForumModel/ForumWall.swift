import Foundation

/// Something standing in front of the forum and answering in its place: Cloudflare's managed challenge, a rate limit,
/// a maintenance page. None of them says anything about the account, the session or the forum's content, so none is
/// read as logged out, as an empty list or as a page that did not scrape: the bot waits, keeps its place, and reads
/// on when the wall lifts.
package struct ForumWall: Sendable, Hashable, Codable, CustomStringConvertible {
  package enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Cloudflare's managed challenge ("Just a moment...", `cf-mitigated: challenge`): a browser check a bot cannot
    /// pass by itself.
    case challenge
    /// Too many requests (HTTP 429, Cloudflare's error 1015).
    case rateLimit
    /// The forum is down for maintenance (HTTP 503 with a maintenance page).
    case maintenance
  }

  package var kind: Kind
  /// The HTTP status it came with.
  package var status: Int
  /// How long it asked the bot to wait (`Retry-After`), when it said.
  package var retryAfterSeconds: Int?

  package init(kind: Kind, status: Int, retryAfterSeconds: Int? = nil) {
    self.kind = kind
    self.status = status
    self.retryAfterSeconds = retryAfterSeconds
  }

  /// What it is, in a few words ("a Cloudflare challenge").
  package var name: String {
    switch kind {
    case .challenge: "a Cloudflare challenge"
    case .rateLimit: "a rate limit"
    case .maintenance: "a maintenance page"
    }
  }

  /// What it means and what to do, for logs, `status` and chat.
  package var description: String {
    let wait = retryAfterSeconds.map { " It asked for \($0) s of patience." } ?? ""
    switch kind {
    case .challenge:
      return headline + ": a browser check the bot cannot pass. The bot waits and reads on when it lifts; nothing is "
        + "lost. If it does not lift, give the bot a clearance from a browser (forum.cookies cf_clearance and "
        + "forum.userAgent; see the README)."
    case .rateLimit:
      return headline + ".\(wait) The bot waits and reads on when it lifts; nothing is lost. If it persists, raise "
        + "forum.requestSpacingSeconds or the poll intervals."
    case .maintenance:
      return headline + ".\(wait) The bot waits and reads on when it is back; nothing is lost."
    }
  }

  /// What a person who asked the bot something reads: the command was not run and is not run again by itself
  /// (polling, which `description` speaks of, does read on when the wall lifts).
  package var commandAnswer: String {
    let patience = retryAfterSeconds.map { " and asked for \($0) s of patience" } ?? ""
    let again =
      switch kind {
      case .challenge: "once it lifts"
      case .rateLimit: "in a while"
      case .maintenance: "once it is back"
      }
    return headline + patience + ", so the bot could not ask it. Ask again \(again)."
  }

  /// What stands in front of the forum, with the status it came with: how both sentences begin.
  private var headline: String {
    switch kind {
    case .challenge: "The forum answers with a Cloudflare challenge (HTTP \(status)) instead of its pages"
    case .rateLimit: "The forum is rate-limiting the bot (HTTP \(status))"
    case .maintenance: "The forum is down for maintenance (HTTP \(status))"
    }
  }
}

/// A wall as the bot met it: which one, since when (the first answer of an unbroken run of them) and when last.
package struct ForumWallSighting: Sendable, Hashable, Codable {
  package var wall: ForumWall
  package var since: Date
  package var lastSeen: Date

  package init(wall: ForumWall, since: Date, lastSeen: Date) {
    self.wall = wall
    self.since = since
    self.lastSeen = lastSeen
  }
}
