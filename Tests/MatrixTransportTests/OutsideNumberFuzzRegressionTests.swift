import ChatBridge
import ForumModel
import Foundation
import MatrixModel
import Testing

@testable import MatrixTransport

/// Every picture header, `Retry-After` value and homeserver error body that stopped the process (issue 43) or that
/// `scripts/fuzz picture|retryafter|matrixerror` found crashing is kept in `FuzzRegressions/<target>` next to this
/// file and goes through what the fuzz target checks again: nothing traps, a picture accepted is one a client can
/// draw, a wait is between zero and a day. The folder is read from the source tree, so a kept input is replayed
/// without editing the package.
@Suite("Fuzz regressions: numbers from outside")
struct OutsideNumberFuzzRegressionTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("FuzzRegressions")
  static let day = Duration.seconds(86_400)

  static func names(_ target: String) -> [String] {
    let path = folder.appendingPathComponent(target).path
    return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
  }

  static func bytes(_ target: String, _ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: folder.appendingPathComponent(target).appendingPathComponent(name)))
  }

  @Test(arguments: Self.names("picture"))
  func picture(name: String) throws {
    guard let image = ImageSniffer.sniff(try Self.bytes("picture", name)) else { return }
    #expect(image.width > 0 && image.height > 0)
    let oversized = image.width > ImageSniffer.maximumSide || image.height > ImageSniffer.maximumSide
    for limit in [Int.max, 4096 * 4096, 30_000_000, 1, 0] {
      let excess = image.excess(maxPixels: limit)
      if oversized {
        #expect(excess != nil, "\(image.width)×\(image.height) under \(limit)")
      } else {
        #expect(
          (excess == nil) == (image.width * image.height <= limit), "\(image.width)×\(image.height) under \(limit)")
      }
    }
  }

  @Test(arguments: Self.names("retryafter"))
  func retryAfter(name: String) throws {
    let value = String(decoding: try Self.bytes("retryafter", name), as: UTF8.self)
    for now in [Date(timeIntervalSince1970: 1_800_000_000), .distantPast, .distantFuture] {
      if let seconds = RetryAfterHeader.seconds(value, now: now) {
        #expect(seconds.isFinite && (0...RetryAfterHeader.maximumSeconds).contains(seconds))
      }
      if let wait = MatrixAPIError.parseRetryAfter(value, now: now) { #expect(wait >= .zero && wait <= Self.day) }
    }
  }

  @Test(arguments: Self.names("matrixerror"))
  func matrixError(name: String) throws {
    let body = try Self.bytes("matrixerror", name)
    let policy = MatrixRetryPolicy()
    for status in [429, 401, 403, 502] {
      let error = MatrixAPIError.parse(status: status, body: body, retryAfterHeader: nil)
      if let wait = error.retryAfter { #expect(wait >= .zero && wait <= Self.day) }
      let decisions = [
        policy.decide(sendFailure: .api(error), attempt: 1, rateLimitWaited: .zero, canRenewToken: true),
        policy.decide(syncFailure: .api(error), attempt: 1, canRenewToken: true),
      ]
      for decision in decisions {
        switch decision {
        case .wait(let wait): #expect(wait >= .zero && wait <= Self.day)
        case .giveUp(.retryable(_, let after?)): #expect(after >= .zero && after <= Self.day)
        default: break
        }
      }
    }
  }
}

@Suite("outside JSON nested too deep")
struct JSONNestingTests {
  /// Foundation's parser traps on 513 `[` (the fuzz find): the guard refuses it, and the Matrix error reader with it.
  @Test func deepNestingIsRefusedBeforeTheParser() throws {
    let deep = Data(repeating: UInt8(ascii: "["), count: 513)
    #expect(!JSONNesting.isShallow(deep))
    #expect(throws: JSONNesting.TooDeep.self) { try JSONNesting.decode([Int].self, from: deep) }
    let error = MatrixAPIError.parse(status: 429, body: Array(deep), retryAfterHeader: nil)
    #expect(error.status == 429)
    // Brackets inside strings do not count, and ordinary answers pass.
    let quoted = Data(("{\"a\": \"" + String(repeating: "[", count: 600) + "\\\"\"}").utf8)
    #expect(JSONNesting.isShallow(quoted))
    #expect(try JSONNesting.decode([String: String].self, from: quoted)["a"]?.count == 601)
  }
}
