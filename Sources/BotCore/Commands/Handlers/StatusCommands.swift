import ChatBridge
import Foundation

enum StatusCommands {
  static let status = CommandSpec(
    name: "status", summary: "This room's settings and queue, and how polling the forum goes.", role: .viewer,
    run: runStatus)

  static let why = CommandSpec(
    name: "why", usage: "<post link | post id>", summary: "Whether a post was relayed here, when, or why not.",
    role: .viewer,
    run: runWhy)

  static func runStatus(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let status = try await context.statusReports.status(room: context.room)
    let dates = context.composer.dates
    var reply = CommandReply()
    if let since = status.storageFullSince {
      // First: it explains the polling errors and the refused changes below.
      reply.add(sentence: [
        .text("Disk full since "), dates.part(since),
        .text(
          ": the bot cannot save anything new, so new posts wait on the forum (none are lost) and changes are "
            + "refused until an operator frees space."),
      ])
    }
    // A paused room holds everything anyway: "quiet now" would only blur why nothing arrives.
    let quietNow = status.isQuietNow && !status.settings.isPaused
    let quiet = QuietText.parts(status.settings, now: context.now, dates: dates)
    reply.add(
      sentence: [.text("Mode: \(status.settings.mode) · quiet: ")] + quiet
        + [
          .text(
            (quietNow ? " (quiet now)" : "") + " · unfurl: \(status.settings.unfurl ? "on" : "off")"
              // The settings only some chat services have, when they are not their default.
              + (status.settings.pictures == .links ? " · pictures: links" : "")
              + (status.settings.editNotices ? " · edit notices: on" : "")
              + (status.settings.isPaused ? " · paused (\(context.prefix)resume to relay again)" : ""))
        ])
    let follows = status.subscriptions.map(\.description)
    reply.add("Follows: " + (follows.isEmpty ? "nothing" : follows.joined(separator: "; ")))
    if !status.alerts.isEmpty { reply.add("Alerts: " + status.alerts.joined(separator: ", ")) }
    if status.receivesPrivateMessages {
      reply.add("Private messages: new ones to the bot account are told here (sender, subject and link).")
    }
    if let wall = status.forumWall {
      // Before the polling lines: it is why they fail.
      reply.add(sentence: [.text("Forum walled since "), dates.part(wall.since), .text(": \(wall.wall.description)")])
    }
    if let probation = status.probation {
      reply.add(
        sentence: [.text("Forum account: on probation")] + ProbationText.untilParts(probation, dates: dates)
          + [
            .text(
              "; it reads and relays as usual, but \(context.prefix)reply and \(context.prefix)pmreply are refused "
                + "until it ends.")
          ])
    }
    reply.add(
      "Messages: \(status.pending) waiting, \(status.delivered) delivered, \(status.held) held, "
        + "\(status.failed) refused, \(status.deadLetters) given up")
    if status.parked > 0 {
      reply.add(ParkedText.sentence(count: status.parked, rows: status.parkedRows) + ".")
    }
    if status.pending >= status.backlogLimit {
      reply.add(
        "Behind: new posts arrive as one summary per thread until fewer than \(status.backlogLimit) messages wait.")
    }
    for source in status.sources {
      var line: [CommandAnswer.Part] = [
        .text("Polling \(PollSource(name: source.source)?.readableName ?? source.source): ")
      ]
      if source.isHealthy {
        line += source.lastSuccess.map { [.text("ok, last "), dates.part($0)] } ?? [.text("not polled yet")]
      } else {
        var errors = "\(NameList.count(source.consecutiveErrors, "error")) in a row"
        // The error is a sentence of its own (it may end with a full stop), so it goes last but one.
        if let error = source.lastError, let wall = status.forumWall, error == wall.wall.description {
          errors += ", behind \(wall.wall.name) (above)"
        } else if let error = source.lastError {
          errors += ", the last: \(error.hasSuffix(".") ? String(error.dropLast()) : error)"
        }
        line.append(.text(errors))
        if let next = source.nextAttempt { line += [.text(". Next try "), dates.part(next), .text(".")] }
      }
      reply.add(sentence: line)
    }
    for failure in status.recentFailures.prefix(3) {
      reply.add("Failed: \(failure)")
    }
    return reply
  }

  static func runWhy(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    guard input.values.count == 1 else { throw CommandError.usage(nil) }
    let argument = input.values[0]
    let postID: String
    if ThreadReference.isID(argument) {
      postID = argument
    } else {
      switch ThreadReference.parse(argument, baseURL: context.forum.baseURL) {
      case .failure(let error): throw CommandError.failed(error.description)
      case .success(.thread):
        throw CommandError.usage("That is a thread link; give a link to a post (one ending in #post123).")
      case .success(.post(let id, _)):
        postID = id
      }
    }
    let answer = try await context.statusReports.why(postID: postID, room: context.room)
    let dates = context.composer.dates
    var reply = CommandReply()
    let title = answer.threadTitle.map { " in “\($0)”" } ?? ""
    var threadNamed = answer.threadNamed
    if answer.entries.isEmpty, threadNamed == nil, ThreadReference.isID(argument) {
      // A bare number nothing here knows may be a thread the bot never stored: one page request tells.
      threadNamed = await Self.threadTitle(id: postID, context)
    }
    if answer.entries.isEmpty, let thread = threadNamed {
      throw CommandError.usage(
        "\(postID) is the thread \(thread), not a post. \(context.prefix)why needs a post: a link ending in #post123, or that number."
      )
    }
    if answer.entries.isEmpty {
      var explanation = answer.explanation ?? "the bot has no record of it"
      while explanation.hasSuffix(".") { explanation.removeLast() }
      // The explanation is a sentence of its own; after the colon it continues this one.
      if let first = explanation.first, first.isUppercase, explanation.dropFirst().first?.isLowercase == true {
        explanation = first.lowercased() + explanation.dropFirst()
      }
      reply.add("Post \(postID)\(title) was not sent here: \(explanation).")
      return reply
    }
    reply.add("Post \(postID)\(title):")
    for entry in answer.entries {
      var line: [CommandAnswer.Part] = [
        .text("\(entry.kind) for \(entry.reason): \(entry.state), queued "), dates.part(entry.queuedAt),
      ]
      if let delivered = entry.deliveredAt { line += [.text(", delivered "), dates.part(delivered)] }
      var rest = ""
      if entry.attempts > 1 { rest += ", \(entry.attempts) attempts" }
      if let error = entry.lastError { rest += ", last error: \(error)" }
      if !rest.isEmpty { line.append(.text(rest)) }
      reply.add(item: line)
    }
    return reply
  }

  /// "“Title”" when the forum has a thread with this id; nil when it has none or cannot be asked now (the answer
  /// about a post then stands).
  private static func threadTitle(id: String, _ context: CommandContext) async -> String? {
    guard let page = try? await context.forum.threadPage(threadID: id, page: .number(1)) else { return nil }
    return page.threadTitle.isEmpty ? "with that id" : "“\(page.threadTitle)”"
  }
}
