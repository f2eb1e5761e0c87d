/// Bodies of the small endpoints. Field names follow the spec (snake case) through explicit coding keys, because
/// a key-decoding strategy would also rewrite dictionary keys such as room ids.
package struct MatrixVersionsResponse: Sendable, Hashable, Decodable {
  package var versions: [String]
}

package struct MatrixWhoAmIResponse: Sendable, Hashable, Decodable {
  package var userID: String
  package var deviceID: String?

  enum CodingKeys: String, CodingKey {
    case userID = "user_id"
    case deviceID = "device_id"
  }
}

package struct MatrixLoginResponse: Sendable, Hashable, Decodable {
  package var userID: String
  package var accessToken: String
  package var deviceID: String

  enum CodingKeys: String, CodingKey {
    case userID = "user_id"
    case accessToken = "access_token"
    case deviceID = "device_id"
  }
}

package struct MatrixRoomIDResponse: Sendable, Hashable, Decodable {
  package var roomID: String

  enum CodingKeys: String, CodingKey {
    case roomID = "room_id"
  }
}

package struct MatrixEventIDResponse: Sendable, Hashable, Decodable {
  package var eventID: String

  enum CodingKeys: String, CodingKey {
    case eventID = "event_id"
  }
}

package struct MatrixJoinedRoomsResponse: Sendable, Hashable, Decodable {
  package var joinedRooms: [String]

  enum CodingKeys: String, CodingKey {
    case joinedRooms = "joined_rooms"
  }
}

/// `GET /rooms/{roomId}/joined_members`: the joined members by user id (their profiles are not needed here).
package struct MatrixJoinedMembersResponse: Sendable, Hashable, Decodable {
  package struct Member: Sendable, Hashable, Decodable {}
  package var joined: [String: Member]
}

/// An empty object (`{}`), the answer of leave and similar calls.
package struct MatrixEmptyResponse: Sendable, Hashable, Decodable {}
