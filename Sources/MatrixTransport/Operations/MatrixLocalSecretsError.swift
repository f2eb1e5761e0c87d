/// A pickle key file that cannot be read or written, in a sentence that names the file and the way out.
package struct MatrixLocalSecretsError: Error, Sendable, CustomStringConvertible {
  package var description: String

  init(_ description: String) {
    self.description = description
  }
}
