import ChatBridge
import Foundation

extension AppConfiguration.ForumSettings: Decodable {
  /// `forum`: the bot's account. The password defaults to `$AWFULBOT_FORUM_PASSWORD`; secrets must be set unless the
  /// read ignores them.
  package init(from decoder: any Decoder) throws {
    let reader = try ConfigReader<CodingKeys>.section(decoder)
    var baseURL: URL?
    if let text = reader.string(.baseURL) {
      if let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil {
        baseURL = url
      } else {
        reader.report(.baseURL, "expected an http(s) URL, got \"\(text)\"")
      }
    }
    let username = reader.string(.username, required: true) ?? ""
    if !reader.hasProblem(.username), username.trimmingCharacters(in: .whitespaces).isEmpty {
      reader.report(.username, "must not be empty")
    }
    let password = reader.secret(.password) ?? SecretValue(environment: Self.passwordVariable)
    if reader.context.checksSecrets, !reader.hasProblem(.password),
      password.resolve(environment: reader.context.environment) == nil
    {
      reader.report(.password, "\(password) is not set")
    }
    let zone = reader.timeZone(.timeZone)
    let spacing = reader.number(.requestSpacingSeconds)
    if let spacing, spacing < 0 { reader.report(.requestSpacingSeconds, "must be 0 or more") }
    let timeout = reader.number(.requestTimeoutSeconds)
    if let timeout, timeout <= 0 { reader.report(.requestTimeoutSeconds, "must be more than 0") }
    // Written as a string ("1") or a number (1): either names the forum.
    var announcementsForum: String?
    if let id = try? reader.decode(String.self, .announcementsForumID), !id.isEmpty, id.allSatisfy(\.isNumber) {
      announcementsForum = id
    } else if let id = try? reader.decode(Int.self, .announcementsForumID), id >= 1 {
      announcementsForum = String(id)
    } else if let other = reader.raw(.announcementsForumID) {
      reader.report(.announcementsForumID, "expected a forum id like \"1\", got \(other.kindName)")
    }
    self.init(
      baseURL: baseURL, username: username, password: password, timeZone: zone, requestSpacingSeconds: spacing,
      requestTimeoutSeconds: timeout, announcementsForumID: announcementsForum,
      updateReadMarkers: reader.bool(.updateReadMarkers))
    cookies = Self.readCookies(reader)
    if let agent = reader.string(.userAgent) {
      if agent.trimmingCharacters(in: .whitespaces).isEmpty || agent.contains(where: { $0.isNewline }) {
        reader.report(.userAgent, "must be one line of text, as the browser sends it")
      } else {
        userAgent = agent
      }
    }
    try reader.finish()
  }

  /// `forum.cookies`: name → secret (a string or `{"env": "VARIABLE"}`), as a browser holds them after passing a
  /// Cloudflare challenge (`cf_clearance`).
  private static func readCookies(_ reader: ConfigReader<CodingKeys>) -> [String: SecretValue] {
    guard let value = reader.raw(.cookies) else { return [:] }
    guard case .object(let members) = value else {
      reader.report(.cookies, "expected an object of cookie name to value, got \(value.kindName)")
      return [:]
    }
    let context = reader.context
    var cookies: [String: SecretValue] = [:]
    for name in members.keys.sorted() {
      let path = "\(reader.at(.cookies)).\(name)"
      let token = !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) }
      guard token else {
        reader.report(atPath: path, "is not a cookie name")
        continue
      }
      guard let value = members[name], value != .null else { continue }
      let secret: SecretValue
      switch SecretValue.written(value) {
      case .success(let written): secret = written
      case .failure(let problem):
        reader.report(atPath: path, problem.reason)
        continue
      }
      if context.checksSecrets {
        guard let resolved = secret.resolve(environment: context.environment) else {
          reader.report(atPath: path, "\(secret) is not set")
          continue
        }
        if resolved.contains(where: { $0 == ";" || $0.isWhitespace || $0 == "," }) {
          reader.report(atPath: path, "a cookie value has no spaces, commas or semicolons")
        }
      }
      cookies[name] = secret
    }
    return cookies
  }
}

extension AppConfiguration.ForumSettings: ConfigSection {
  func value(at key: CodingKeys) -> AnyHashable {
    switch key {
    case .baseURL: baseURL
    case .username: username
    case .password: password
    case .timeZone: timeZone
    case .requestSpacingSeconds: requestSpacingSeconds
    case .requestTimeoutSeconds: requestTimeoutSeconds
    case .announcementsForumID: announcementsForumID
    case .updateReadMarkers: updateReadMarkers
    case .cookies: cookies
    case .userAgent: userAgent
    }
  }
}
