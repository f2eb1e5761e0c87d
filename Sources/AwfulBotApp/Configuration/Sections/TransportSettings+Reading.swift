import ChatBridge

extension TransportSettings: Decodable {
  /// `transports[]`: the `type` (a `TransportType`), the unique `name`, and the transport's own keys, which its
  /// `TransportKind` checks. The name is recorded for the rooms and roles that follow, that of a transport of an
  /// unknown type too, so they do not report it a second time.
  package init(from decoder: any Decoder) throws {
    let reader = try SectionReader(decoder, keys: CodingKeys.self, reportsUnknownKeys: false)
    let context = reader.context
    let typeName = reader.string(.type, required: true)
    let name = reader.string(.name)
    if let name, !TransportNames.isValid(name) {
      reader.report(.name, "expected letters, digits, - or _, got \"\(name)\"")
    }
    guard let typeName else {
      try reader.finish()
      throw ConfigurationSkip()
    }
    guard let type = TransportType(rawValue: typeName) else {
      reader.report(.type, "unknown transport \"\(typeName)\" (supported: \(TransportType.supported))")
      context.transportNames = (context.transportNames ?? []).union([name ?? typeName])
      try reader.finish()
      throw ConfigurationSkip()
    }
    var options = reader.members()
    options[CodingKeys.type.stringValue] = nil
    options[CodingKeys.name.stringValue] = nil
    self.init(type: type, name: name, options: options)
    var names = context.transportNames ?? []
    if !names.insert(resolvedName).inserted { reader.report(.name, "duplicate name \"\(resolvedName)\"") }
    context.transportNames = names
    var optionReader = ConfigReader(checksSecrets: context.checksSecrets)
    TransportKind.of(type).validate(self, at: reader.path, environment: context.environment, reader: &optionReader)
    context.take(optionReader)
    try reader.finish()
  }
}
