import BotStore
import ChatBridge
import ForumModel
import Foundation
import Logging

/// What the engine's parts share, built once by `BotEngine.init` and handed to each: the store, the forum, the
/// tunables, the composer, the transports' capabilities, the logger and the clock. A part keeps beside it only what
/// is its own (the outbox it writes to, the signal it wakes, the rooms it tells).
package struct EngineContext: Sendable {
  package let database: BotDatabase
  /// The forum the parts read; a command's copy of a part reads the commands' budgeted forum (`through(_:)`).
  package private(set) var forum: any Forum
  package let configuration: EngineConfiguration
  package let composer: MessageComposer
  /// Capabilities of each configured transport by name; rows are rendered for the room's transport.
  package let transports: [String: ChatCapabilities]
  package let logger: Logger
  /// The clock; tests pass a controllable one so quiet hours and digests need no sleeping.
  package let now: @Sendable () -> Date

  init(
    database: BotDatabase, forum: any Forum, configuration: EngineConfiguration, transports: [String: ChatCapabilities],
    logger: Logger, now: @escaping @Sendable () -> Date
  ) {
    self.database = database
    self.forum = forum
    self.configuration = configuration
    self.composer = MessageComposer(
      baseURL: forum.baseURL, excerptLength: configuration.excerptLength, timeZone: configuration.timeZone)
    self.transports = transports
    self.logger = logger
    self.now = now
  }

  /// The same context reaching the forum through `forum` (a command's budgeted forum).
  func through(_ forum: any Forum) -> EngineContext {
    var context = self
    context.forum = forum
    return context
  }
}

/// A part of the engine: what it shares with the other parts it reads from its `context`, by the same names.
protocol EnginePart: Sendable {
  var context: EngineContext { get }
}

extension EnginePart {
  var database: BotDatabase { context.database }
  var forum: any Forum { context.forum }
  var configuration: EngineConfiguration { context.configuration }
  var composer: MessageComposer { context.composer }
  var transports: [String: ChatCapabilities] { context.transports }
  var logger: Logger { context.logger }
  var now: @Sendable () -> Date { context.now }
}
