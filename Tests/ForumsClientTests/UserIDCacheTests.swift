import Testing

@testable import ForumsClient

/// The ids found by name: kept a while, matched regardless of case, forgotten when old, bounded.
struct UserIDCacheTests {
  @Test func keptForItsLifetimeRegardlessOfCase() {
    let start = ContinuousClock.now
    var cache = UserIDCache()
    cache.store("1003", named: "Zoë Québec", now: start)
    #expect(cache.id(named: "zoë québec", now: start + .seconds(1)) == "1003")
    #expect(cache.id(named: "ZOË QUÉBEC", now: start + UserIDCache.lifetime - .seconds(1)) == "1003")
    #expect(cache.id(named: "Zoë Québec", now: start + UserIDCache.lifetime) == nil)
    #expect(cache.id(named: "Someone Else", now: start) == nil)
  }

  @Test func theOldestGoesWhenFull() {
    let start = ContinuousClock.now
    var cache = UserIDCache()
    for n in 0..<UserIDCache.capacity {
      cache.store("\(n)", named: "user \(n)", now: start + .milliseconds(n))
    }
    cache.store("new", named: "newcomer", now: start + .seconds(1))
    #expect(cache.id(named: "user 0", now: start + .seconds(2)) == nil)
    #expect(cache.id(named: "user 1", now: start + .seconds(2)) == "1")
    #expect(cache.id(named: "newcomer", now: start + .seconds(2)) == "new")
  }
}
