import Foundation

/// The post icons offered by a new-thread or new-PM form: the primary icons (`iconid` radios) and, in some forums,
/// a secondary set (Ask/Tell `tma_ama`, SA-Mart `samart_tag`). Each icon's `id` is the radio's value.
package struct PostIconList: Sendable, Hashable, Codable {
  package var primaryIcons: [ThreadTag]
  /// The form field the primary choice is sent as (`iconid`).
  package var primaryFieldName: String?
  package var secondaryIcons: [ThreadTag]
  /// The form field of the secondary choice (`tma_ama`, `samart_tag`), nil when there is none.
  package var secondaryFieldName: String?

  package init(
    primaryIcons: [ThreadTag], primaryFieldName: String?, secondaryIcons: [ThreadTag] = [],
    secondaryFieldName: String? = nil
  ) {
    self.primaryIcons = primaryIcons
    self.primaryFieldName = primaryFieldName
    self.secondaryIcons = secondaryIcons
    self.secondaryFieldName = secondaryFieldName
  }
}
