import Crypto
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// Reads the config again on SIGHUP (`systemctl reload`, a closed terminal) instead of dying of it. A config that
/// does not validate changes nothing: every problem is logged, as `check` would say it, and the bot goes on with the
/// one it has. A valid one applies what can change while running — the configured rooms (new rooms, their
/// subscriptions, modes, who may reply, reactions) and the private-message rooms — and names every other changed
/// section as needing a restart.
package final class ConfigurationReloader: Service, Sendable {
  let application: BotApplication
  let path: String
  let logger: Logger
  private let current: Mutex<AppConfiguration>

  init(application: BotApplication, path: String, logger: Logger) {
    self.application = application
    self.path = path
    self.logger = logger
    self.current = Mutex(application.configuration)
  }

  /// The sections applied while running; the others need a restart.
  package static let liveSections: Set<String> = ["rooms", "privateMessages"]

  package func run() async throws {
    let signals = await UnixSignalsSequence(trapping: .sighup)
    for await _ in signals.cancelOnGracefulShutdown() {
      await reload()
    }
  }

  func reload() async {
    let loaded: LoadedConfiguration
    do {
      loaded = try AppConfiguration.loadReportingWarnings(path: path)
    } catch let error as ConfigurationError {
      for problem in error.problems {
        logger.error(
          "configuration reload refused; the running configuration stays", metadata: ["problem": "\(problem)"])
      }
      return
    } catch {
      logger.error("configuration reload refused; the running configuration stays", metadata: ["error": "\(error)"])
      return
    }
    let next = loaded.configuration
    let previous = current.withLock { $0 }
    let changed = Self.changedSections(from: previous, to: next)
    for section in changed.sorted() where !Self.liveSections.contains(section) {
      logger.warning("configuration change needs a restart", metadata: ["section": "\(section)"])
    }
    if changed.contains("rooms") || changed.contains("privateMessages") {
      do {
        let unresolved = try await application.seed(
          ConfiguredRoom.all(in: next), waitingAtMost: BotApplication.startResolveLimit, logFailures: true)
        application.pendingRooms.withLock { $0 = unresolved }
        logger.info("configured rooms applied", metadata: ["rooms": "\(ConfiguredRoom.all(in: next).count)"])
      } catch {
        logger.error("configured rooms not applied", metadata: ["error": "\(error)"])
      }
    }
    current.withLock { $0 = next }
    logger.info(
      "configuration reloaded",
      metadata: [
        "changed": "\(changed.sorted().joined(separator: ","))", "checksum": "\(Self.checksum(of: path) ?? "-")",
      ])
  }

  /// The top-level sections whose written form differs.
  package static func changedSections(from old: AppConfiguration, to new: AppConfiguration) -> Set<String> {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    func sections(_ configuration: AppConfiguration) -> [String: Data] {
      guard let data = try? encoder.encode(configuration),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
      else { return [:] }
      var result: [String: Data] = [:]
      for (key, value) in object {
        result[key] = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
      }
      return result
    }
    let before = sections(old)
    let after = sections(new)
    return Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
  }

  /// The config file's SHA-256, first 12 hex digits, to tell which file a log line is about.
  static func checksum(of path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined().prefix(12).description
  }
}
