import ChatBridge
import ForumModel
import Foundation

/// `lepers <user>`: a user's rap sheet from the Leper's Colony, newest first, a page of entries at a time.
enum LepersCommand {
  static let spec = CommandSpec(
    name: "lepers", usage: "<user> [--page N] | more",
    summary:
      "Show a user's rap sheet from the Leper's Colony (a name, spaces allowed, or a user id); “more” shows the "
      + "next entries.",
    role: .viewer, run: run)

  /// Entries in one answer: a rap sheet can be long, and a room reads a few lines at a time.
  static let pageSize = 10
  /// How much of a reason one line shows; the link leads to the rest.
  static let reasonLength = 160

  static func run(_ input: CommandInput, _ context: CommandContext) async throws -> CommandReply {
    let arguments = try ArgumentScanner(input.values, flags: [], valueOptions: ["page"])
    let user = arguments.positional.joined(separator: " ").trimmingCharacters(in: .whitespaces)
    guard !user.isEmpty else { throw CommandError.usage("Name the user (a name or a user id).") }
    if user.lowercased() == "more", arguments.options.isEmpty {
      guard let session = await context.rapSheets.session(room: context.room, now: context.now) else {
        throw CommandError.failed(
          "There is no rap sheet to page through in this room (a rap sheet lasts "
            + "\(Int(RapSheetBook.sessionLifetime / 60)) minutes); \(context.prefix)lepers <user> starts one.")
      }
      if let total = session.shownWhole {
        await context.rapSheets.forget(room: context.room)
        return CommandReply(
          "That was all of \(session.user)'s rap sheet (\(NameList.count(total, "entry", plural: "entries"))); "
            + "there are no more.")
      }
      return try await answer(user: session.user, page: session.nextPage, context)
    }
    var page = 1
    if let text = arguments.options["page"]?.last {
      guard let number = Int(text), number >= 1, number <= 10_000 else {
        throw CommandError.usage("--page takes a number from 1 to 10000.")
      }
      page = number
    }
    return try await answer(user: user, page: page, context)
  }

  /// Chat page `page` of `user`'s rap sheet; the room's `more` then shows the page after it.
  static func answer(user: String, page: Int, _ context: CommandContext) async throws -> CommandReply {
    let sheet: RapSheet
    do {
      sheet = try await RapSheet.read(user: user, chatPage: page, pageSize: pageSize, forum: context.forum)
    } catch let error as ForumPageError where RapSheet.isUnknownUser(error) {
      await context.rapSheets.forget(room: context.room)
      return CommandReply("The forum knows no user “\(user)”, so there is no rap sheet to show.")
    }
    let name = sheet.userName ?? user
    guard sheet.total > 0 else {
      await context.rapSheets.forget(room: context.room)
      return CommandReply("\(name) has a clean record: the Leper's Colony lists nothing for them.")
    }
    let first = (page - 1) * pageSize
    guard first < sheet.total, !sheet.entries.isEmpty else {
      await context.rapSheets.forget(room: context.room)
      let pages = (sheet.total + pageSize - 1) / pageSize
      return CommandReply(
        "\(name)'s rap sheet has \(NameList.count(sheet.total, "entry", plural: "entries")), "
          + "\(pages == 1 ? "one page" : "\(pages) pages") at \(pageSize) an answer; there is no page \(page).")
    }
    var reply = CommandReply()
    let last = first + sheet.entries.count
    let range = sheet.total <= pageSize ? "" : ", \(first + 1) to \(last) shown"
    reply.add(
      .link(label: "\(name)'s rap sheet", url: sheet.link(context.links)),
      .text(": \(NameList.count(sheet.total, "entry", plural: "entries")), newest first\(range):"))
    for punishment in sheet.entries {
      reply.add(item: line(punishment, context: context))
    }
    if last < sheet.total {
      await context.rapSheets.store(
        RapSheetBook.Session(
          user: user, nextPage: page + 1, expires: context.now.addingTimeInterval(RapSheetBook.sessionLifetime)),
        room: context.room, now: context.now)
      reply.add(
        .text("\(NameList.count(sheet.total - last, "more entry", plural: "more entries")): "),
        .code("\(context.prefix)lepers more"), .text(" shows the next.")
      )
    } else {
      await context.rapSheets.store(
        RapSheetBook.Session(
          user: name, nextPage: page + 1, expires: context.now.addingTimeInterval(RapSheetBook.sessionLifetime),
          shownWhole: sheet.total),
        room: context.room, now: context.now)
    }
    return reply
  }

  /// "PROBATION (6 hours), 2013-11-10 10:10 UTC, by Ralp: reason…", the sentence linking the post that earned it
  /// (or the user's rap sheet when the row names no post).
  static func line(_ punishment: Punishment, context: CommandContext) -> [CommandAnswer.Part] {
    let relay = context.composer.punishment(punishment)
    let sentence = relay.sentence.uppercased() + (relay.probationLength.map { " (\($0))" } ?? "")
    let excerpt = oneLine(punishment.reason, maxCharacters: reasonLength)
    let moderator = punishment.requester.name.isEmpty ? "an unnamed moderator" : punishment.requester.name
    return [
      .link(label: sentence, url: relay.link), .text(", "),
      .date(ChatDate(punishment.date, timeZone: context.composer.dates.timeZone)),
      .text(", by \(moderator): \(excerpt.isEmpty ? "no reason was given." : excerpt)"),
    ]
  }

  /// The reason's text on one line (spoilers hidden, as relays hide them), cut between words near `maxCharacters`
  /// with "…".
  static func oneLine(_ reason: [RichText], maxCharacters: Int) -> String {
    let words = plainText(reason, spoilers: .hidden).split(whereSeparator: { $0.isWhitespace || $0.isNewline })
    var text = ""
    for word in words {
      let next = text.isEmpty ? String(word) : text + " " + word
      if next.count > maxCharacters {
        return text.isEmpty ? String(word.prefix(maxCharacters)) + "…" : text + "…"
      }
      text = next
    }
    return text
  }
}
