import ChatBridge

/// One item of a list of sections: nil when the item could not be read at all, so the list goes on past it.
struct ConfigurationItem<T: Decodable>: Decodable {
  var value: T?
  /// What the item found when it was read without a shared context (a section decoded on its own): the list's
  /// reader reports them in order.
  var problems: [ConfigProblem] = []

  init(from decoder: any Decoder) throws {
    do {
      value = try T(from: decoder)
    } catch let error as ConfigurationError {
      problems = error.found
    } catch {
      // A skipped item has reported itself.
    }
  }
}
