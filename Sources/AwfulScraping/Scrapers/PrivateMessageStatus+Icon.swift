import ForumModel
import Foundation

extension PrivateMessageStatus {
  /// Reads the status icon's URL (`pm.gif`, `newpm.gif`, `pmreplied.gif`, `pmforwarded.gif`): the folder list and
  /// the message page show the state only as that image. A message without an icon counts as seen.
  init(iconURL: String?) {
    let src = iconURL ?? ""
    self.init(
      hasBeenSeen: !src.contains("newpm"), wasForwarded: src.contains("forwarded"),
      wasRepliedTo: src.contains("replied"))
  }
}
