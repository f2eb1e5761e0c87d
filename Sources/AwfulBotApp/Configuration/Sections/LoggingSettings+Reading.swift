import ChatBridge
import Logging

extension LoggingSettings: Decodable {
  package init(from decoder: any Decoder) throws {
    let reader = try ConfigReader<CodingKeys>.section(decoder)
    var level: Logger.Level?
    if let text = reader.string(.level) {
      level = Logger.Level(rawValue: text)
      if level == nil {
        reader.report(.level, "expected one of \(Self.levels.joined(separator: ", ")), got \"\(text)\"")
      }
    }
    var format: Format?
    if let text = reader.string(.format) {
      format = Format(rawValue: text)
      if format == nil { reader.report(.format, "expected text or json, got \"\(text)\"") }
    }
    self.init(level: level, format: format)
    try reader.finish()
  }
}

extension LoggingSettings: ConfigSection {
  func value(at key: CodingKeys) -> AnyHashable {
    switch key {
    case .level: level
    case .format: format
    }
  }
}
