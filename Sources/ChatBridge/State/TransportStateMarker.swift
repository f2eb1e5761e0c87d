/// Keys every transport's state store may hold, written by the app rather than the transport.
package enum TransportStateMarker {
  /// Set by `awfulbot restore` (the time, ISO 8601) in the database it puts in place: the transport's stored state
  /// is older than what the chat service has seen since (a sync position, encryption ratchets). A transport that
  /// keeps such state starts over from it and removes the key; the others ignore it.
  package static let restoredFromBackup = "restored-from-backup"
}
