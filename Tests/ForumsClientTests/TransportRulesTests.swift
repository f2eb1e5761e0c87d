import Foundation
import Testing

@testable import ForumsClient

@Suite("Request building, redirects and retry policy")
struct TransportRulesTests {
  let base = URL(string: "https://forums.somethingawful.com/")!

  @Test func queriesResolveAgainstTheBaseURL() throws {
    let request = ForumRequest.get("showthread.php", [("threadid", "3507451"), ("perpage", "40"), ("noseen", "1")])
    let url = try #require(request.url(relativeTo: base))
    #expect(
      url.absoluteString == "https://forums.somethingawful.com/showthread.php?threadid=3507451&perpage=40&noseen=1")
  }

  @Test func queryValuesAreEscapedThenPercentEncoded() throws {
    let url = try #require(ForumRequest.get("x.php", [("q", "a&b=c é😀")]).url(relativeTo: base))
    #expect(url.query == "q=a%26b%3Dc%20%C3%A9%26%23128512%3B")
  }

  @Test func pathsWithTheirOwnQueryKeepIt() throws {
    let url = try #require(ForumRequest.get("account.php?json=1").url(relativeTo: base))
    #expect(url.absoluteString == "https://forums.somethingawful.com/account.php?json=1")
    let more = try #require(ForumRequest.get("index.php?json=1", [("a", "b")]).url(relativeTo: base))
    #expect(more.query == "json=1&a=b")
  }

  @Test func baseURLsWithAPathWork() throws {
    let local = URL(string: "http://127.0.0.1:9000/forum/")!
    let url = try #require(ForumRequest.get("index.php", [("json", "1")]).url(relativeTo: local))
    #expect(url.absoluteString == "http://127.0.0.1:9000/forum/index.php?json=1")
  }

  @Test func redirectsToPagedEndpointsGetPerpageBack() {
    let target = URL(string: "https://forums.somethingawful.com/showthread.php?threadid=1&pagenumber=3#pti7")!
    let adjusted = RedirectRules.adjusted(target)
    #expect(adjusted.query == "threadid=1&pagenumber=3&perpage=40")
    #expect(adjusted.fragment == "pti7")
    for page in ["forumdisplay.php?forumid=1", "bookmarkthreads.php"] {
      let url = RedirectRules.adjusted(URL(string: "https://forums.somethingawful.com/\(page)")!)
      #expect(url.query?.hasSuffix("perpage=40") == true)
    }
  }

  @Test func redirectsElsewhereOrWithPerpageAreUntouched() {
    let index = URL(string: "https://forums.somethingawful.com/index.php?json=1")!
    #expect(RedirectRules.adjusted(index) == index)
    let paged = URL(string: "https://forums.somethingawful.com/showthread.php?threadid=1&perpage=40")!
    #expect(RedirectRules.adjusted(paged) == paged)
  }

  @Test func onlyTemporaryAndPermanentRedirectsKeepAPost() {
    #expect(RedirectRules.keepsMethodAndBody(status: 307))
    #expect(RedirectRules.keepsMethodAndBody(status: 308))
    #expect(!RedirectRules.keepsMethodAndBody(status: 302))
    #expect(!RedirectRules.keepsMethodAndBody(status: 303))
  }

  @Test func backoffDoublesUpToTheCap() {
    let policy = RetryPolicy(
      maxAttempts: 10, initialDelay: .milliseconds(100), maximumDelay: .seconds(1), jitter: 0.5)
    #expect(policy.delay(beforeRetry: 1, random: 0) == .milliseconds(100))
    #expect(policy.delay(beforeRetry: 2, random: 0) == .milliseconds(200))
    #expect(policy.delay(beforeRetry: 3, random: 0) == .milliseconds(400))
    #expect(policy.delay(beforeRetry: 5, random: 0) == .seconds(1))
    #expect(policy.delay(beforeRetry: 50, random: 0) == .seconds(1))
  }

  @Test func jitterOnlyShortensWithinItsFraction() {
    let policy = RetryPolicy(initialDelay: .seconds(1), jitter: 0.5)
    #expect(policy.delay(beforeRetry: 1, random: 1) == .milliseconds(500))
    for _ in 0..<100 {
      let delay = policy.delay(beforeRetry: 1)
      #expect(delay >= .milliseconds(500) && delay <= .seconds(1))
    }
  }

  @Test func onlyServerErrorsAreRetryableStatuses() {
    #expect(RetryPolicy.isRetryable(status: 500))
    #expect(RetryPolicy.isRetryable(status: 503))
    #expect(!RetryPolicy.isRetryable(status: 404))
    #expect(!RetryPolicy.isRetryable(status: 403))
    #expect(!RetryPolicy.isRetryable(status: 200))
    #expect(RetryPolicy(maxAttempts: 0).maxAttempts == 1)
  }

  @Test func userAgentNamesTheBotAndVersion() {
    #expect(AwfulBotVersion.userAgent == "AwfulBot/\(AwfulBotVersion.current) (+https://github.com/awfulbot)")
  }
}

@Suite("Redirects keep noseen")
struct RedirectNoseenTests {
  @Test func threadRedirectsKeepTheNoseenOfTheRequest() {
    let from = URL(string: "https://forums.somethingawful.com/showthread.php?threadid=1&goto=lastpost&noseen=1")!
    let target = URL(string: "https://forums.somethingawful.com/showthread.php?threadid=1&pagenumber=9#lastpost")!
    #expect(RedirectRules.adjusted(target, from: from).query == "threadid=1&pagenumber=9&perpage=40&noseen=1")
  }

  @Test func noNoseenIsAddedWhenTheRequestHadNone() {
    let from = URL(string: "https://forums.somethingawful.com/showthread.php?threadid=1&goto=lastpost")!
    let target = URL(string: "https://forums.somethingawful.com/showthread.php?threadid=1&pagenumber=9")!
    #expect(RedirectRules.adjusted(target, from: from).query == "threadid=1&pagenumber=9&perpage=40")
  }
}
