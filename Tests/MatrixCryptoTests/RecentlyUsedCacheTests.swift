import Testing

@testable import MatrixCrypto

@Suite struct RecentlyUsedCacheTests {
  @Test("beyond its capacity the cache forgets the entry used least recently, not the oldest written")
  func forgetsLeastRecentlyUsed() {
    var cache = RecentlyUsedCache<String, Int>(capacity: 2)
    cache.set(1, for: "a")
    cache.set(2, for: "b")
    #expect(cache.value(for: "a") == 1)
    cache.set(3, for: "c")
    #expect(cache.count == 2)
    #expect(cache.contains("a") && cache.contains("c"))
    #expect(cache.value(for: "b") == nil)

    // Writing a key it holds replaces the value and forgets nothing.
    cache.set(4, for: "c")
    #expect(cache.count == 2 && cache.value(for: "c") == 4 && cache.value(for: "a") == 1)
  }
}
