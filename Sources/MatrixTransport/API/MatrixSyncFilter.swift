/// The `/sync` filter: room messages, membership, power levels and names; no presence, receipts, typing or account
/// data. Sent inline (JSON in the `filter` parameter) so no filter has to be uploaded and remembered.
package enum MatrixSyncFilter {
  package static let eventTypes: [JSONValue] = ["m.room.message", "m.room.member", "m.room.power_levels"]

  package static func filter(timelineLimit: Int = 50) -> JSONValue {
    [
      "presence": ["not_types": ["*"]],
      "account_data": ["not_types": ["*"]],
      "room": [
        // Left rooms are needed to notice kicks and bans; on the first sync their old timelines are ignored.
        "include_leave": true,
        "timeline": ["types": .array(eventTypes), "limit": .number(Double(timelineLimit))],
        "state": ["types": .array(eventTypes), "lazy_load_members": true],
        "ephemeral": ["not_types": ["*"]],
        "account_data": ["not_types": ["*"]],
      ],
    ]
  }
}
