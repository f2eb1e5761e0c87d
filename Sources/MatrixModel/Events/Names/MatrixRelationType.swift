/// `rel_type` values of `m.relates_to` (replies have none: they are `m.in_reply_to`).
package enum MatrixRelationType {
  package static let replace = "m.replace"
  package static let thread = "m.thread"
  package static let annotation = "m.annotation"
}
