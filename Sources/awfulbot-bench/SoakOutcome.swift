/// What a soak measured: the samples of the bot process, the events made, and each service's deliveries.
struct SoakOutcome: Sendable {
  var samples: [SoakSample]
  /// Marker number → the kind of event that carried it.
  var events: [Int: SoakForum.Event]
  var deliveries: [SoakDelivery]

  var summary: String {
    let counts = SoakForum.Event.allCases.map { kind in
      "\(events.values.filter { $0 == kind }.count) \(kind.rawValue)"
    }
    return "\(events.count) forum events (" + counts.joined(separator: ", ") + ")"
  }
}
