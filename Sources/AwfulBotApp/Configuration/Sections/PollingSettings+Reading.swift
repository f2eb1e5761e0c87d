import ChatBridge

extension AppConfiguration.PollingSettings: Decodable {
  /// The poll intervals, each at least 5 seconds: a shorter one is a typo that would hammer the forum.
  static let intervalKeys: [CodingKeys] = [
    .bookmarksSeconds, .bookmarksMinimumSeconds, .bookmarksFullSweepSeconds, .announcementsSeconds, .forumsSeconds,
    .forumsMinimumSeconds, .privateMessagesSeconds, .lepersSeconds,
  ]

  package init(from decoder: any Decoder) throws {
    let reader = try ConfigReader<CodingKeys>.section(decoder)
    var values: [CodingKeys: Double] = [:]
    for key in Self.intervalKeys {
      guard let value = reader.number(key) else { continue }
      if value < 5 { reader.report(key, "must be at least 5 seconds, got \(value)") }
      values[key] = value
    }
    // A floor above its ceiling is a typo, not a wish: said here rather than quietly clamped. (A default floor above
    // a low ceiling, as in the demo, is clamped by the engine.)
    for (floor, ceiling, defaultCeiling) in [
      (CodingKeys.bookmarksMinimumSeconds, CodingKeys.bookmarksSeconds, 60.0),
      (.forumsMinimumSeconds, .forumsSeconds, 300),
    ] {
      let high = values[ceiling] ?? defaultCeiling
      if let low = values[floor], low > high {
        reader.report(floor, "must not be above \(reader.at(ceiling)) (\(high)), got \(low)")
      }
    }
    let replayCap = reader.integer(.replayCap)
    if let replayCap, replayCap < 1 { reader.report(.replayCap, "must be at least 1, got \(replayCap)") }
    let backoff = reader.number(.maximumBackoffSeconds)
    if let backoff, backoff < 30 {
      reader.report(.maximumBackoffSeconds, "must be at least 30 seconds, got \(backoff)")
    }
    self.init(
      bookmarksSeconds: values[.bookmarksSeconds], announcementsSeconds: values[.announcementsSeconds],
      forumsSeconds: values[.forumsSeconds], replayCap: replayCap, maximumBackoffSeconds: backoff,
      privateMessagesSeconds: values[.privateMessagesSeconds],
      bookmarksMinimumSeconds: values[.bookmarksMinimumSeconds],
      bookmarksFullSweepSeconds: values[.bookmarksFullSweepSeconds],
      forumsMinimumSeconds: values[.forumsMinimumSeconds],
      lepersSeconds: values[.lepersSeconds])
    try reader.finish()
  }
}

extension AppConfiguration.PollingSettings: ConfigSection {
  func value(at key: CodingKeys) -> AnyHashable {
    switch key {
    case .bookmarksSeconds: bookmarksSeconds
    case .bookmarksMinimumSeconds: bookmarksMinimumSeconds
    case .bookmarksFullSweepSeconds: bookmarksFullSweepSeconds
    case .announcementsSeconds: announcementsSeconds
    case .forumsSeconds: forumsSeconds
    case .forumsMinimumSeconds: forumsMinimumSeconds
    case .privateMessagesSeconds: privateMessagesSeconds
    case .replayCap: replayCap
    case .maximumBackoffSeconds: maximumBackoffSeconds
    case .lepersSeconds: lepersSeconds
    }
  }
}
