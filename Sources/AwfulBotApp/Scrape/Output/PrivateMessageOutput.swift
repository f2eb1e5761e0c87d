import AwfulScraping

/// `kind: "private-messages"`: a private-message folder (`private.php?folderid=N`).
struct PrivateMessageFolderOutput: Encodable, Sendable {
  struct Folder: Encodable, Sendable {
    var id: String
    var name: String
  }

  struct Sender: Encodable, Sendable {
    var name: String
    @JSONNullable var id: String? = nil
  }

  struct Message: Encodable, Sendable {
    var id: String
    var subject: String
    @JSONNullable var sender: Sender? = nil
    @JSONNullable var sentDate: String? = nil
    @JSONNullable var sentDateRaw: String? = nil
    @JSONNullable var icon: ThreadTagOutput? = nil
    @JSONNullable var iconAlt: String? = nil
    var hasBeenSeen: Bool
    var wasRepliedTo: Bool
    var wasForwarded: Bool
  }

  var kind = ScrapeKind.privateMessages.rawValue
  var folders: [Folder]
  @JSONNullable var current: Folder? = nil
  var isOnlyShowingLastFiftyMessages: Bool
  var messages: [Message]
  @JSONNullable var probation: ProbationOutput? = nil

  init(_ folder: PrivateMessageFolder) {
    folders = folder.folders.map { Folder(id: $0.id, name: $0.name) }
    current = folder.current.map { Folder(id: $0.id, name: $0.name) }
    isOnlyShowingLastFiftyMessages = folder.isOnlyShowingLastFiftyMessages
    messages = folder.messages.map { message in
      Message(
        id: message.id, subject: message.subject,
        sender: message.sender.map { Sender(name: $0.name, id: $0.id) },
        sentDate: ScrapeJSON.timestamp(message.sentDate), sentDateRaw: message.sentDateRaw,
        icon: message.icon.map(ThreadTagOutput.init), iconAlt: message.iconAlt,
        hasBeenSeen: message.status.hasBeenSeen, wasRepliedTo: message.status.wasRepliedTo,
        wasForwarded: message.status.wasForwarded)
    }
    probation = folder.probation.map(ProbationOutput.init)
  }
}

/// `kind: "private-message"`: one private message (`private.php?action=show&privatemessageid=M`).
struct PrivateMessageOutput: Encodable, Sendable {
  var kind = ScrapeKind.privateMessage.rawValue
  var id: String
  @JSONNullable var subject: String? = nil
  @JSONNullable var author: AuthorOutput? = nil
  @JSONNullable var sentDate: String? = nil
  @JSONNullable var sentDateRaw: String? = nil
  var hasBeenSeen: Bool
  var wasRepliedTo: Bool
  var wasForwarded: Bool
  var body: BodyOutput
  @JSONNullable var probation: ProbationOutput? = nil

  init(_ message: PrivateMessage, format: ScrapeBodyFormat) {
    id = message.id
    subject = message.subject
    author = message.author.map(AuthorOutput.init)
    sentDate = ScrapeJSON.timestamp(message.sentDate)
    sentDateRaw = message.sentDateRaw
    hasBeenSeen = message.status.hasBeenSeen
    wasRepliedTo = message.status.wasRepliedTo
    wasForwarded = message.status.wasForwarded
    body = BodyOutput(message.body, format: format)
    probation = message.probation.map(ProbationOutput.init)
  }
}
