import BotStore
import ChatBridge

/// How `awfulbot run` ends when a transport cannot start, so a supervisor reacts sensibly: credentials the service
/// refused will be refused again (EX_CONFIG, 78: the systemd unit does not restart), while a service that is down
/// may be back soon (EX_TEMPFAIL, 75: restarted after `RestartSec`). Either way the one-line reason is printed,
/// instead of a restart every few seconds with the same stack of log lines.
package enum StartupFailure {
  package static let configurationExitCode = ConfigurationError.exitCode
  package static let temporaryExitCode: Int32 = 75

  /// The exit status for an error that ended the bot, nil for errors with no better status than 1.
  package static func exitCode(for error: any Error) -> Int32? {
    switch error {
    case is ConfigurationError:
      return configurationExitCode
    case BotStoreError.newerSchema:
      // Only a newer build (or a restore) fixes it: restarting this one would refuse again.
      return configurationExitCode
    case DatabaseLockError.held:
      // Another awfulbot runs on the database; once it is gone a restart works.
      return temporaryExitCode
    case BotStoreError.diskFullAtOpen:
      // Space may be freed (old logs rotated away): worth starting again after the unit's delay.
      return temporaryExitCode
    case let error as any ChatTransportStartupError:
      // Refused credentials or configuration will be refused again; a service that is down may come back.
      return error.isPermanent ? configurationExitCode : temporaryExitCode
    default:
      return nil
    }
  }
}
