import AwfulBotForumTestKit
import AwfulBotTestKit
import FakeForum
import ForumModel
import Foundation
import Logging
import Testing

@testable import ForumsClient

@Suite("Forum faults map to typed errors", .serialized)
struct FaultTests {
  @Test func aFewServerErrorsAreRetriedAway() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.setFault(.serverError(count: 2))
      let page = try await forum.client.bookmarks(page: 1)
      #expect(page.threads.count == 4)
      #expect(await forum.requests(to: "/bookmarkthreads.php").count == 3)
    }
  }

  @Test func persistentServerErrorsAreHTTP500AfterTheLastAttempt() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.setFault(.serverError(count: nil))
      let error = await clientError { _ = try await forum.client.bookmarks(page: 1) }
      #expect(error == .http(status: 500))
      #expect(error?.isTransient == true)
      #expect(await forum.requests(to: "/bookmarkthreads.php").count == 3)
    }
  }

  @Test func clientErrorsAreNotRetried() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      let response = try await forum.client.transport.send(.get("nonexistent.php"))
      #expect(response.status == 404)
      #expect(await forum.requests(to: "/nonexistent.php").count == 1)
    }
  }

  @Test func databaseUnavailable() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.setFault(.databaseUnavailable)
      let error = await clientError { _ = try await forum.client.threadPage(threadID: "3600001", page: .number(1)) }
      guard case .databaseUnavailable = error else {
        Issue.record("expected .databaseUnavailable, got \(String(describing: error))")
        return
      }
      #expect(error?.isTransient == true)
      // The session is not at fault: it is kept.
      #expect(await forum.client.hasSession())
    }
  }

  @Test func databaseUnavailableDuringLogin() async throws {
    try await withFakeForum { forum in
      await forum.state.setFault(.databaseUnavailable)
      let error = await clientError { try await forum.client.logIn() }
      guard case .databaseUnavailable = error else {
        Issue.record("expected .databaseUnavailable, got \(String(describing: error))")
        return
      }
    }
  }

  @Test func bannedWhileLoggedIn() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.setFault(.banned)
      let error = await clientError { _ = try await forum.client.bookmarks(page: 1) }
      guard case .banned(_, let reason) = error else {
        Issue.record("expected .banned, got \(String(describing: error))")
        return
      }
      #expect(reason?.contains("banlist.php") == true)
      // A ban is not an expired session: no attempt to log in again.
      #expect(await forum.requests(to: "/account.php").count == 1)
    }
  }

  @Test func aForcedLogoutIsAnsweredByLoggingInAgain() async throws {
    try await withFakeForum { forum in
      _ = try await forum.client.bookmarks(page: 1)
      await forum.state.invalidateSessions()
      #expect(try await forum.client.bookmarks(page: 1).threads.count == 4)
      await forum.state.invalidateSessions()
      #expect(try await forum.client.forumIndex().user?.name == FakeForumSeed.botUsername)
      #expect(await forum.requests(to: "/account.php").count == 3)
    }
  }

  @Test func truncatedPagesAreNotUnderstood() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.setFault(.truncatedHTML)
      let error = await clientError { _ = try await forum.client.posts(threadID: "3600001", after: 0) }
      guard case .pageNotUnderstood(let scrape) = error else {
        Issue.record("expected .pageNotUnderstood, got \(String(describing: error))")
        return
      }
      #expect(scrape.page == "thread")
      let listError = await clientError { _ = try await forum.client.bookmarks(page: 1) }
      guard case .pageNotUnderstood = listError else {
        Issue.record("expected .pageNotUnderstood, got \(String(describing: listError))")
        return
      }
    }
  }

  @Test func aSlowForumTimesOut() async throws {
    try await withFakeForum(configure: { $0.requestTimeout = .milliseconds(300) }) { forum in
      try await forum.client.logIn()
      await forum.state.setFault(.delay(milliseconds: 2_000))
      let error = await clientError { _ = try await forum.client.bookmarks(page: 1) }
      #expect(error == .timedOut(seconds: 0.3))
      // A slow forum gets no extra load: timeouts are not retried.
      #expect(await forum.requests(to: "/bookmarkthreads.php").count == 1)
      await forum.state.clearFaults()
    }
  }

  @Test func aSlowResponseWithinTheTimeoutIsFine() async throws {
    try await withFakeForum(configure: { $0.requestTimeout = .seconds(10) }) { forum in
      try await forum.client.logIn()
      await forum.state.setFault(.delay(milliseconds: 200))
      #expect(try await forum.client.bookmarks(page: 1).threads.count == 4)
    }
  }

  /// Probation is a state, not a fault of the page: the page is read and the probation reported with it
  /// (ProbationTests has the rest).
  @Test func probationIsReportedNotThrown() async throws {
    try await withFakeForum { forum in
      try await forum.client.logIn()
      await forum.state.setFault(.probation)
      let page = try await forum.client.bookmarks(page: 1)
      #expect(page.threads.count == 4)
      #expect(page.probation != nil)
      #expect(await forum.client.probation == page.probation)
    }
  }

  @Test func oversizedBodiesAreRefused() async throws {
    try await withFakeForum(configure: { $0.maximumBodySize = 2_048 }) { forum in
      let error = await clientError { _ = try await forum.client.threadPage(threadID: "3600001", page: .number(1)) }
      #expect(error == .bodyTooLarge(limit: 2_048))
    }
  }

  @Test func aForumThatIsNotThereIsATransportError() async throws {
    // Nothing listens on the discard port of loopback.
    var configuration = ForumsClientConfiguration.test(baseURL: URL(string: "http://127.0.0.1:9/")!)
    configuration.retry = .none
    configuration.connectTimeout = .seconds(2)
    let client = ForumsClient(configuration: configuration, logger: Logger.quiet())
    let error = await clientError { try await client.logIn() }
    try await client.shutdown()
    guard case .transport = error else {
      Issue.record("expected .transport, got \(String(describing: error))")
      return
    }
  }

  @Test func everyErrorSaysWhatToDo() {
    let errors: [ForumsClientError] = [
      .badCredentials, .banned(helpURL: nil, reasonURL: "x"), .databaseUnavailable(message: "m"), .loggedOut,
      .probation(message: "m"), .threadClosed(message: "Sorry! This thread is closed!"),
      .floodCheck(message: "Please try again in 3 seconds.", interval: nil, retryAfter: 3),
      .forumRefused(title: "t", message: "m"),
      .pageNotUnderstood(ScrapeError(page: "p", reason: "r")), .http(status: 503), .transport("refused"),
      .timedOut(seconds: 1), .bodyTooLarge(limit: 1), .tooManyRedirects, .postNotFound(postID: "1"),
    ]
    for error in errors {
      #expect(error.description.count > 30, "\(error)")
    }
    #expect(ForumsClientError(ForumPageError.loggedOut(message: "m")) == .loggedOut)
    #expect(
      ForumsClientError(ForumPageError.threadClosed(title: "Sorry!", message: "! This thread is closed!"))
        == .threadClosed(message: "Sorry! This thread is closed!"))
  }
}
