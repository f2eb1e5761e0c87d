import Foundation

/// One announcement from `announcement.php` (the bodies; titles come from thread lists).
package struct Announcement: Sendable, Hashable, Codable {
  package var title: String?
  package var author: PostAuthor
  package var date: Date?
  /// False when the page gives a day without a time ("Sep 05, 2010"): `date` is then that day's midnight in the
  /// forum's zone, and showing its hour would be made up.
  package var dateHasTime: Bool
  package var bodyHTML: String
  @RichTextBody package var body: [RichText]

  package init(
    title: String? = nil, author: PostAuthor, date: Date?, dateHasTime: Bool = true, bodyHTML: String,
    body: [RichText]
  ) {
    self.title = title
    self.author = author
    self.date = date
    self.dateHasTime = dateHasTime
    self.bodyHTML = bodyHTML
    self.body = body
  }
}

/// A node of `index.php?json=1`: `hasThreads == false` marks a group.
package struct ForumNode: Sendable, Hashable, Codable {
  package var id: String
  package var title: String
  package var shortTitle: String?
  package var hasThreads: Bool
  package var icon: String?
  package var moderators: [String]
  package var subforums: [ForumNode]

  package init(
    id: String, title: String, shortTitle: String? = nil, hasThreads: Bool, icon: String? = nil,
    moderators: [String] = [], subforums: [ForumNode] = []
  ) {
    self.id = id
    self.title = title
    self.shortTitle = shortTitle
    self.hasThreads = hasThreads
    self.icon = icon
    self.moderators = moderators
    self.subforums = subforums
  }
}

/// The logged-in user from `index.php?json=1`.
package struct ForumUser: Sendable, Hashable, Codable {
  package var id: String
  package var name: String
  package var biography: String?

  package init(id: String, name: String, biography: String? = nil) {
    self.id = id
    self.name = name
    self.biography = biography
  }
}

package struct ForumIndex: Sendable, Hashable, Codable {
  /// Top-level nodes (groups), each with its forums depth-first below.
  package var groups: [ForumNode]
  package var user: ForumUser?

  package init(groups: [ForumNode], user: ForumUser?) {
    self.groups = groups
    self.user = user
  }
}

/// `form[name=vbform]` of `newreply.php`, every field kept in document order.
package struct ReplyForm: Sendable, Hashable, Codable {
  package struct Field: Sendable, Hashable, Codable {
    package var name: String
    package var value: String
    package init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }
  package var action: String
  /// Hidden inputs, checked checkboxes/radios, selected options, text values, in order; submits excluded.
  package var fields: [Field]
  /// The initial value of the `message` textarea (a quote when replying with one).
  package var message: String
  /// Submit buttons by name (`submit` → "Submit Reply", `preview` → "Preview Reply").
  package var submitButtons: [Field]

  package init(action: String, fields: [Field], message: String, submitButtons: [Field]) {
    self.action = action
    self.fields = fields
    self.message = message
    self.submitButtons = submitButtons
  }
}

/// What the forum answered to a reply.
package enum ReplyResult: Sendable, Hashable, Codable {
  case post(id: String)
  /// Only a `goto=lastpost` link was found: the new post is the thread's last.
  case lastPostInThread(threadID: String?)
}
