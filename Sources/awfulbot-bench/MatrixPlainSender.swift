import AsyncHTTPClient
import Foundation
import MatrixModel
import MatrixTransport
import NIOCore

/// The baseline the bot is measured against: the least a program can do to put events in a room. One account, one
/// `HTTPClient` per room held to one keep-alive connection, and a loop that PUTs
/// `/_matrix/client/v3/rooms/{room}/send/m.room.message/{txn}` with a fixed content encoded once and waits for the
/// answer before the next; no store, no `/sync`, no rendering. Rooms are sent to in parallel, one loop each.
struct MatrixPlainSender {
  let context: MatrixBenchContext
  let account: SynapseAccount
  let rooms: Int
  let events: Int
  let homeserverCPU: HomeserverCPU
  /// What every event carries: by default the content of one of the bot's own events, so both legs ask the same
  /// of the homeserver (a relayed post with its HTML is about ten times the bytes of a one-line notice, and costs
  /// Synapse 1–2 ms more per event).
  let content: [UInt8]

  /// Rooms joined and connections open: what the timed part starts from.
  struct Prepared: Sendable {
    let roomIDs: [String]
    let clients: [HTTPClient]
  }

  func measure() async throws -> MatrixThroughputResult {
    try await send(try await prepare())
  }

  /// Creates the rooms and opens one keep-alive connection per room, before any clock starts.
  func prepare() async throws -> Prepared {
    var roomIDs: [String] = []
    for n in 1...rooms {
      let room = try await context.owner.createRoom(
        name: "awfulbot-bench plain \(n)/\(rooms)", inviting: account.userID)
      _ = try await context.owner.client.join(token: account.accessToken, roomIDOrAlias: room)
      roomIDs.append(room)
    }
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1
    let clients = roomIDs.map { _ in
      HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }
    do {
      // Open each connection before the clock starts, as the bot's are open by the time it drains.
      for client in clients { try await warmUp(client) }
    } catch {
      for client in clients { try? await client.shutdown() }
      throw error
    }
    return Prepared(roomIDs: roomIDs, clients: clients)
  }

  /// The timed part: every room's events, rooms in parallel; shuts the connections down.
  ///
  /// - Parameter readsHomeserverWork: false when the bot sends at the same time (side by side): reading Synapse's
  ///   counters there would have it render its metrics page while the bot's clock runs, and the counts would mix
  ///   both senders' work.
  func send(_ prepared: Prepared, readsHomeserverWork: Bool = true) async throws -> MatrixThroughputResult {
    do {
      let result = try await send(
        events, over: prepared, label: String(UUID().uuidString.prefix(8)), readsHomeserverWork: readsHomeserverWork)
      await close(prepared)
      return result
    } catch {
      await close(prepared)
      throw error
    }
  }

  /// `count` events split evenly over the prepared rooms, rooms in parallel, timed; the connections stay open (the
  /// interleaved comparison sends several chunks over them). `label` keeps the transaction ids of each call apart.
  func send(_ count: Int, over prepared: Prepared, label: String, readsHomeserverWork: Bool = true) async throws
    -> MatrixThroughputResult
  {
    let perRoom = count / prepared.roomIDs.count
    let workBefore = readsHomeserverWork ? await HomeserverWork.snapshot() : nil
    let before = ProcessUsage.now()
    let homeserverBefore = homeserverCPU.seconds()
    let started = ContinuousClock.now
    let sent = try await withThrowingTaskGroup(of: Int.self) { group in
      for (room, client) in zip(prepared.roomIDs, prepared.clients) {
        group.addTask {
          for n in 1...perRoom {
            try await send(client: client, room: room, transactionID: "plain-\(label)-\(n)")
          }
          return perRoom
        }
      }
      return try await group.reduce(0, +)
    }
    let elapsed = ContinuousClock.now - started
    let after = ProcessUsage.now()
    let homeserverAfter = homeserverCPU.seconds()
    let workAfter = readsHomeserverWork ? await HomeserverWork.snapshot() : nil
    return MatrixThroughputResult(
      events: sent, seconds: elapsed.milliseconds / 1000, cpuSeconds: after.cpuSeconds - before.cpuSeconds,
      homeserverCPUSeconds: homeserverAfter.flatMap { after in homeserverBefore.map { after - $0 } },
      homeserverWork: workAfter.flatMap { after in workBefore.map { after.since($0) } },
      roomIDs: prepared.roomIDs)
  }

  /// Shuts the connections down.
  func close(_ prepared: Prepared) async {
    for client in prepared.clients { try? await client.shutdown() }
  }

  private func url(_ path: String) -> String {
    var base = context.homeserver.absoluteString
    while base.hasSuffix("/") { base.removeLast() }
    return base + path
  }

  private func warmUp(_ client: HTTPClient) async throws {
    var request = HTTPClientRequest(url: url("/_matrix/client/v3/account/whoami"))
    request.headers.add(name: "Authorization", value: "Bearer \(account.accessToken)")
    let response = try await client.execute(request, timeout: .seconds(30))
    _ = try await response.body.collect(upTo: 1 << 20)
  }

  private func send(client: HTTPClient, room: String, transactionID: String) async throws {
    let path =
      "/_matrix/client/v3/rooms/\(MatrixRequest.encode(room))/send/m.room.message/"
      + MatrixRequest.encode(transactionID)
    var request = HTTPClientRequest(url: url(path))
    request.method = .PUT
    request.headers.add(name: "Authorization", value: "Bearer \(account.accessToken)")
    request.headers.add(name: "Content-Type", value: "application/json")
    request.body = .bytes(ByteBuffer(bytes: content))
    let response = try await client.execute(request, timeout: .seconds(30))
    let answer = try await response.body.collect(upTo: 1 << 20)
    guard response.status == .ok else {
      throw MatrixBenchmarkError.failed(
        "the plain sender's PUT was refused: \(response.status.code) \(String(buffer: answer))")
    }
  }
}
