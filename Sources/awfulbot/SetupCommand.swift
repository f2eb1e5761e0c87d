import ArgumentParser
import AwfulBotApp
import Foundation

struct SetupCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "setup",
    abstract: "Writes a first configuration: asks the questions (or takes flags), then tests the forum login.",
    discussion: """
      Secrets go into an environment file next to the config (FILE.env, mode 0600, for systemd's EnvironmentFile=) \
      unless --secrets-in-config. Without a terminal, every answer must come from a flag; secrets come from the \
      environment variables named by --forum-password-env, --matrix-token-env and --discord-webhook-env.
      """)

  @Option(name: .shortAndLong, help: "Where to write the configuration.")
  var output: String = "awfulbot.json"

  @Flag(help: "Replace an existing file.")
  var force = false

  @Flag(help: "Never ask; fail on a missing answer.")
  var nonInteractive = false

  @Flag(help: "Do not test the forum login.")
  var skipLoginTest = false

  @Flag(help: "Write secrets into the configuration instead of an environment file.")
  var secretsInConfig = false

  @Option(help: "The bot's forum account.") var forumUsername: String?
  @Option(help: "Environment variable holding the forum password.") var forumPasswordEnv: String?
  @Option(help: "Forum address.") var forumURL: String?
  @Option(help: "Data directory.") var data: String?
  @Option(help: "console, matrix, irc or discord.") var transport: String?
  @Option(help: "Matrix homeserver URL.") var matrixHomeserver: String?
  @Option(help: "The bot's Matrix id.") var matrixUser: String?
  @Option(help: "Environment variable holding the Matrix access token.") var matrixTokenEnv: String?
  @Option(help: "IRC server as host:port.") var ircServer: String?
  @Option(help: "The bot's IRC nick.") var ircNick: String?
  @Option(help: "Environment variable holding the Discord channel's webhook URL.") var discordWebhookEnv: String?
  @Option(help: "The room (Matrix) or channel (IRC) to relay into; for Discord, the config's name for the channel.")
  var room: String?
  @Option(help: "The chat user who gets the admin role.") var admin: String?
  @Option(help: "Metrics listener host:port, or off.") var metrics: String?

  func run() async throws {
    LoggingSetup.bootstrap(level: .critical)
    let environment = ProcessInfo.processInfo.environment
    var answers = SetupAnswers()
    answers.forumUsername = forumUsername
    answers.forumPassword = forumPasswordEnv.flatMap { environment[$0] }
    answers.forumBaseURL = forumURL
    answers.dataDirectory = data
    if let transport {
      guard let type = TransportType(typed: transport), SetupWizard.transportTypes.contains(type) else {
        throw ValidationError("--transport: expected \(SetupWizard.transportChoices), got \"\(transport)\"")
      }
      answers.transport = type
    }
    answers.matrixHomeserver = matrixHomeserver
    answers.matrixUserID = matrixUser
    answers.matrixAccessToken = matrixTokenEnv.flatMap { environment[$0] }
    answers.matrixRoom = room
    answers.ircServer = ircServer
    answers.ircNick = ircNick
    answers.ircChannel = room
    answers.discordRoom = room
    answers.discordWebhook = discordWebhookEnv.flatMap { environment[$0] }
    answers.adminUser = admin
    answers.metricsListen = metrics
    answers.secretsInConfig = secretsInConfig
    let interactive = !nonInteractive && isatty(FileHandle.standardInput.fileDescriptor) != 0
    let wizard = SetupWizard(
      answers: answers, outputPath: output, interactive: interactive, overwrite: force, testLogin: !skipLoginTest)
    do {
      let outcome = try await wizard.run()
      print("wrote \(outcome.configurationPath) (mode 0600)")
      if let environmentFile = outcome.environmentFilePath {
        print(
          "wrote \(environmentFile) with the secrets (mode 0600); load it before running: set -a; . \(environmentFile); set +a"
        )
      }
      if let check = outcome.loginCheck {
        print(check.line)
        if check.outcome == .fail { throw ExitCode.failure }
      }
      print("next: awfulbot check --config \(outcome.configurationPath)")
    } catch let error as SetupError {
      FileHandle.standardError.write(Data("awfulbot setup: \(error)\n".utf8))
      throw ExitCode.failure
    } catch let error as ConfigurationError {
      FileHandle.standardError.write(Data("awfulbot setup: \(error)\n".utf8))
      throw ExitCode(ConfigurationError.exitCode)
    }
  }
}
