import ForumModel
import Foundation

/// Forums without private messages (the test kit's `TestForum`) say so when asked.
extension Forum {
  package func privateMessages() async throws -> [PrivateMessageHeader] { throw EngineError.privateMessagesUnavailable }
  package func privateMessage(id: String) async throws -> PrivateMessageContent {
    throw EngineError.privateMessagesUnavailable
  }
  package func replyToPrivateMessage(id: String, text: String) async throws {
    throw EngineError.privateMessagesUnavailable
  }
  package var probation: Probation? { get async { nil } }
  package var wall: ForumWallSighting? { get async { nil } }
}

/// Forums without a Leper's Colony (test stand-ins that do not model one) say so when asked.
extension Forum {
  package func lepersColony(page: Int) async throws -> LepersColonyPage { throw EngineError.lepersColonyUnavailable }
  package func rapSheet(user: String, page: Int) async throws -> LepersColonyPage {
    throw EngineError.lepersColonyUnavailable
  }
}

/// Forums without a search (test stand-ins that do not model one) say so when asked.
extension Forum {
  package func search(query: String, forumIDs: [String]) async throws -> SearchResultsPage {
    throw EngineError.searchUnavailable
  }
  package func searchResults(queryID: String, page: Int) async throws -> SearchResultsPage {
    throw EngineError.searchUnavailable
  }
}
