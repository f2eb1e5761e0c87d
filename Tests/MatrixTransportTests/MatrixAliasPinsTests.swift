import AwfulBotTestKit
import ChatBridge
import Foundation
import Logging
import MatrixModel
import Testing

@testable import MatrixTransport

/// A configured alias stands for the room it first named: later answers are compared with that pin, never taken.
@Suite("Matrix alias pins")
struct MatrixAliasPinsTests {
  static let alias = "#pms:example.org"
  static let roomA = "!operators:example.org"
  static let roomB = "!strangers:example.org"
  static let stranger = "@stranger:example.org"
  static let operatorUser = "@op:example.org"

  static let notFound = MatrixClientError.api(MatrixAPIError(status: 404, errcode: "M_NOT_FOUND", message: "gone"))

  /// `allowedInviters: ["example.org", "@op:example.org"]`: anyone on the server may invite, only the operator is named.
  static func names(_ user: String) -> Bool {
    MatrixTransportConfiguration(
      homeserver: URL(string: "http://127.0.0.1:9")!, userID: "@bot:example.org",
      allowedInviters: ["example.org", operatorUser]
    ).namesInviter(user)
  }

  static func pins(_ store: InMemoryTransportStateStore, _ capture: LogCapture = LogCapture()) -> MatrixAliasPins {
    MatrixAliasPins(store: store, logger: .capturing(into: capture))
  }

  static func answering(_ room: String) -> @Sendable (Bool) async throws -> String { { _ in room } }
  static func failing(_ error: any Error) -> @Sendable (Bool) async throws -> String { { _ in throw error } }

  @Test("the rules, answer by answer")
  func rules() {
    typealias Verdict = MatrixAliasPins.Verdict
    func decide(
      pin: String? = nil, _ answer: MatrixAliasPins.Answer, missingSince: String? = nil, inviter: String? = nil
    ) -> Verdict {
      MatrixAliasPins.decide(
        pin: pin, answer: answer, missingSince: missingSince, inviter: inviter, names: Self.names)
    }
    let (a, b) = (Self.roomA, Self.roomB)
    // With a pin, the answer is only compared.
    #expect(decide(pin: a, .room(a)) == .pinned(a))
    #expect(decide(pin: a, .room(b)) == .moved(pinned: a, answered: b))
    #expect(decide(pin: a, .room(b), inviter: Self.operatorUser) == .moved(pinned: a, answered: b))
    #expect(decide(pin: a, .missing) == .pinnedAliasGone(a))
    #expect(decide(pin: a, .unknown("down")) == .pinnedUnasked(a))
    // Without one, the first real answer is taken, unless a stranger brought the bot into that room.
    #expect(decide(.room(a)) == .adopt(a))
    #expect(decide(.room(b), inviter: Self.stranger) == .invitedByStranger(room: b, inviter: Self.stranger))
    #expect(decide(.room(a), inviter: Self.operatorUser) == .adopt(a))
    #expect(decide(.missing) == .missing)
    #expect(decide(.unknown("down")) == .unknown("down"))
    // An alias that did not exist at first: only a room the operator's own invite brought the bot into.
    #expect(decide(.room(b), missingSince: "then") == .appearedLater(room: b, missingSince: "then"))
    #expect(
      decide(.room(b), missingSince: "then", inviter: Self.stranger)
        == .invitedByStranger(room: b, inviter: Self.stranger))
    #expect(decide(.room(a), missingSince: "then", inviter: Self.operatorUser) == .adopt(a))
  }

  @Test("pinned at the first answer; a later answer naming another room is refused and warned about, with both ids")
  func repointedAliasIsRefused() async throws {
    let store = InMemoryTransportStateStore()
    let capture = LogCapture()
    let pins = Self.pins(store, capture)
    #expect(try await pins.resolve(Self.alias, names: Self.names, lookup: Self.answering(Self.roomA)) == Self.roomA)
    #expect(store.snapshot[MatrixAliasPins.pinKey(Self.alias)] == Self.roomA)

    // Repointed: the pinned room stays, the pin is unchanged, and the warning names both rooms and the fix.
    #expect(try await pins.resolve(Self.alias, names: Self.names, lookup: Self.answering(Self.roomB)) == Self.roomA)
    #expect(store.snapshot[MatrixAliasPins.pinKey(Self.alias)] == Self.roomA)
    let warning = try #require(capture.entries.first { $0.level == .warning })
    #expect(warning.metadata["pinnedRoom"] == "\(Self.roomA)")
    #expect(warning.metadata["answeredRoom"] == "\(Self.roomB)")
    #expect(warning.line.contains("write \(Self.roomA) in the config in place of \(Self.alias)"), "\(warning.line)")
    // Resolved again (another config entry naming it, the join, a retry): the same refusal, said once.
    #expect(try await pins.resolve(Self.alias, names: Self.names, lookup: Self.answering(Self.roomB)) == Self.roomA)
    #expect(capture.entries.filter { $0.level == .warning }.count == 1)

    // The alias deleted, or the homeserver down: still the pinned room.
    #expect(try await pins.resolve(Self.alias, names: Self.names, lookup: Self.failing(Self.notFound)) == Self.roomA)
    let down = MatrixClientError.network("connection refused")
    #expect(try await pins.resolve(Self.alias, names: Self.names, lookup: Self.failing(down)) == Self.roomA)
  }

  @Test("a room the bot entered on a stranger's invite is never pinned; one the operator's invite brought it to is")
  func invitedRooms() async throws {
    let store = InMemoryTransportStateStore()
    let pins = Self.pins(store)
    await pins.recordInvite(room: Self.roomB, inviter: Self.stranger)
    await pins.recordInvite(room: Self.roomB, inviter: Self.operatorUser)  // the first invite is what counts
    await #expect(
      throws: MatrixAliasRefusal.invitedByStranger(alias: Self.alias, room: Self.roomB, inviter: Self.stranger)
    ) {
      try await pins.resolve(Self.alias, names: Self.names, lookup: Self.answering(Self.roomB))
    }
    #expect(store.snapshot[MatrixAliasPins.pinKey(Self.alias)] == nil)

    await pins.recordInvite(room: Self.roomA, inviter: Self.operatorUser)
    #expect(try await pins.resolve(Self.alias, names: Self.names, lookup: Self.answering(Self.roomA)) == Self.roomA)
  }

  @Test("an alias nobody held at first is not adopted when a stranger creates it later, even before inviting the bot")
  func aliasNobodyHeld() async throws {
    let store = InMemoryTransportStateStore()
    let pins = Self.pins(store)
    await #expect(throws: MatrixAliasRefusal.missing(alias: Self.alias)) {
      try await pins.resolve(Self.alias, names: Self.names, lookup: Self.failing(Self.notFound))
    }
    let since = try #require(store.snapshot[MatrixAliasPins.missingKey(Self.alias)])
    // Created on a room the bot is not in yet (its invite would come once pinned): refused all the same.
    await #expect(throws: MatrixAliasRefusal.appearedLater(alias: Self.alias, room: Self.roomB, missingSince: since)) {
      try await pins.resolve(Self.alias, names: Self.names, lookup: Self.answering(Self.roomB))
    }
    await pins.recordInvite(room: Self.roomB, inviter: Self.stranger)
    await #expect(
      throws: MatrixAliasRefusal.invitedByStranger(alias: Self.alias, room: Self.roomB, inviter: Self.stranger)
    ) {
      try await pins.resolve(Self.alias, names: Self.names, lookup: Self.answering(Self.roomB))
    }
    #expect(store.snapshot[MatrixAliasPins.pinKey(Self.alias)] == nil)
    #expect(store.snapshot[MatrixAliasPins.missingKey(Self.alias)] == since, "the first time it was missing is kept")

    // The operator's own invite into their room is what lets the alias be taken now.
    await pins.recordInvite(room: Self.roomA, inviter: Self.operatorUser)
    #expect(try await pins.resolve(Self.alias, names: Self.names, lookup: Self.answering(Self.roomA)) == Self.roomA)
    #expect(store.snapshot[MatrixAliasPins.missingKey(Self.alias)] == nil)
  }

  @Test("two first answers at once (the alias moved between them): one is pinned, and both callers get that room")
  func concurrentFirstAnswers() async throws {
    let store = InMemoryTransportStateStore()
    // Reads that give way to other tasks, as a database's do: where two decisions could interleave, they do.
    let pins = MatrixAliasPins(store: YieldingStore(store), logger: .quiet())
    // Both lookups answer only once both have asked, so both decide with no pin stored yet.
    let arrived = Barrier(count: 2)
    let rooms = try await withThrowingTaskGroup(of: String.self) { group in
      for room in [Self.roomA, Self.roomB] {
        group.addTask {
          try await pins.resolve(Self.alias, names: Self.names) { _ in
            await arrived.arrive()
            return room
          }
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    let pinned = try #require(store.snapshot[MatrixAliasPins.pinKey(Self.alias)])
    #expect(rooms == [pinned, pinned])
  }

  /// A store whose every call gives way to other tasks a few times first.
  struct YieldingStore: TransportStateStore {
    let base: InMemoryTransportStateStore
    init(_ base: InMemoryTransportStateStore) { self.base = base }

    func value(for key: String) async throws -> String? {
      for _ in 0..<20 { await Task.yield() }
      return try await base.value(for: key)
    }

    func setValue(_ value: String?, for key: String) async throws {
      for _ in 0..<20 { await Task.yield() }
      try await base.setValue(value, for: key)
    }
  }

  /// Lets its callers on once `count` of them have arrived.
  actor Barrier {
    let count: Int
    var waiting: [CheckedContinuation<Void, Never>] = []
    init(count: Int) { self.count = count }

    func arrive() async {
      if waiting.count + 1 >= count {
        for continuation in waiting { continuation.resume() }
        waiting = []
      } else {
        await withCheckedContinuation { waiting.append($0) }
      }
    }
  }

  @Test("without a pin, a homeserver that cannot be asked is an error (tried again later), and nothing is stored")
  func unknownWithoutPin() async throws {
    let store = InMemoryTransportStateStore()
    let down = MatrixClientError.network("connection refused")
    await #expect(throws: down) {
      try await Self.pins(store).resolve(Self.alias, names: Self.names, lookup: Self.failing(down))
    }
    #expect(store.snapshot.isEmpty)
  }

  @Test("check: a repointed alias warns with both rooms; one standing for no room fails in privateMessages.rooms only")
  func checkLines() {
    func line(_ verdict: MatrixAliasPins.Verdict, scoped: Bool, answer: MatrixAliasPins.Answer = .missing)
      -> CheckResult
    {
      MatrixAliasCheck.result(alias: Self.alias, scoped: scoped, verdict: verdict, answer: answer)
    }
    let moved = line(.moved(pinned: Self.roomA, answered: Self.roomB), scoped: true, answer: .room(Self.roomB))
    #expect(moved.outcome == .warn)
    #expect(
      moved.detail
        == "now names \(Self.roomB), but the bot keeps \(Self.roomA), the room it named first: the move is refused")
    #expect(
      moved.fix
        == "write \(Self.roomA) in the config in place of \(Self.alias) to keep that room, or \(Self.roomB) to move to it"
    )
    #expect(line(.pinned(Self.roomA), scoped: true).outcome == .pass)
    #expect(line(.adopt(Self.roomA), scoped: true).outcome == .pass)
    #expect(line(.pinnedAliasGone(Self.roomA), scoped: true).outcome == .warn)
    for verdict: MatrixAliasPins.Verdict in [
      .missing, .unknown("down"), .invitedByStranger(room: Self.roomB, inviter: Self.stranger),
      .appearedLater(room: Self.roomB, missingSince: "then"),
    ] {
      #expect(line(verdict, scoped: true).outcome == .fail, "\(verdict)")
      #expect(line(verdict, scoped: false).outcome == .warn, "\(verdict)")
    }
  }

  @Test("the transport: a pinned alias resolves to its pin, with the homeserver unreachable; a room id as it is")
  func transportUsesPins() async throws {
    let store = InMemoryTransportStateStore([MatrixAliasPins.pinKey(Self.alias): Self.roomA])
    let transport = MatrixTransport(
      configuration: MatrixTransportConfiguration(
        name: "matrix", homeserver: URL(string: "http://127.0.0.1:9")!, userID: "@bot:localhost",
        accessToken: "unused"),
      stateStore: store, logger: .quiet())
    #expect(try await transport.resolveRoom(Self.alias) == Self.roomA)
    #expect(try await transport.resolveRoom(Self.roomB) == Self.roomB)
  }
}
