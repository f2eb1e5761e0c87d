/// A section whose keys can be compared one by one: the value under each of its `CodingKeys`. The switch in
/// `value(at:)` is exhaustive, so a key added to a section is compared (and named by the reload diff) without
/// anyone remembering a list.
protocol ConfigSection: Equatable {
  associatedtype CodingKeys: CodingKey & CaseIterable
  func value(at key: CodingKeys) -> AnyHashable
}

extension ConfigSection {
  /// The keys whose values differ from `other`'s, in the order the section declares them.
  func changedKeys(to other: Self) -> [CodingKeys] {
    CodingKeys.allCases.filter { value(at: $0) != other.value(at: $0) }
  }

  /// The keys that differ between two optional sections, an absent one read as `empty` (a section left out says
  /// nothing, as an empty one does).
  static func changedKeys(_ old: Self?, _ new: Self?, empty: Self) -> [CodingKeys] {
    (old ?? empty).changedKeys(to: new ?? empty)
  }
}
