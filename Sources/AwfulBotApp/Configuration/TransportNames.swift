/// Transport names end up in environment variable names, database rows and metric labels.
enum TransportNames {
  static func isValid(_ name: String) -> Bool {
    !name.isEmpty && name.count <= 64
      && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
  }
}
