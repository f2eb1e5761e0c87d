/// Runs `body` with `resource`, then `tearDown`, whether `body` returned or threw: the one shape of every "start a
/// world, use it, stop it" helper, so no test leaves a server or a folder behind when an expectation throws.
package func using<Resource, T>(
  _ resource: Resource, tearDown: (Resource) async -> Void, _ body: (Resource) async throws -> T
) async throws -> T {
  let result: T
  do {
    result = try await body(resource)
  } catch {
    await tearDown(resource)
    throw error
  }
  await tearDown(resource)
  return result
}
