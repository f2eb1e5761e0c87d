import Foundation

/// `awfulbot run --config FILE`: loads the configuration, builds the transports and the bot, seeds the configured
/// rooms and runs until SIGTERM or SIGINT.
package func runBot(configurationPath: String) async throws {
  let configuration = try AppConfiguration.load(path: configurationPath)
  let transports = try TransportFactory.makeTransports(for: configuration)
  let application = try BotApplication(configuration: configuration, transports: transports)
  try await application.seedRooms()
  try await application.run()
}
