import ChatBridge
import Foundation
import MatrixModel

/// The `check` lines about the aliases a config names on a Matrix transport: what each stands for in the bot
/// (`MatrixAliasPins`), read from the stored pins and one lookup each, without storing anything. A repointed alias is
/// shown until the operator writes a room id in its place; an alias in `privateMessages.rooms` that stands for no room
/// (it names none, or one the bot will not take) fails the check, any other warns.
package enum MatrixAliasCheck {
  /// - Parameters:
  ///   - rooms: the rooms the config names on this transport, as written, each with whether it is a private-message
  ///     room (`privateMessages.rooms`); room ids are left out.
  ///   - stored: the transport's saved state, nil before the first run.
  package static func results(
    configuration: MatrixTransportConfiguration, rooms: [String: Bool], stored: (any TransportStateStore)?,
    client: MatrixClient? = nil
  ) async -> [CheckResult] {
    let client = client ?? MatrixClient(homeserver: configuration.homeserver)
    let storedToken = try? await stored?.value(for: MatrixStateKey.accessToken)
    let token = configuration.accessToken.flatMap { $0.isEmpty ? nil : $0 } ?? storedToken
    let names: @Sendable (String) -> Bool = { configuration.namesInviter($0) }
    var results: [CheckResult] = []
    for (alias, scoped) in rooms.sorted(by: { $0.key < $1.key }) where alias.hasPrefix("#") {
      let (answer, _) = await MatrixAliasPins.ask(
        { _ in try await client.resolveAlias(token: token, alias: alias, timeout: .seconds(5)) }, pinned: false)
      let verdict: MatrixAliasPins.Verdict
      do {
        verdict =
          if let stored {
            try await MatrixAliasPins.verdict(alias: alias, answer: answer, store: stored, names: names)
          } else {
            MatrixAliasPins.decide(pin: nil, answer: answer, missingSince: nil, inviter: nil, names: names)
          }
      } catch {
        results.append(CheckResult(.fail, "alias \(alias)", detail: "the database cannot be read: \(error)"))
        continue
      }
      results.append(result(alias: alias, scoped: scoped, verdict: verdict, answer: answer))
    }
    return results
  }

  /// The room `alias` is pinned to in the transport's saved state, if any.
  package static func pinnedRoom(alias: String, stored: (any TransportStateStore)?) async throws -> String? {
    try await stored?.value(for: MatrixAliasPins.pinKey(alias))
  }

  static func result(alias: String, scoped: Bool, verdict: MatrixAliasPins.Verdict, answer: MatrixAliasPins.Answer)
    -> CheckResult
  {
    let name = "alias \(alias)"
    // Standing for no room leaves a private-message room without its alerts, and is worth a failed check.
    let unresolved: CheckResult.Outcome = scoped ? .fail : .warn
    let useID = "write the room's id (!…) in the config in place of \(alias)"
    switch verdict {
    case .pinned(let room):
      return CheckResult(.pass, name, detail: "stands for \(room), the room it named first")
    case .adopt(let room):
      return CheckResult(.pass, name, detail: "names \(room); the bot keeps to that room from its next start on")
    case .moved(let pinned, let answered):
      return CheckResult(
        .warn, name,
        detail: "now names \(answered), but the bot keeps \(pinned), the room it named first: the move is refused",
        fix: "write \(pinned) in the config in place of \(alias) to keep that room, or \(answered) to move to it")
    case .pinnedAliasGone(let room):
      return CheckResult(
        .warn, name, detail: "names no room now; the bot keeps \(room), the room it named first",
        fix: "write \(room) in the config in place of \(alias)")
    case .pinnedUnasked(let room):
      let reason = if case .unknown(let reason) = answer { reason } else { "no answer" }
      return CheckResult(
        .warn, name, detail: "could not be looked up (\(reason)); the bot keeps \(room), the room it named first")
    case .invitedByStranger(let room, let inviter):
      return CheckResult(
        unresolved, name,
        detail: MatrixAliasRefusal.invitedByStranger(alias: alias, room: room, inviter: inviter).description,
        fix: "if \(room) is yours, write it in the config in place of \(alias)")
    case .appearedLater(let room, let since):
      return CheckResult(
        unresolved, name,
        detail: MatrixAliasRefusal.appearedLater(alias: alias, room: room, missingSince: since).description,
        fix: "if \(room) is yours, write it in the config in place of \(alias)")
    case .missing:
      return CheckResult(
        unresolved, name, detail: "names no room (the homeserver does not know it)",
        fix: "create the alias on your room, or \(useID)")
    case .unknown(let reason):
      return CheckResult(unresolved, name, detail: "could not be looked up: \(reason)", fix: "check the homeserver")
    }
  }
}
