/// The object `awfulbot scrape` prints: the scraped value's own keys, with `kind` (the `--kind` name) beside them so
/// a reader can tell the page kinds apart without nesting every value one level down.
struct ScrapeDocument<Value: Encodable>: Encodable {
  var kind: ScrapeKind
  /// Must encode as a keyed container (a model struct or a dictionary): `kind` is added to that same object.
  var value: Value

  private enum Key: String, CodingKey {
    case kind
  }

  func encode(to encoder: any Encoder) throws {
    try value.encode(to: encoder)
    // JSONEncoder hands back the object the value just wrote when a keyed container is asked for again.
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(kind.rawValue, forKey: .kind)
  }
}
