import ForumModel

/// A command's answer as structured lines, so each transport lays it out in its own medium (links clickable where
/// the medium has them, list entries marked, posts shown like relays) without handlers knowing the transport.
/// Answers are always complete: a renderer may spread one over several messages or lines, never cut it.
package struct CommandAnswer: Sendable, Hashable, Codable {
  package enum Part: Sendable, Hashable, Codable {
    case text(String)
    case bold(String)
    /// A link: rich media show an anchor; plain text shows the label in place and the URL at the end of the line
    /// (a URL in the middle of a line is hard to read), or the URL in place when there is no label.
    case link(label: String, url: String)
    /// Text shown as code (command syntax).
    case code(String)
    /// A moment, written by the renderer as relays write theirs (`2025-01-02 15:04 UTC`, in the bot's zone).
    case date(ChatDate)
  }

  package enum Line: Sendable, Hashable, Codable {
    /// A sentence or a heading.
    case sentence([Part])
    /// One entry of a list.
    case item([Part])
    /// A named value ("Transport: connected").
    case field(name: String, value: [Part])
    /// A forum post shown in full anatomy (quotes and answer apart), cut like a relay.
    case post(PostRelay)
    /// Text the answer quotes as it is (a reply's preview), one entry per line; a block quote where the medium has
    /// one, "> " lines where it does not.
    case quote([String])
    /// A forum text (a private message) quoted as an excerpt of about `maxCharacters`, its own quotes and spoilers
    /// kept as structure, so each medium shows them its own way.
    case excerpt(body: [RichText], maxCharacters: Int)
  }

  package var lines: [Line]

  package init(lines: [Line] = []) {
    self.lines = lines
  }

  /// A one-sentence answer.
  package init(_ text: String) {
    self.lines = [.sentence([.text(text)])]
  }

  package mutating func add(_ parts: Part...) {
    lines.append(.sentence(parts))
  }

  package mutating func add(_ text: String) {
    lines.append(.sentence([.text(text)]))
  }

  package mutating func add(sentence parts: [Part]) {
    lines.append(.sentence(parts))
  }

  package mutating func add(item parts: [Part]) {
    lines.append(.item(parts))
  }

  package mutating func add(field name: String, _ parts: Part...) {
    lines.append(.field(name: name, value: parts))
  }

  /// How many list entries the answer holds (tests compare it with the count an answer states).
  package var itemCount: Int {
    lines.reduce(0) { count, line in
      if case .item = line { return count + 1 }
      return count
    }
  }
}
