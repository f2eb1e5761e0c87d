extension ForumState {
  /// How long the delay fault holds each response, in milliseconds (0 when off).
  func responseDelayMilliseconds() -> Int { faultSettings.delayMilliseconds }
}
