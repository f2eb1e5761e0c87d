import Foundation
import Testing

@testable import MatrixTransport

@Suite("Matrix local secrets")
struct MatrixLocalSecretsTests {
  func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("awfulbot-secrets-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test("the pickle key file is made with mode 0600 in one step, and read back the same afterwards")
  func createdPrivate() throws {
    let directory = try folder()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = MatrixLocalSecrets.pickleKeyFile(dataDirectory: directory, transport: "matrix")
    let key = try MatrixLocalSecrets.loadOrCreatePickleKey(at: file)
    let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
    #expect(mode?.intValue == 0o600)
    #expect(try MatrixLocalSecrets.loadOrCreatePickleKey(at: file) == key, "made once, then read")
    #expect(Data(base64Encoded: key)?.count == 48)
  }

  @Test("a pickle key file that is there but cannot be read stops with its path; no new key replaces it")
  func unreadableIsAnError() throws {
    let directory = try folder()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = MatrixLocalSecrets.pickleKeyFile(dataDirectory: directory, transport: "matrix")
    // Something that is not a readable file at the path (a folder): root reads any file, so this stands in for one
    // whose mode or owner changed.
    try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
    #expect {
      try MatrixLocalSecrets.loadOrCreatePickleKey(at: file)
    } throws: { error in
      "\(error)".contains("cannot be read") && "\(error)".contains(file.path)
    }
    var isDirectory: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) && isDirectory.boolValue)
  }
}
