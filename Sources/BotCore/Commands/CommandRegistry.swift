import ChatBridge
import Foundation

/// Every command the bot knows, in the order `help` lists them.
package enum CommandRegistry {
  package static let all: [CommandSpec] = [
    HelpCommand.spec,
    BookmarkCommands.list, BookmarkCommands.add, BookmarkCommands.remove, BookmarkCommands.undo,
    WatchCommands.watch, WatchCommands.unwatch,
    SubscriptionCommands.subscribe, SubscriptionCommands.unsubscribe, SubscriptionCommands.list,
    BrowseCommands.forums, BrowseCommands.threads, BrowseCommands.latest, SearchCommands.spec,
    LepersCommand.spec,
    ReplyCommands.reply, ReplyCommands.confirm, ReplyCommands.cancel, RelayReplyCommands.re,
    PrivateMessageCommands.list, PrivateMessageCommands.show, PrivateMessageCommands.reply,
    StatusCommands.status, StatusCommands.why,
    RoomCommands.quiet, RoomCommands.mode, RoomCommands.pause, RoomCommands.resume, RoomCommands.pictures,
    RoomCommands.editNotices,
    AlertCommands.alert, AlertCommands.list, AlertCommands.unalert,
    RoomCommands.unfurl, RelayReplyCommands.replies, RelayReplyCommands.reactions,
  ]
}
