import Foundation
import Testing

@testable import ForumsClient

@Suite("Cookie jar")
struct CookieJarTests {
  let forum = URL(string: "https://forums.somethingawful.com/showthread.php?threadid=1")!
  let now = Date(timeIntervalSince1970: 1_700_000_000)

  @Test func storesCookiesAndSendsThemBack() {
    var jar = CookieJar()
    let changed = jar.receive(
      setCookieHeaders: ["bbuserid=106125; path=/; domain=.somethingawful.com", "bbpassword=abc; path=/"],
      from: forum, now: now)
    #expect(changed)
    #expect(jar.cookieHeader(for: forum, now: now) == "bbuserid=106125; bbpassword=abc")
    #expect(jar.contains(named: "bbuserid", now: now))
  }

  @Test func domainCookiesReachSubdomainsButNotOtherHosts() {
    var jar = CookieJar()
    jar.receive(setCookieHeaders: ["a=1; domain=somethingawful.com"], from: forum, now: now)
    #expect(jar.cookieHeader(for: URL(string: "https://archives.somethingawful.com/x")!, now: now) == "a=1")
    #expect(jar.cookieHeader(for: URL(string: "https://example.com/")!, now: now) == nil)
    #expect(jar.cookieHeader(for: URL(string: "https://notsomethingawful.com/")!, now: now) == nil)
  }

  @Test func aServerCannotSetCookiesForAnotherDomain() {
    var jar = CookieJar()
    jar.receive(setCookieHeaders: ["evil=1; domain=example.com"], from: forum, now: now)
    #expect(jar.cookies.isEmpty)
  }

  @Test func loopbackAddressesMatchExactly() {
    var jar = CookieJar()
    let local = URL(string: "http://127.0.0.1:8080/account.php")!
    jar.receive(setCookieHeaders: ["bbuserid=1"], from: local, now: now)
    #expect(jar.cookieHeader(for: URL(string: "http://127.0.0.1:8080/index.php")!, now: now) == "bbuserid=1")
    #expect(jar.cookieHeader(for: URL(string: "http://27.0.0.1:8080/index.php")!, now: now) == nil)
  }

  @Test func pathsRestrictWhereCookiesGo() {
    var jar = CookieJar()
    jar.receive(setCookieHeaders: ["a=1; path=/forum", "b=2; path=/"], from: forum, now: now)
    #expect(jar.cookieHeader(for: URL(string: "https://forums.somethingawful.com/forum/x")!, now: now) == "a=1; b=2")
    #expect(jar.cookieHeader(for: URL(string: "https://forums.somethingawful.com/forumx")!, now: now) == "b=2")
    #expect(jar.cookieHeader(for: URL(string: "https://forums.somethingawful.com/")!, now: now) == "b=2")
  }

  @Test func secureCookiesStayOffPlainHTTP() {
    var jar = CookieJar()
    jar.receive(setCookieHeaders: ["s=1; Secure", "p=2"], from: forum, now: now)
    #expect(jar.cookieHeader(for: URL(string: "http://forums.somethingawful.com/")!, now: now) == "p=2")
    #expect(jar.cookieHeader(for: forum, now: now) == "s=1; p=2")
  }

  @Test func aNewValueReplacesTheOld() {
    var jar = CookieJar()
    jar.receive(setCookieHeaders: ["sessionhash=old"], from: forum, now: now)
    jar.receive(setCookieHeaders: ["sessionhash=new"], from: forum, now: now)
    #expect(jar.cookies.count == 1)
    #expect(jar.cookieHeader(for: forum, now: now) == "sessionhash=new")
  }

  @Test func anExpiryInThePastDeletesTheCookie() {
    var jar = CookieJar()
    jar.receive(setCookieHeaders: ["bbuserid=1; path=/", "keep=1"], from: forum, now: now)
    let changed = jar.receive(
      setCookieHeaders: ["bbuserid=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; path=/"], from: forum, now: now)
    #expect(changed)
    #expect(!jar.contains(named: "bbuserid", now: now))
    #expect(jar.cookieHeader(for: forum, now: now) == "keep=1")
  }

  @Test func maxAgeZeroDeletesAndMaxAgeWinsOverExpires() {
    var jar = CookieJar()
    jar.receive(setCookieHeaders: ["a=1", "b=1"], from: forum, now: now)
    jar.receive(
      setCookieHeaders: ["a=1; Max-Age=0", "b=2; Max-Age=60; expires=Thu, 01 Jan 1970 00:00:01 GMT"], from: forum,
      now: now)
    #expect(!jar.contains(named: "a", now: now))
    #expect(jar.cookieHeader(for: forum, now: now) == "b=2")
    #expect(jar.cookieHeader(for: forum, now: now.addingTimeInterval(61)) == nil)
  }

  @Test func expiredCookiesAreNotSent() {
    var jar = CookieJar()
    jar.receive(setCookieHeaders: ["a=1; expires=Wed, 15 Nov 2023 00:00:00 GMT"], from: forum, now: now)
    #expect(jar.cookieHeader(for: forum, now: now) == "a=1")
    #expect(jar.cookieHeader(for: forum, now: Date(timeIntervalSince1970: 1_800_000_000)) == nil)
  }

  @Test func malformedHeadersAreIgnored() {
    var jar = CookieJar()
    let changed = jar.receive(setCookieHeaders: ["", "novalue", "=x"], from: forum, now: now)
    #expect(!changed)
    #expect(jar.cookies.isEmpty)
  }

  @Test func descriptionsNeverShowValues() {
    var jar = CookieJar()
    jar.receive(setCookieHeaders: ["bbpassword=s3cr3t"], from: forum, now: now)
    #expect(!"\(jar)".contains("s3cr3t"))
    #expect(!String(reflecting: jar).contains("s3cr3t"))
    #expect(!"\(jar.cookies)".contains("s3cr3t"))
  }

  @Test func inMemoryStoreRoundTrips() async throws {
    let store = InMemoryCookieStore()
    let cookie = StoredCookie(name: "bbuserid", value: "1", domain: "Forums.SomethingAwful.com")
    try await store.save([cookie])
    #expect(try await store.load() == [cookie])
    #expect(cookie.domain == "forums.somethingawful.com")
  }
}
