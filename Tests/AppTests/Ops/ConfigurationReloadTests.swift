import AwfulBotApp
import AwfulBotAppTestKit
import Foundation
import Testing

/// What a reload tells apart: the sections that changed, of which the rooms apply at once and the rest need a
/// restart (the daemon's own SIGHUP handling runs in scripts/release-check, against the release binary).
@Suite("Configuration reload")
struct ConfigurationReloadTests {
  @Test("the changed sections are named; rooms and private-message rooms are the ones applied live")
  func changedSections() throws {
    let before = try OpsConfig.parse()
    #expect(ConfigurationReloader.changedSections(from: before, to: before).isEmpty)
    var after = before
    after.rooms = (after.rooms ?? []) + [.init(transport: before.transports[0].resolvedName, room: "#new", mode: .each)]
    after.logLevel = .debug
    let changed = ConfigurationReloader.changedSections(from: before, to: after)
    #expect(changed == ["rooms", "logLevel"])
    #expect(changed.subtracting(ConfigurationReloader.liveSections) == ["logLevel"])
  }
}
