import BotCore

extension PollCycle {
  /// Takes the steps of the full sweep in progress to its end (or its first error), as the poller does when no
  /// check is due; `afterEach` runs after every step (a harness drains its outbox there).
  package func sweepToEnd(afterEach: () async -> Void) async -> [PollReport] {
    var steps: [PollReport] = []
    while steps.count < 1_000, let step = await sweepBookmarks() {
      steps.append(step)
      await afterEach()
      if !step.succeeded { break }
    }
    return steps
  }
}
