import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Keeps a post from making the bot fetch from where only the bot can reach: its own machine, its network, the
/// cloud's metadata address. A host's every address must be public; a literal address is judged as it is.
struct NetworkAddressGuard {
  /// What the host's addresses are, for the fetch to go ahead or not.
  enum Verdict: Sendable, Equatable {
    case unresolved
    /// One of its addresses is private or local (that one).
    case privateAddress(String)
    case publicAddresses
  }

  /// Resolves the host (blocking: call it off the cooperative threads) and judges every address it has.
  static func verdict(host: String) -> Verdict {
    let addresses = resolve(host)
    guard !addresses.isEmpty else { return .unresolved }
    return addresses.first(where: isPrivate).map(Verdict.privateAddress) ?? .publicAddresses
  }

  /// The host's IPv4 and IPv6 addresses, as text.
  static func resolve(_ host: String) -> [String] {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var result: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, nil, &hints, &result) == 0, let first = result else { return [] }
    defer { freeaddrinfo(first) }
    var addresses: [String] = []
    var cursor: UnsafeMutablePointer<addrinfo>? = first
    while let info = cursor {
      var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
      if getnameinfo(
        info.pointee.ai_addr, info.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0
      {
        addresses.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
      }
      cursor = info.pointee.ai_next
    }
    return addresses
  }

  /// Loopback, private (RFC 1918, unique local), link-local, shared (CGNAT), unspecified, multicast, and IPv4 written
  /// inside IPv6.
  static func isPrivate(_ address: String) -> Bool {
    let text = address.split(separator: "%").first.map(String.init) ?? address
    if let v4 = ipv4(text) { return isPrivate(v4: v4) }
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, text, &v6) == 1 else { return true }
    let bytes = withUnsafeBytes(of: v6) { Array($0) }
    if bytes.allSatisfy({ $0 == 0 }) || bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
    if bytes[0] & 0xFE == 0xFC { return true }  // fc00::/7
    if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return true }  // fe80::/10
    if bytes[0] == 0xFF { return true }  // multicast
    // ::ffff:a.b.c.d and ::a.b.c.d carry an IPv4 address.
    if bytes[0..<10].allSatisfy({ $0 == 0 }) && (bytes[10..<12] == [0xFF, 0xFF] || bytes[10..<12] == [0, 0]) {
      return isPrivate(v4: Array(bytes[12..<16]))
    }
    return false
  }

  private static func ipv4(_ text: String) -> [UInt8]? {
    var v4 = in_addr()
    guard inet_pton(AF_INET, text, &v4) == 1 else { return nil }
    return withUnsafeBytes(of: v4) { Array($0) }
  }

  private static func isPrivate(v4 bytes: [UInt8]) -> Bool {
    switch (bytes[0], bytes[1]) {
    case (0, _), (10, _), (127, _): return true
    case (169, 254): return true
    case (172, 16...31): return true
    case (192, 168): return true
    case (100, 64...127): return true
    case (224...255, _): return true
    default: return false
    }
  }
}
