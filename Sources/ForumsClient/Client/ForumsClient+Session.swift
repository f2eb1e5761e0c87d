import ForumModel
import Foundation

extension ForumsClient {
  /// Logs in with the configured credentials and returns the forum index the login lands on.
  /// Concurrent callers share one login.
  @discardableResult
  package func logIn() async throws -> ForumIndex {
    if let loginInProgress {
      return try await loginInProgress.value
    }
    let task = Task { try await self.performLogIn() }
    loginInProgress = task
    defer { loginInProgress = nil }
    return try await task.value
  }

  /// Runs `operation` in a logged-in session: logs in first when there is no session, and when the operation finds
  /// the session expired, logs in again once and repeats it. A second expiry is `ForumsClientError.loggedOut`.
  func withSession<T>(_ operation: () async throws -> T) async throws -> T {
    if !(await hasSession()) {
      try await logIn()
    }
    do {
      return try await operation()
    } catch is SessionExpired {
      logger.notice("forum session expired; logging in again")
      await transport.clearCookies()
      try await logIn()
      do {
        return try await operation()
      } catch is SessionExpired {
        logger.error("forum session expired again right after logging in")
        throw ForumsClientError.loggedOut
      }
    }
  }

  private func performLogIn() async throws -> ForumIndex {
    let credentials = configuration.credentials
    let request = ForumRequest.post(
      "account.php", query: [("json", "1")],
      form: [
        FormField("action", "login"), FormField("username", credentials.username),
        FormField("password", credentials.password), FormField("next", "/index.php?json=1"),
      ])
    logger.info("logging in to the forum", metadata: ["username": "\(credentials.username)"])
    let response = try await transport.send(request)
    if response.isSuccess, response.looksLikeJSON, let index = try? PageScrapers.forumIndex(json: response.data) {
      guard await hasSession() else {
        // A JSON index without the session cookie is a login the forum did not accept.
        await transport.clearCookies()
        throw ForumsClientError.badCredentials
      }
      logger.info("logged in to the forum", metadata: ["username": "\(credentials.username)"])
      return index
    }
    // Not the index: the forum's own client drops every cookie here, so a half-made session (a banned account can
    // "log in" and then do nothing) is never reused.
    await transport.clearCookies()
    let error = loginFailure(for: response)
    logger.error("forum login failed", metadata: ["error": "\(error)"])
    throw error
  }

  /// A login answered with a page: the ban and database pages say what they are; anything else means the forum did
  /// not take the credentials, unless the server itself failed.
  private func loginFailure(for response: ForumResponse) -> ForumsClientError {
    if let page = PageReader.errorPage(in: response) {
      switch page {
      case .banned, .databaseUnavailable, .probation, .floodCheck: return ForumsClientError(page)
      case .standard, .loggedOut, .threadClosed: return .badCredentials
      }
    }
    if !response.isSuccess && !(400...499).contains(response.status) {
      return .http(status: response.status)
    }
    return .badCredentials
  }
}
