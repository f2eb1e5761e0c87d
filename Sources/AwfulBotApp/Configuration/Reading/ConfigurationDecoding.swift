import ChatBridge
import Foundation

/// Reads a configuration, or one of its sections, from JSON: the decoder checks each value's type, the section types
/// everything else, and every problem comes back at once as a `ConfigurationError`.
package enum ConfigurationDecoding {
  package static func decode<T: Decodable>(
    _ type: T.Type, from data: Data, environment: [String: String], checksSecrets: Bool = true
  ) throws -> T {
    let context = ConfigurationReadContext(environment: environment, checksSecrets: checksSecrets)
    let decoder = JSONDecoder()
    decoder.userInfo[.configProblemSink] = context
    let value: T
    do {
      value = try decoder.decode(T.self, from: data)
    } catch is ConfigurationSkip {
      throw ConfigurationError(context.found)
    }
    if !context.found.isEmpty { throw ConfigurationError(context.found) }
    return value
  }
}
