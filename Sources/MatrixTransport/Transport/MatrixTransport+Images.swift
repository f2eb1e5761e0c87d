import ChatBridge
import Crypto
import ForumModel
import Foundation
import MatrixModel

/// Pictures in relayed posts, shown in the room: Element and Element X never load a remote `<img>`, so each picture
/// (within `MatrixImageSettings`) is uploaded to the homeserver and sent as an `m.image` right after the relay,
/// answering it (in the relay's thread where the room has them). An inline `<img src="mxc://…">` in the relay's HTML
/// would do for Element Web in a plain room, but Element X shows it as "[img]" (iOS, `AttributedStringBuilder`) or
/// not at all (Android's HTML safelist has no `img`), and it cannot point at an encrypted file: an `m.image` is
/// drawn by every client in every room. In an encrypted room the picture is an encrypted attachment: the homeserver
/// stores ciphertext only. The relay's text keeps every picture's link, so a picture that cannot be shown (too big,
/// gone, not a picture, over the hour's budget) is still one tap away. A room set to `links` downloads nothing.
extension MatrixTransport {
  /// A picture already on the homeserver: what an `m.image` needs besides its place.
  struct UploadedImage: Codable, Sendable {
    var mimeType: String
    var width: Int
    var height: Int
    var size: Int
    /// Plain rooms: the `mxc://` URI of the bytes.
    var url: String?
    /// Encrypted rooms: the `file` object (the URI of the ciphertext, its key, IV and hash).
    var file: JSONValue?
  }

  /// How many uploads the database remembers (one per picture and room kind).
  static let imageCacheLimit = 2_000

  /// A picture a post shows: `[img]`, or `[timg]`, which the forum shows shrunk until clicked, or one of the forum's
  /// own attachments (`attachmentID`), which only the forum session may fetch.
  struct Picture: Sendable, Hashable, Codable {
    var url: String
    var thumbnail: Bool
    var attachmentID: String? = nil
  }

  /// The longer side, in pixels, a `[timg]` asks to be drawn at (`info.w`/`info.h` are the intended display size);
  /// clients open the picture at full size when it is tapped, as the forum does.
  static let thumbnailSide = 200

  /// A relay's pictures as it goes out: those to fetch after it (at most `perPost`, each once), and why the others
  /// are not shown when that is known without waiting (an address that failed within the hour).
  struct PicturePlan: Sendable {
    var pictures: [Picture] = []
    var notShown: [String: String] = [:]
  }

  /// What becomes of a relayed post's pictures, decided without a network request: the relay goes out at once and
  /// its pictures follow it (`MatrixPictureFollowUps`), so no picture host can hold up a room.
  /// `display` is the room's `pictures` setting (links: nothing is fetched for the room).
  func picturePlan(of relay: PostRelay, display: PictureDisplay, room: String) -> PicturePlan {
    let settings = configuration.images
    var plan = PicturePlan()
    guard settings.enabled, settings.perPost > 0, display == .inline else { return plan }
    var seen: Set<String> = []
    // Without a forum to ask, the forum's attachments stay links (nothing else may fetch them).
    let pictures = Self.pictures(in: relay.body).filter {
      ($0.attachmentID == nil || forumAttachments != nil) && seen.insert($0.url).inserted
    }
    for picture in pictures.prefix(settings.perPost) {
      if let failure = pictureFailures.failure(for: picture.url) {
        plan.notShown[picture.url] = failure.roomReason
      } else {
        plan.pictures.append(picture)
      }
    }
    if pictures.count > settings.perPost {
      logger.info(
        "pictures beyond the post's budget stay links",
        metadata: ["room": "\(room)", "pictures": "\(pictures.count)", "shown": "\(settings.perPost)"])
    }
    return plan
  }

  /// Whether a room's pictures go up as encrypted attachments, as the bot knows the room when it uploads them: after
  /// the relay's send, which looked the room up if nothing had shown it yet (just after a start, a plan made before
  /// the send could not know, and an encrypted room's picture went up in the clear).
  func picturesEncrypted(in room: String) -> Bool {
    state.withLock { $0.rooms.directory.encrypted.contains(room) }
  }

  /// Hands a sent relay's pictures to the follow-ups, kept in the state store until they are sent (so a restart
  /// sends them); when the queue is full they stay links (logged). Called before the relay's send returns, so a
  /// crash before they are kept leaves the relay undelivered: it goes out again under the same transaction id (the
  /// same event), with its pictures.
  func followUp(_ job: MatrixPictureFollowUps.Job) async {
    guard !job.pictures.isEmpty else { return }
    await pendingPictures.keep(job)
    await enqueue(job)
  }

  private func enqueue(_ job: MatrixPictureFollowUps.Job) async {
    if !pictureFollowUps.enqueue(job) {
      logger.warning(
        "pictures of a relay stay links: too many relays wait for theirs",
        metadata: ["room": "\(job.room)", "pictures": "\(job.pictures.count)"])
      await pendingPictures.forget(job.idempotencyKey)
    }
  }

  /// Once a process, when the transport is first ready to send: the pictures a stop or a crash left waiting follow
  /// their relays now. Their sends carry the transaction ids they had, so one sent before the stop is not repeated.
  func resumePendingPictures() async {
    let isFirst = state.withLock { state in
      defer { state.sending.picturesResumed = true }
      return !state.sending.picturesResumed
    }
    guard isFirst else { return }
    let jobs = await pendingPictures.all()
    if !jobs.isEmpty {
      logger.info("pictures left waiting at the last stop follow now", metadata: ["relays": "\(jobs.count)"])
    }
    for job in jobs { await enqueue(job) }
  }

  /// The follow-ups' loop, for as long as the transport runs: one relay's pictures at a time.
  func runPictureFollowUps() async {
    for await job in pictureFollowUps.jobs {
      if Task.isCancelled { return }
      // Stopped before they were sent (a download cut by the shutdown): kept for the next start.
      guard await sendPictures(of: job) else { return }
      await pendingPictures.forget(job.idempotencyKey)
    }
  }

  /// Fetches and uploads a relay's pictures, sends each shown one as an `m.image` answering the relay, then, when
  /// some could not be shown, edits the relay so each link says why (one edit, whatever the number). False when the
  /// transport stopped meanwhile: nothing was sent then, and the job is to be done again at the next start.
  @discardableResult
  func sendPictures(of job: MatrixPictureFollowUps.Job) async -> Bool {
    var shown: [(picture: Picture, image: UploadedImage)] = []
    var notShown: [String: String] = [:]
    let encrypted = picturesEncrypted(in: job.room)
    for picture in job.pictures {
      do {
        shown.append((picture, try await uploadedImage(picture, encrypted: encrypted)))
      } catch {
        logger.info(
          "picture stays a link", metadata: ["room": "\(job.room)", "url": "\(picture.url)", "reason": "\(error)"])
        notShown[picture.url] = (error as? ImageFetcher.Failure)?.roomReason ?? "it could not be uploaded"
      }
    }
    if Task.isCancelled { return false }
    await sendPictures(shown, to: job.room, after: job.relayEventID, thread: job.thread, key: job.idempotencyKey)
    guard !notShown.isEmpty, case .post(var relay) = job.message.content else { return true }
    relay.body = Self.annotated(relay.body, notShown: notShown)
    var edit = job.message
    edit.content = .post(relay)
    edit.replaces = job.relayEventID
    guard let content = contents(of: edit, rendered: renderer.render(edit.content), thread: nil).first else {
      return true
    }
    do {
      _ = try await sendEvent(room: job.room, content: content, transactionID: "\(job.idempotencyKey)#pictures")
    } catch {
      logger.warning(
        "could not say why pictures are not shown", metadata: ["room": "\(job.room)", "error": "\(error)"])
    }
    return true
  }

  /// The post's body with "(picture not shown: why)" after each picture that failed.
  static func annotated(_ body: [RichText], notShown: [String: String]) -> [RichText] {
    guard !notShown.isEmpty else { return body }
    return body.flatMap { node -> [RichText] in
      switch node {
      case .image(let url), .thumbnail(let url), .attachment(_, let url):
        notShown[url].map { [node, .text(" (picture not shown: \($0))")] } ?? [node]
      case .paragraph(let children): [.paragraph(annotated(children, notShown: notShown))]
      case .bold(let children): [.bold(annotated(children, notShown: notShown))]
      case .italic(let children): [.italic(annotated(children, notShown: notShown))]
      case .underline(let children): [.underline(annotated(children, notShown: notShown))]
      case .strike(let children): [.strike(annotated(children, notShown: notShown))]
      case .link(let url, let children): [.link(url: url, annotated(children, notShown: notShown))]
      case .quote(let author, let postID, let children):
        [.quote(author: author, postID: postID, annotated(children, notShown: notShown))]
      case .spoiler(let children): [.spoiler(annotated(children, notShown: notShown))]
      case .list(let items): [.list(items.map { annotated($0, notShown: notShown) })]
      case .text, .lineBreak, .code, .smilie, .video: [node]
      }
    }
  }

  /// Sends the uploaded pictures after their relay (`relayEventID`), each an `m.image` answering it, named by its
  /// type (`image.png`, never the address: a poster chooses that, `@room.png` included) and mentioning nobody. A
  /// picture that cannot be sent is logged; the relay has its link.
  func sendPictures(
    _ pictures: [(picture: Picture, image: UploadedImage)], to room: String, after relayEventID: String,
    thread: MatrixThreadPosition?, key: String
  ) async {
    for (offset, picture) in pictures.enumerated() {
      let image = picture.image
      let (width, height) =
        picture.picture.thumbnail
        ? Self.thumbnailSize(width: image.width, height: image.height) : (image.width, image.height)
      var content = MatrixRoomMessage(msgtype: MatrixMessageType.image, body: Self.fileName(type: image.mimeType))
      content.mentions = MatrixMentions()
      content.info = MatrixImageInfo(mimetype: image.mimeType, w: width, h: height, size: image.size)
      if let file = image.file {
        content.file = file
      } else if let uri = image.url {
        content.url = uri
      }
      content.relatesTo =
        if let thread { .thread(root: thread.root, latest: relayEventID) } else { .reply(to: relayEventID) }
      do {
        _ = try await sendEvent(room: room, content: content.json, transactionID: "\(key)#image\(offset + 1)")
      } catch {
        logger.warning(
          "picture not sent", metadata: ["room": "\(room)", "url": "\(picture.picture.url)", "error": "\(error)"])
      }
    }
  }

  /// The picture on the homeserver, for a plain or an encrypted room: from the cache, or downloaded (counted against
  /// the hour's budget), checked, encrypted when the room is, and uploaded. An off-site picture comes through the
  /// `ImageFetcher`, a forum attachment through the forum's session (`forumAttachment`), never the other way round.
  func uploadedImage(_ picture: Picture, encrypted: Bool) async throws -> UploadedImage {
    let url = picture.url
    let cacheKey =
      picture.attachmentID.map { Self.imageCacheKey(attachment: $0, encrypted: encrypted) }
      ?? Self.imageCacheKey(url: url, encrypted: encrypted)
    if let image = try await rememberedImage(under: cacheKey) { return image }
    if let failure = pictureFailures.failure(for: url) { throw failure }
    let source = picture.attachmentID.map { "attachment:\($0)" } ?? url
    let fetched: ImageFetcher.Fetched
    if let recent = state.withLock({ $0.sending.recentDownloads.fetched(from: source, now: .now) }) {
      // Downloaded for the other kind of room moments ago: not asked for again, nor counted twice.
      fetched = recent
    } else {
      try reserveImageDownload()
      do {
        if let id = picture.attachmentID {
          fetched = try await forumAttachment(id)
        } else {
          fetched = try await ImageFetcher(settings: configuration.images).fetch(url)
        }
      } catch {
        pictureFailures.remember(error, for: url)
        throw error
      }
      state.withLock { $0.sending.recentDownloads.keep(fetched, from: source, now: .now) }
    }
    // The same picture under another address (a quote of a quote, a mirror) is not uploaded again.
    let contentKey = Self.imageCacheKey(content: fetched.bytes, encrypted: encrypted)
    if let image = try await rememberedImage(under: contentKey) {
      try await remember(image, under: cacheKey)
      return image
    }
    let name = Self.fileName(type: fetched.image.mimeType)
    var image = UploadedImage(
      mimeType: fetched.image.mimeType, width: fetched.image.width, height: fetched.image.height,
      size: fetched.bytes.count)
    if encrypted {
      let attachment = try EncryptedAttachment.encrypt(fetched.bytes)
      let ciphertext = attachment.ciphertext
      let uri = try await authorized { token in
        try await self.client.upload(
          token: token, bytes: ciphertext, contentType: "application/octet-stream", filename: name)
      }
      image.file = attachment.fileObject(url: uri)
    } else {
      let bytes = fetched.bytes
      let type = fetched.image.mimeType
      image.url = try await authorized { token in
        try await self.client.upload(token: token, bytes: bytes, contentType: type, filename: name)
      }
    }
    try await remember(image, under: cacheKey)
    try await remember(image, under: contentKey)
    return image
  }

  /// A forum attachment's bytes, asked of the forum through its session (`forumAttachments`), within the same limits
  /// as any picture: at most `maxBytes` (refused while reading), a type read from the bytes, within `maxPixels`.
  private func forumAttachment(_ id: String) async throws(ImageFetcher.Failure) -> ImageFetcher.Fetched {
    guard let source = forumAttachments else { throw .forumUnavailable("no forum client to ask") }
    let settings = configuration.images
    let bytes: [UInt8]
    do {
      bytes = try await source.attachment(id: id, maxBytes: settings.maxBytes)
    } catch {
      switch error {
      case .refused(let detail): throw .forumRefused("attachment \(id): \(detail)")
      case .tooLarge(let limit): throw .tooLarge("attachment \(id): more than the \(limit) bytes allowed")
      case .unavailable(let detail): throw .forumUnavailable("attachment \(id): \(detail)")
      }
    }
    guard let image = ImageSniffer.sniff(bytes) else { throw .notAPicture }
    if let excess = image.excess(maxPixels: settings.maxPixels) { throw .tooLarge(excess) }
    return ImageFetcher.Fetched(bytes: bytes, image: image)
  }

  /// One download of the hour's budget, or the reason there is none left.
  private func reserveImageDownload() throws {
    let limit = configuration.images.perHour
    let now = ContinuousClock.now
    let allowed = state.withLock { state in
      state.sending.imageDownloads.removeAll { now - $0 > .seconds(3600) }
      guard state.sending.imageDownloads.count < limit else { return false }
      state.sending.imageDownloads.append(now)
      return true
    }
    if !allowed { throw ImageFetcher.Failure.overBudget(limit) }
  }

  /// An upload remembered under `key` (by address or by content), nil when none is or it cannot be read.
  private func rememberedImage(under key: String) async throws -> UploadedImage? {
    guard let stored = try await store.value(for: key) else { return nil }
    return try? JSONDecoder().decode(UploadedImage.self, from: Data(stored.utf8))
  }

  /// Stores the upload and forgets the oldest beyond `imageCacheLimit`.
  private func remember(_ image: UploadedImage, under key: String) async throws {
    var order =
      (try await store.value(for: MatrixStateKey.imageCacheOrder)).flatMap {
        try? JSONDecoder().decode([String].self, from: Data($0.utf8))
      } ?? []
    order.removeAll { $0 == key }
    order.append(key)
    var values: [String: String?] = [key: String(decoding: try JSONEncoder().encode(image), as: UTF8.self)]
    while order.count > Self.imageCacheLimit { values[order.removeFirst()] = .some(nil) }
    values[MatrixStateKey.imageCacheOrder] = String(decoding: try JSONEncoder().encode(order), as: UTF8.self)
    try await store.setValues(values)
  }

  /// The upload remembered for an address (`image:plain:<sha256 of the URL>`).
  static func imageCacheKey(url: String, encrypted: Bool) -> String {
    let digest = SHA256.hash(data: Data(url.utf8)).map { String(format: "%02x", $0) }.joined()
    return "image:\(encrypted ? "encrypted" : "plain"):\(digest)"
  }

  /// The upload remembered for a forum attachment (`image:plain:attachment:<id>`): one number, one file.
  static func imageCacheKey(attachment id: String, encrypted: Bool) -> String {
    "image:\(encrypted ? "encrypted" : "plain"):attachment:\(id)"
  }

  /// The upload remembered for a picture's bytes (`image:plain:content:<sha256 of the bytes>`).
  static func imageCacheKey(content: [UInt8], encrypted: Bool) -> String {
    let digest = SHA256.hash(data: content).map { String(format: "%02x", $0) }.joined()
    return "image:\(encrypted ? "encrypted" : "plain"):content:\(digest)"
  }

  /// Every picture a post shows, in order: `[img]`, `[timg]` and the forum's attachments, inside quotes and lists
  /// too (smilies are not pictures here).
  static func pictures(in body: [RichText]) -> [Picture] {
    body.flatMap { node -> [Picture] in
      switch node {
      case .image(let url): [Picture(url: url, thumbnail: false)]
      case .thumbnail(let url): [Picture(url: url, thumbnail: true)]
      case .attachment(let id, let url): [Picture(url: url, thumbnail: false, attachmentID: id)]
      case .paragraph(let children), .bold(let children), .italic(let children), .underline(let children),
        .strike(let children), .link(_, let children), .quote(_, _, let children), .spoiler(let children):
        pictures(in: children)
      case .list(let items): items.flatMap { pictures(in: $0) }
      case .text, .lineBreak, .code, .smilie, .video: []
      }
    }
  }

  /// A picture's size shrunk, keeping its shape, so its longer side is at most `thumbnailSide` (never grown).
  static func thumbnailSize(width: Int, height: Int) -> (width: Int, height: Int) {
    let longer = max(width, height)
    guard longer > thumbnailSide else { return (width, height) }
    let scale = Double(thumbnailSide) / Double(longer)
    return (max(Int((Double(width) * scale).rounded()), 1), max(Int((Double(height) * scale).rounded()), 1))
  }

  /// A picture's name from its type (`image.png`): the address's own file name is the poster's choice, and a
  /// client shows it as the event's text, where `@room` or a display name would read as a mention.
  static func fileName(type: String) -> String {
    let subtype = type.split(separator: "/").last.map(String.init) ?? ""
    let safe = !subtype.isEmpty && subtype.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    return "image.\(safe ? subtype : "bin")"
  }
}
