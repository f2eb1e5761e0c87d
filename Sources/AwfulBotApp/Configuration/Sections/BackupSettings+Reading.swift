import ChatBridge

extension BackupSettings: Decodable {
  /// `backup`: `everyHours`, `keep` and `directory`, each optional (see `BackupSettings` for the defaults). A value
  /// out of bounds is reported and its default taken.
  package init(from decoder: any Decoder) throws {
    let reader = try ConfigReader<CodingKeys>.section(decoder)
    let range = Self.everyHoursRange
    var everyHours = reader.number(.everyHours)
    if let hours = everyHours, !range.contains(hours) {
      reader.report(.everyHours, "expected \(Int(range.lowerBound)) to \(Int(range.upperBound)) hours, got \(hours)")
      everyHours = nil
    }
    var keep = reader.integer(.keep)
    if let count = keep, count < 1 {
      reader.report(.keep, "must be at least 1 (leave the backup section out for no backups), got \(count)")
      keep = nil
    }
    var directory = reader.string(.directory)
    if let text = directory, text.trimmingCharacters(in: .whitespaces).isEmpty {
      reader.report(.directory, "must not be empty (leave it out for \(Self.defaultDirectory) in dataDirectory)")
      directory = nil
    }
    self.init(everyHours: everyHours, keep: keep, directory: directory)
    try reader.finish()
  }
}

extension BackupSettings: ConfigSection {
  func value(at key: CodingKeys) -> AnyHashable {
    switch key {
    case .everyHours: everyHours
    case .keep: keep
    case .directory: directory
    }
  }
}
