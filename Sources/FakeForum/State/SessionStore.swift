/// Who is logged in, by session token, and which reply forms were handed out and not yet used.
struct SessionStore {
  /// sessionhash → user id.
  private var userIDsByToken: [String: Int] = [:]
  /// form_cookie → user id.
  private var formCookieOwners: [String: Int] = [:]

  /// Live sessions.
  var count: Int { userIDsByToken.count }

  func userID(token: String) -> Int? { userIDsByToken[token] }

  /// A new session for the user. Returns its token.
  mutating func start(user: Int) -> String {
    let token = Self.randomHex(32)
    userIDsByToken[token] = user
    return token
  }

  mutating func end(token: String) { userIDsByToken[token] = nil }

  mutating func endAll() { userIDsByToken.removeAll() }

  /// Who a form cookie was handed to; nil once used (or never handed out).
  func formCookieOwner(_ cookie: String) -> Int? { formCookieOwners[cookie] }

  /// A new form cookie for a form shown to the user.
  mutating func issueFormCookie(user: Int) -> String {
    let cookie = Self.randomHex(12)
    formCookieOwners[cookie] = user
    return cookie
  }

  /// A form cookie works once.
  mutating func useFormCookie(_ cookie: String) { formCookieOwners[cookie] = nil }

  private static func randomHex(_ length: Int) -> String {
    let digits = Array("0123456789abcdef")
    return String((0..<length).map { _ in digits[Int.random(in: 0..<16)] })
  }
}
