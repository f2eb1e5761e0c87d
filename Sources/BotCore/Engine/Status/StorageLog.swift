import BotStore
import Foundation
import Logging

/// The log's account of a full disk: one line when writes start failing for lack of space and one when they land
/// again, however many polls, deliveries and commands fail in between (those log at debug level).
enum StorageLog {
  static func follow(_ database: BotDatabase, logger: Logger) {
    let name = database.path ?? "in memory"
    database.storage.observe { change in
      switch change {
      case .full(let since):
        logger.error(
          "database disk is full: nothing new is saved; new posts wait on the forum until space is freed",
          metadata: ["database": "\(name)", "since": "\(since.formatted(.iso8601))"])
      case .room(let since):
        logger.notice(
          "database disk has room again: polling and saving resume",
          metadata: ["database": "\(name)", "fullSeconds": "\(Int(Date().timeIntervalSince(since)))"])
      }
    }
  }
}
