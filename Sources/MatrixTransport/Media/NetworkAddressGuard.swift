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
    /// Every address is public; the fetch connects to the first, and only to it (see `ImageFetcher`), so a second
    /// DNS answer (a rebinding to loopback a moment later) is never asked for.
    case publicAddresses([String])
  }

  /// Resolves the host (blocking: call it off the cooperative threads) and judges every address it has.
  static func verdict(host: String) -> Verdict {
    verdict(addresses: resolve(host))
  }

  /// Judges the addresses one resolution gave.
  static func verdict(addresses: [String]) -> Verdict {
    guard !addresses.isEmpty else { return .unresolved }
    return addresses.first(where: isPrivate).map(Verdict.privateAddress) ?? .publicAddresses(addresses)
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

  /// Loopback, private (RFC 1918, unique local, site-local), link-local, shared (CGNAT), unspecified, multicast,
  /// reserved, the IETF's and the benchmarking ranges (as Synapse's `url_preview_ip_range_blacklist`), and an IPv4
  /// address carried inside IPv6 (mapped, compatible, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) judged as that IPv4
  /// address. Anything that does not parse as an address is private: refused.
  static func isPrivate(_ address: String) -> Bool {
    let text = address.split(separator: "%").first.map(String.init) ?? address
    if let v4 = ipv4(text) { return isPrivate(v4: v4) }
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, text, &v6) == 1 else { return true }
    let bytes = withUnsafeBytes(of: v6) { Array($0) }
    if bytes.allSatisfy({ $0 == 0 }) || bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
    if bytes[0] & 0xFE == 0xFC { return true }  // fc00::/7, unique local
    if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return true }  // fe80::/10, link-local
    if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0xC0 { return true }  // fec0::/10, site-local (deprecated, still routed)
    if bytes[0] == 0xFF { return true }  // multicast
    if bytes[0..<4] == [0x20, 0x01, 0x0D, 0xB8] { return true }  // 2001:db8::/32, documentation
    // ::ffff:a.b.c.d and ::a.b.c.d carry an IPv4 address.
    if bytes[0..<10].allSatisfy({ $0 == 0 }) && (bytes[10..<12] == [0xFF, 0xFF] || bytes[10..<12] == [0, 0]) {
      return isPrivate(v4: Array(bytes[12..<16]))
    }
    // 64:ff9b::a.b.c.d (NAT64, RFC 6052) reaches that IPv4 address through the gateway.
    if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] {
      return isPrivate(v4: Array(bytes[12..<16]))
    }
    // 64:ff9b:1::/48 is NAT64 for a network's own use (RFC 8215): inside by definition.
    if bytes[0..<6] == [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01] { return true }
    // 2002:a.b.c.d::/48 (6to4) carries the IPv4 address in its second and third groups.
    if bytes[0] == 0x20 && bytes[1] == 0x02 { return isPrivate(v4: Array(bytes[2..<6])) }
    return false
  }

  private static func ipv4(_ text: String) -> [UInt8]? {
    var v4 = in_addr()
    guard inet_pton(AF_INET, text, &v4) == 1 else { return nil }
    return withUnsafeBytes(of: v4) { Array($0) }
  }

  private static func isPrivate(v4 bytes: [UInt8]) -> Bool {
    switch (bytes[0], bytes[1], bytes[2]) {
    case (0, _, _), (10, _, _), (127, _, _): return true
    case (169, 254, _): return true
    case (172, 16...31, _): return true
    case (192, 168, _): return true
    case (100, 64...127, _): return true  // shared address space (CGNAT)
    case (192, 0, 0): return true  // IETF protocol assignments
    case (192, 88, 99): return true  // the old 6to4 relay anycast
    case (198, 18...19, _): return true  // benchmarking, often used inside networks
    case (224...255, _, _): return true  // multicast and reserved
    default: return false
    }
  }
}
