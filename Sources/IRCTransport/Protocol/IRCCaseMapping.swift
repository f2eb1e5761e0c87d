/// RFC 1459 case mapping, the IRC default: ASCII letters plus `[]\~` ↔ `{}|^`. Used for every nick and channel
/// comparison so `#Awful` and `#awful`, or `Bot[1]` and `bot{1}`, are the same.
package enum IRCCaseMapping {
  package static func fold(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar {
      case "A"..."Z": scalars.append(Unicode.Scalar(scalar.value + 32)!)
      case "[": scalars.append("{")
      case "]": scalars.append("}")
      case "\\": scalars.append("|")
      case "~": scalars.append("^")
      default: scalars.append(scalar)
      }
    }
    return String(scalars)
  }

  package static func equal(_ lhs: String, _ rhs: String) -> Bool { fold(lhs) == fold(rhs) }
}
