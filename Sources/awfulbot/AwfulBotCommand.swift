import ArgumentParser
import AwfulBotApp

/// The `awfulbot` executable: subcommands only; everything they do lives in `AwfulBotApp`.
@main
struct AwfulBotCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "awfulbot",
    abstract: "Relays Something Awful forum threads into Matrix and IRC rooms, and drives the forum from chat.",
    version: AppInfo.version,
    subcommands: [
      RunCommand.self, CheckCommand.self, StatusCommand.self, SetupCommand.self, ExportCommand.self,
      ImportCommand.self, MigrateCommand.self, BackupCommand.self, RestoreCommand.self, DemoCommand.self,
      ScrapeCommand.self, FakeForumSubcommand.self, FakeDiscordSubcommand.self,
    ]
  )
}
