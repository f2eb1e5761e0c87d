import ChatBridge

extension AppConfiguration.PrivateMessageSettings: Decodable {
  /// `privateMessages`: `rooms` (each `{"transport", "room"}` as in `rooms[]`, each once) and `excerpt`.
  package init(from decoder: any Decoder) throws {
    let reader = try ConfigReader<CodingKeys>.section(decoder)
    var rooms: [AppConfiguration.RoomReference] = []
    // Read item by item to name a room given twice at its position.
    let items = reader.sections(AppConfiguration.RoomReference.Item.self, .rooms) ?? []
    for item in items {
      guard let room = item.room else { continue }
      if rooms.contains(room) {
        reader.report(atPath: item.path, "names \(room.transport) \(room.room) a second time")
      } else {
        rooms.append(room)
      }
    }
    self.init(rooms: rooms, excerpt: reader.bool(.excerpt))
    try reader.finish()
  }
}

extension AppConfiguration.RoomReference: Decodable {
  package init(from decoder: any Decoder) throws {
    guard let room = try Item(from: decoder).room else { throw ConfigurationSkip() }
    self = room
  }

  /// A reference read where it stands (`privateMessages.rooms[1]`), kept with its place so a duplicate can be named.
  struct Item: Decodable {
    var path: String
    var room: AppConfiguration.RoomReference?

    init(from decoder: any Decoder) throws {
      let reader = try ConfigReader<AppConfiguration.RoomReference.CodingKeys>.section(decoder)
      path = reader.path
      let transport = reader.string(.transport, required: true)
      let name = reader.string(.room, required: true)
      reader.checkTransport(.transport, named: transport)
      if let name, name.trimmingCharacters(in: .whitespaces).isEmpty { reader.report(.room, "must not be empty") }
      try reader.finish()
      room = transport.flatMap { transport in name.map { .init(transport: transport, room: $0) } }
    }
  }
}

extension AppConfiguration.PrivateMessageSettings: ConfigSection {
  func value(at key: CodingKeys) -> AnyHashable {
    switch key {
    case .rooms: rooms
    case .excerpt: excerpt
    }
  }
}
