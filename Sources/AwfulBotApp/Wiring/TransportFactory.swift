import BotCore
import ChatBridge

/// Builds the chat connections a configuration names, each through its `TransportKind`.
package enum TransportFactory {
  package static func makeTransports(
    for configuration: AppConfiguration, context: TransportBuildContext = TransportBuildContext()
  ) throws -> [any ChatTransport] {
    var problems: [String] = []
    var transports: [any ChatTransport] = []
    for (index, settings) in configuration.transports.enumerated() {
      guard let kind = TransportKind.named(settings.type) else {
        problems.append(
          "transports[\(index)].type: unknown transport \"\(settings.type)\" (supported: \(TransportKind.supportedTypes))"
        )
        continue
      }
      guard let make = kind.make else {
        problems.append("transports[\(index)].type: this build cannot run \(settings.type) transports yet")
        continue
      }
      var context = context
      context.settingsPath = "transports[\(index)]"
      do {
        transports.append(try make(settings, context))
      } catch let error as ConfigurationError {
        problems += error.problems
      }
    }
    if !problems.isEmpty { throw ConfigurationError(problems: problems) }
    return transports
  }
}
