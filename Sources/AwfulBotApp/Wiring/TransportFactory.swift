import BotCore

/// Builds the chat connections a configuration names.
package enum TransportFactory {
  package static func makeTransports(for configuration: AppConfiguration) throws -> [any ChatTransport] {
    try configuration.transports.enumerated().map { index, settings in
      switch settings.type {
      case "console":
        return ConsoleTransport(name: settings.resolvedName)
      default:
        throw ConfigurationError(problems: [
          "transports[\(index)].type: unknown transport \"\(settings.type)\" (supported: console)"
        ])
      }
    }
  }
}
