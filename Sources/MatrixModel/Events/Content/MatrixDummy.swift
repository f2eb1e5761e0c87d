/// `m.dummy` (to-device, inside Olm): says nothing; sent over a new Olm session so the other side replaces a wedged one.
package struct MatrixDummy: MatrixEventContent, Hashable {
  package static let eventType = MatrixEventType.dummy

  package init() {}
}
