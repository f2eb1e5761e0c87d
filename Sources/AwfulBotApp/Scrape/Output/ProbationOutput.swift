import AwfulScraping

/// `{"message","until","untilRaw"}`: the account's probation, from the banner a normal page carries while it lasts.
struct ProbationOutput: Encodable, Sendable {
  var message: String
  @JSONNullable var until: String? = nil
  @JSONNullable var untilRaw: String? = nil

  init(_ probation: Probation) {
    message = probation.message
    until = ScrapeJSON.timestamp(probation.until)
    untilRaw = probation.untilRaw
  }
}
