import Foundation

/// How many commands chat may give, so that no one viewer can keep the bot (and the forum account's one request a
/// second) busy: a token bucket per user and per room, and one shared by every forum request commands make, which
/// leaves polling the rest of the forum's pace. Each bucket holds a minute's worth and refills evenly.
package actor CommandBudget {
  /// The limits, per minute (0 turns a limit off).
  package struct Limits: Sendable, Hashable {
    /// Commands one user may give (all rooms together, on one transport).
    package var userCommandsPerMinute: Int
    /// Commands a room may give (all its users together).
    package var roomCommandsPerMinute: Int
    /// Forum requests commands may make, all users and rooms together. At the forum's default spacing of one
    /// request a second, 15 leaves polling three quarters of the account's pace at worst.
    package var forumRequestsPerMinute: Int
    /// Searches one user may make (`search`, all rooms together, on one transport); the forum limits its searches,
    /// and each is two forum requests.
    package var userSearchesPerMinute: Int

    package static let standard = Limits(
      userCommandsPerMinute: 20, roomCommandsPerMinute: 40, forumRequestsPerMinute: 15)
    /// No limit at all (each set to 0).
    package static let off = Limits(
      userCommandsPerMinute: 0, roomCommandsPerMinute: 0, forumRequestsPerMinute: 0, userSearchesPerMinute: 0)

    package init(
      userCommandsPerMinute: Int, roomCommandsPerMinute: Int, forumRequestsPerMinute: Int,
      userSearchesPerMinute: Int = 1
    ) {
      self.userCommandsPerMinute = userCommandsPerMinute
      self.roomCommandsPerMinute = roomCommandsPerMinute
      self.forumRequestsPerMinute = forumRequestsPerMinute
      self.userSearchesPerMinute = userSearchesPerMinute
    }
  }

  /// What a command may do now.
  package enum Admission: Sendable, Hashable {
    case allowed
    /// Over the limit: say `refusal` (once, until the sender has calmed down: a minute's budget back).
    case refused(String)
    /// Over the limit and already told: say nothing.
    case ignored
  }

  private struct Bucket {
    var tokens: Double
    var updated: Date
    /// The sender was told they are over the limit, and has not calmed down since (their bucket full again):
    /// during a steady flood the commands that refills let through do not earn a second refusal.
    var told = false
  }

  package private(set) var limits: Limits
  private var users: [String: Bucket] = [:]
  private var rooms: [String: Bucket] = [:]
  private var forum: Bucket?
  /// Commands refused, for logs and tests.
  package private(set) var refusedCount = 0
  /// Buckets are forgotten once full again; this bounds them between clean-ups.
  private let maximumBuckets = 10_000

  package init(limits: Limits = .standard) {
    self.limits = limits
  }

  package func update(_ limits: Limits) {
    self.limits = limits
  }

  /// Takes one command from `user`'s and `room`'s budgets, or says why not. A refusal costs nothing.
  package func admit(user: String, room: String, now: Date) -> Admission {
    var userBucket = refilled(users[user], perMinute: limits.userCommandsPerMinute, now: now)
    var roomBucket = refilled(rooms[room], perMinute: limits.roomCommandsPerMinute, now: now)
    let userOver = limits.userCommandsPerMinute > 0 && userBucket.tokens < 1
    let roomOver = limits.roomCommandsPerMinute > 0 && roomBucket.tokens < 1
    defer {
      users[user] = userBucket
      rooms[room] = roomBucket
      if users.count + rooms.count > maximumBuckets { forgetFullBuckets(now: now) }
    }
    guard userOver || roomOver else {
      if userBucket.tokens >= Double(limits.userCommandsPerMinute) { userBucket.told = false }
      userBucket.tokens -= 1
      roomBucket.tokens -= 1
      return .allowed
    }
    refusedCount += 1
    // Told once per user until they are let through again, whichever budget ran out.
    guard !userBucket.told else { return .ignored }
    userBucket.told = true
    if userOver {
      let wait = secondsUntilOne(userBucket, perMinute: limits.userCommandsPerMinute)
      return .refused(
        "You are giving commands faster than I take them (\(limits.userCommandsPerMinute) a minute); I will take "
          + "yours again in \(wait) seconds, and until then I ignore them without answering.")
    }
    let wait = secondsUntilOne(roomBucket, perMinute: limits.roomCommandsPerMinute)
    return .refused(
      "This room is giving commands faster than I take them (\(limits.roomCommandsPerMinute) a minute); I will take "
        + "more in \(wait) seconds, and until then I ignore yours without answering.")
  }

  /// Takes one forum request from the commands' share; nil when allowed, else the seconds until one is free.
  package func takeForumRequest(now: Date) -> Int? {
    guard limits.forumRequestsPerMinute > 0 else { return nil }
    var bucket = refilled(forum, perMinute: limits.forumRequestsPerMinute, now: now)
    defer { forum = bucket }
    guard bucket.tokens >= 1 else { return secondsUntilOne(bucket, perMinute: limits.forumRequestsPerMinute) }
    bucket.tokens -= 1
    return nil
  }

  private func refilled(_ bucket: Bucket?, perMinute: Int, now: Date) -> Bucket {
    let capacity = Double(max(perMinute, 0))
    guard var bucket else { return Bucket(tokens: capacity, updated: now) }
    let elapsed = max(0, now.timeIntervalSince(bucket.updated))
    bucket.tokens = min(capacity, bucket.tokens + elapsed * capacity / 60)
    bucket.updated = now
    return bucket
  }

  private func secondsUntilOne(_ bucket: Bucket, perMinute: Int) -> Int {
    guard perMinute > 0 else { return 0 }
    return max(1, Int(((1 - bucket.tokens) * 60 / Double(perMinute)).rounded(.up)))
  }

  private func forgetFullBuckets(now: Date) {
    users = users.filter {
      refilled($0.value, perMinute: limits.userCommandsPerMinute, now: now).tokens
        < Double(limits.userCommandsPerMinute)
    }
    rooms = rooms.filter {
      refilled($0.value, perMinute: limits.roomCommandsPerMinute, now: now).tokens
        < Double(limits.roomCommandsPerMinute)
    }
  }
}
