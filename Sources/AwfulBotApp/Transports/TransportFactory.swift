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
      let make = TransportKind.of(settings.type).make
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
