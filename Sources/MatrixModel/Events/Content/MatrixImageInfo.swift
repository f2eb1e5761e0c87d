/// `info` of an `m.image`: what clients need to lay the picture out before they load it.
package struct MatrixImageInfo: Sendable, Hashable, Codable {
  package var mimetype: String?
  package var w: Int?
  package var h: Int?
  package var size: Int?

  package init(mimetype: String, w: Int, h: Int, size: Int) {
    self.mimetype = mimetype
    self.w = w
    self.h = h
    self.size = size
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    mimetype = container.lenient(String.self, forKey: .mimetype)
    w = container.lenientInt(forKey: .w)
    h = container.lenientInt(forKey: .h)
    size = container.lenientInt(forKey: .size)
  }
}
