import Foundation

/// What the forum answered to a reply.
package enum ReplyResult: Sendable, Hashable, Codable {
  case post(id: String)
  /// Only a `goto=lastpost` link was found: the new post is the thread's last.
  case lastPostInThread(threadID: String?)
}
