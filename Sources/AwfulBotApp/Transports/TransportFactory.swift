import BotCore
import ChatBridge

/// Builds the chat connections a configuration names, each through its plugin (`TransportPlugin.make`).
package enum TransportFactory {
  package static func makeTransports(
    for configuration: AppConfiguration, context: TransportBuildContext = TransportBuildContext()
  ) throws -> [any ChatTransport] {
    var problems: [String] = []
    var transports: [any ChatTransport] = []
    for (index, settings) in configuration.transports.enumerated() {
      var context = context
      context.settingsPath = "transports[\(index)]"
      do {
        transports.append(try settings.make(context: context))
      } catch let error as ConfigurationError {
        problems += error.problems
      }
    }
    if !problems.isEmpty { throw ConfigurationError(problems: problems) }
    return transports
  }
}
