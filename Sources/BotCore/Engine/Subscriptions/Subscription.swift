import BotStore
import ChatBridge
import Foundation

/// A room's subscription as stored.
package struct Subscription: Sendable, Hashable, Identifiable {
  package var id: Int64
  package var room: RoomRef
  package var target: SubscriptionTarget
  package var filters: SubscriptionFilters
  package var createdAt: Date
  /// Sender id of whoever created it, when known; `createdByConfiguration` for one the config file names.
  package var createdBy: String?

  /// The `createdBy` of a subscription the config file names (`rooms[].subscriptions`): a reload that drops it from
  /// the file removes it, and only it (a subscription made by a command stays).
  package static let createdByConfiguration = "config"

  package init(
    id: Int64, room: RoomRef, target: SubscriptionTarget, filters: SubscriptionFilters, createdAt: Date,
    createdBy: String? = nil
  ) {
    self.id = id
    self.room = room
    self.target = target
    self.filters = filters
    self.createdAt = createdAt
    self.createdBy = createdBy
  }

  /// "thread 123 (OP only)": the reason recorded on outbox rows, shown by `why`.
  package var description: String {
    filters.isEmpty ? target.description : "\(target.description) (\(filters.summary))"
  }
}

extension Subscription {
  /// The subscription a stored row describes; nil for a row not yet saved (no id).
  init?(record: SubscriptionRecord) {
    guard let id = record.id else { return nil }
    self.init(
      id: id, room: RoomRef(transport: record.transport, room: record.room),
      target: SubscriptionTarget(kind: record.kind, argument: record.argument),
      filters: SubscriptionFilters(
        includeAuthors: record.includeAuthors, excludeAuthors: record.excludeAuthors, keywords: record.keywords,
        opOnly: record.opOnly),
      createdAt: record.createdAt, createdBy: record.createdBy)
  }
}
