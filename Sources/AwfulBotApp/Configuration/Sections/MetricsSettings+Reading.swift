import ChatBridge

extension MetricsSettings: Decodable {
  package init(from decoder: any Decoder) throws {
    let reader = try ConfigReader<CodingKeys>.section(decoder)
    var listen: HostPort?
    if let text = reader.string(.listen) {
      listen = HostPort(parsing: text)
      if listen == nil { reader.report(.listen, "expected host:port like 127.0.0.1:9464, got \"\(text)\"") }
    }
    self.init(enabled: reader.bool(.enabled), listen: listen)
    try reader.finish()
  }
}

extension MetricsSettings: ConfigSection {
  func value(at key: CodingKeys) -> AnyHashable {
    switch key {
    case .enabled: enabled
    case .listen: listen
    }
  }
}
