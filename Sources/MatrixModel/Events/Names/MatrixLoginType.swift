/// Authentication types: password login, and the same stage answering user-interactive auth.
package enum MatrixLoginType {
  package static let password = "m.login.password"
  /// The identifier type that names a user by id or localpart.
  package static let userIdentifier = "m.id.user"
}
