import Foundation

/// "512 B", "3.2 MB", "12.0 GB" (decimal units, as `df -H` shows them).
package enum ByteText {
  package static func describe(_ bytes: Int64) -> String {
    let units = ["kB", "MB", "GB", "TB"]
    guard bytes >= 1000 else { return "\(bytes) B" }
    var value = Double(bytes)
    var unit = -1
    while value >= 1000 && unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    return "\(String(format: "%.1f", value)) \(units[unit])"
  }
}
