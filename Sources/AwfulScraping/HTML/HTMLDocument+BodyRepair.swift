import CLibXML2
import ForumModel
import Foundation

extension HTMLDocument {
  /// Restores the attributes of `<body>` when libxml2 dropped them.
  ///
  /// Some forum pages put an element in `<head>` (modern pages: `<div id="loggedinusername">`). libxml2 then opens an
  /// implied `<body>` at that element and discards the real `<body class="standarderror" data-thread="…">` tag as
  /// misplaced, attributes and all — yet the body's class is how error pages and thread ids are recognised. This
  /// reads the first `<body …>` tag from the bytes and copies its attributes onto the parsed body when it has none.
  static func repairBodyAttributes(_ document: htmlDocPtr, bytes data: UnsafeRawBufferPointer) {
    guard let root = xmlDocGetRootElement(document) else { return }
    var child = root.pointee.children
    var body: xmlNodePtr?
    while let node = child {
      if node.pointee.type == XML_ELEMENT_NODE, let name = node.pointee.name, xmlStrEqual(name, "body") != 0 {
        body = node
        break
      }
      child = node.pointee.next
    }
    guard let body, body.pointee.properties == nil else { return }
    for (name, value) in bodyTagAttributes(in: data) where xmlHasProp(body, name) == nil {
      xmlNewProp(body, name, value)
    }
  }

  /// Attributes of the first `<body` tag in the bytes, names lower-cased, values entity-decoded.
  static func bodyTagAttributes(in data: UnsafeRawBufferPointer) -> [(String, String)] {
    do {
      let bytes = data.bindMemory(to: UInt8.self)
      let count = bytes.count
      var i = 0
      func lower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }
      func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 10 || byte == 13 || byte == 12 }
      while i + 5 < count {
        if bytes[i] == UInt8(ascii: "<"), lower(bytes[i + 1]) == UInt8(ascii: "b"),
          lower(bytes[i + 2]) == UInt8(ascii: "o"),
          lower(bytes[i + 3]) == UInt8(ascii: "d"), lower(bytes[i + 4]) == UInt8(ascii: "y"),
          isSpace(bytes[i + 5]) || bytes[i + 5] == UInt8(ascii: ">")
        {
          break
        }
        i += 1
      }
      guard i + 5 < count else { return [] }
      i += 5
      var attributes: [(String, String)] = []
      while i < count {
        while i < count, isSpace(bytes[i]) || bytes[i] == UInt8(ascii: "/") { i += 1 }
        guard i < count, bytes[i] != UInt8(ascii: ">") else { break }
        let nameStart = i
        while i < count, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: "="), bytes[i] != UInt8(ascii: ">") { i += 1 }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<i]), as: UTF8.self).lowercased()
        while i < count, isSpace(bytes[i]) { i += 1 }
        var value = ""
        if i < count, bytes[i] == UInt8(ascii: "=") {
          i += 1
          while i < count, isSpace(bytes[i]) { i += 1 }
          if i < count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
            let quote = bytes[i]
            i += 1
            let valueStart = i
            while i < count, bytes[i] != quote { i += 1 }
            value = String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<i]), as: UTF8.self)
            i += 1
          } else {
            let valueStart = i
            while i < count, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: ">") { i += 1 }
            value = String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<i]), as: UTF8.self)
          }
        }
        if !name.isEmpty { attributes.append((name, HTMLEntities.decode(value))) }
      }
      return attributes
    }
  }
}
