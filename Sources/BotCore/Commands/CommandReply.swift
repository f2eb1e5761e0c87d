import ChatBridge

/// What a command handler returns: a structured answer (see `CommandAnswer`), rendered by each transport.
package typealias CommandReply = CommandAnswer
