import Foundation
import Logging

/// CTCP requests (`\u{01}VERSION\u{01}` in a PRIVMSG): VERSION, PING, TIME and CLIENTINFO are answered with a
/// NOTICE to the sender, within `IRCCTCPLimiter`'s limits; requests over them are ignored (and logged once per
/// run of them). ACTION (`/me`) is chat and gets no answer; neither do DCC and the other requests.
extension IRCClient {
  /// The requests the bot answers, as CLIENTINFO lists them.
  static let answeredCTCP = ["CLIENTINFO", "PING", "TIME", "VERSION"]
  /// A PING argument longer than this is cut before it is echoed.
  static let maximumCTCPPingBytes = 128

  func handleCTCP(_ raw: String, from source: IRCPrefix) async {
    var body = Substring(raw).dropFirst()
    if body.last == "\u{01}" { body = body.dropLast() }
    let nameEnd = body.firstIndex(of: " ") ?? body.endIndex
    let command = body[..<nameEnd].uppercased()
    let argument = body[nameEnd...].drop(while: { $0 == " " })
    guard Self.answeredCTCP.contains(command) else {
      if command != "ACTION" {
        logger.debug("CTCP request not answered", metadata: ["command": "\(command.prefix(20))"])
      }
      return
    }
    let key = IRCCaseMapping.fold(source.host ?? source.name)
    switch ctcpLimiter.admit(key, now: clock.now) {
    case .answer:
      break
    case .ignoreFirst:
      logger.warning(
        "CTCP requests over the limit are ignored", metadata: ["command": "\(command)", "from": "\(source.name)"])
      return
    case .ignore:
      return
    }
    let answer: String
    switch command {
    case "VERSION": answer = IRCTextSanitizer.singleLine(configuration.versionReply)
    case "PING": answer = Self.prefix(IRCTextSanitizer.singleLine(String(argument)), bytes: Self.maximumCTCPPingBytes)
    case "TIME": answer = Self.ctcpTime(Date())
    default: answer = Self.answeredCTCP.joined(separator: " ")
    }
    let text = answer.isEmpty ? command : "\(command) \(answer)"
    await send(.notice, [source.name, "\u{01}\(text)\u{01}"])
    logger.debug("CTCP request answered", metadata: ["command": "\(command)", "from": "\(source.name)"])
  }

  /// `Tue, 25 Nov 2025 06:55:00 +0000`: RFC 1123, in UTC.
  static func ctcpTime(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
    return formatter.string(from: date)
  }

  /// The longest prefix of `text` within `bytes` UTF-8 bytes, never splitting a character.
  static func prefix(_ text: String, bytes: Int) -> String {
    guard text.utf8.count > bytes else { return text }
    var result = ""
    var used = 0
    for character in text {
      let size = character.utf8.count
      if used + size > bytes { break }
      result.append(character)
      used += size
    }
    return result
  }
}
