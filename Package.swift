// swift-tools-version: 6.1
import PackageDescription

// With AWFULBOT_FUZZ set (scripts/fuzz), our own modules are built with libFuzzer's coverage and the address
// sanitizer, optimised, and with testing enabled so the fuzz target reaches the scrapers' internals. The flags are set
// here, per target, rather than with -Xswiftc for the whole graph: the dependencies then compile exactly as for the
// tests' debug build, and scripts/test's fuzz build reuses them from the same scratch path instead of building them a
// second time.
let fuzzing = Context.environment["AWFULBOT_FUZZ"] != nil
let swiftSettings: [SwiftSetting] =
  [.swiftLanguageMode(.v6)]
  + (fuzzing
    ? [
      .unsafeFlags(["-sanitize=fuzzer,address", "-enable-testing"]),
      // A debug fuzz build (scripts/fuzz builds in the tests' configuration) optimises our modules all the same:
      // unoptimised, the page targets ran at 18-33 inputs a second.
      .unsafeFlags(["-O"], .when(configuration: .debug)),
    ] : [])

let package = Package(
  name: "AwfulBot",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "awfulbot", targets: ["awfulbot"]),
    .executable(name: "awfulbot-bench", targets: ["awfulbot-bench"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
  ],
  targets: [
    .systemLibrary(
      name: "CLibXML2",
      pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"])]
    ),
    // libolm for Matrix end-to-end encryption (Olm/Megolm); only MatrixCrypto uses it.
    .systemLibrary(
      name: "CLibOlm",
      pkgConfig: "olm",
      providers: [.apt(["libolm-dev"])]
    ),
    .target(
      name: "ForumModel",
      swiftSettings: swiftSettings
    ),
    // Reading config: the one keyed reader, its problem type, JSONValue. Below every layer that reads config (the
    // application's sections, each transport's configuration); ChatBridge re-exports it.
    .target(
      name: "ConfigReading",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "ChatBridge",
      dependencies: [
        "ConfigReading",
        "ForumModel",
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: swiftSettings
    ),
    // How a message becomes text on a chat medium (excerpts, quotes, answers as lines). Transports and the console
    // use it; BotCore must not, so the engine can only hand over structure and every renderer sees the same thing.
    .target(
      name: "ChatRendering",
      dependencies: ["ChatBridge", "ForumModel"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "AwfulScraping",
      dependencies: ["ForumModel", "CLibXML2"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "ForumsClient",
      dependencies: [
        "AwfulScraping",
        "ForumModel",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "FakeForum",
      dependencies: [
        "ForumModel",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: swiftSettings
    ),
    // A Discord webhook receiver on loopback (Hummingbird) that answers as Discord's documentation says: for the
    // Discord transport's tests and the crash proof.
    .target(
      name: "FakeDiscord",
      dependencies: [
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "BotStore",
      dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "BotCore",
      dependencies: [
        "BotStore",
        "ForumModel",
        "ChatBridge",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Metrics", package: "swift-metrics"),
      ],
      swiftSettings: swiftSettings
    ),
    // The Matrix client-server API as values, no I/O: event types and their typed content (the one place the
    // `m.*` names are spelled), the sync answer, requests and the homeserver's errors. Shared by the crypto and the
    // transport, so the crypto needs neither the HTTP client nor the sync loop.
    .target(
      name: "MatrixModel",
      dependencies: ["ChatBridge", "ForumModel"],
      swiftSettings: swiftSettings
    ),
    // End-to-end encryption behind the `MatrixEncryption` seam: Olm/Megolm (libolm), device tracking, cross-signing
    // and secret storage. It reaches the homeserver only through the calls the transport hands it (`MatrixCryptoAPI`).
    .target(
      name: "MatrixCrypto",
      dependencies: [
        "ChatBridge",
        "MatrixModel",
        "CLibOlm",
        // HKDF, HMAC and AES-CTR for secret storage (the cross-signing keys under the recovery key).
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "CryptoExtras", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "MatrixTransport",
      dependencies: [
        "ChatBridge",
        "ChatRendering",
        "ForumModel",
        "MatrixCrypto",
        "MatrixModel",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        // SHA-256 and AES-CTR for encrypted attachments (pictures in encrypted rooms).
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "CryptoExtras", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log"),
        // The thread pool that resolves picture hosts off the cooperative threads.
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "IRCTransport",
      dependencies: [
        "ChatBridge",
        "ChatRendering",
        "ForumModel",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: swiftSettings
    ),
    // Discord through incoming webhooks (relay only): rendering to Discord markdown, rate limits, edits and removals.
    .target(
      name: "DiscordTransport",
      dependencies: [
        "ChatBridge",
        "ChatRendering",
        "ForumModel",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "AwfulBotApp",
      dependencies: [
        "AwfulScraping", "ForumModel", "ChatBridge", "ChatRendering", "ForumsClient", "FakeForum", "BotStore",
        "BotCore",
        "IRCTransport", "MatrixTransport", "DiscordTransport",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "UnixSignals", package: "swift-service-lifecycle"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "Hummingbird", package: "hummingbird"),
      ],
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "awfulbot",
      dependencies: [
        "AwfulBotApp",
        // `awfulbot fake-discord`, the receiver the crash proof runs beside the bot.
        "FakeDiscord",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "awfulbot-bench",
      dependencies: [
        "AwfulBotApp", "AwfulScraping", "CLibXML2", "FakeForum", "ForumModel", "ForumsClient", "BotCore", "BotStore",
        "MatrixModel", "MatrixTransport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: swiftSettings
    ),
    // The test kits: what test targets share (no copies, no symlinks), one kit per layer, so a test target links
    // no more than its module, what that module links, and the kits (scripts/check-module-rules). None links
    // AwfulBotApp but the app kit.
    //
    // The core kit every test may use: clock, waits, logging, temporary folders, captured pages, the forum
    // emulator's admin client, services run for the length of a test, RecordingTransport (the one stand-in for a
    // chat service) and how tests read a message (the plain text a person reads). It links the forum model, the
    // chat vocabulary and its plain-text rendering only: no engine, no transport, no libolm.
    .target(
      name: "AwfulBotTestKit",
      dependencies: [
        "ChatBridge", "ChatRendering", "ForumModel",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      path: "Tests/TestKit",
      swiftSettings: swiftSettings
    ),
    // The forum client tuned for the emulator (ForumsClientConfiguration.test), for the client's tests and the app's.
    .target(
      name: "AwfulBotForumTestKit",
      dependencies: ["FakeForum", "ForumsClient"],
      path: "Tests/ForumTestKit",
      swiftSettings: swiftSettings
    ),
    // The engine's kit: TestForum (BotCore's `Forum` in process) and CommandHarness (the router on the real engine).
    .target(
      name: "AwfulBotEngineTestKit",
      dependencies: ["AwfulBotTestKit", "BotCore", "BotStore", "ChatBridge", "ForumModel"],
      path: "Tests/EngineTestKit",
      swiftSettings: swiftSettings
    ),
    // The live IRC network (InspIRCd + Atheme from scripts/with-ircd) and the IRC transport run in a service group.
    .target(
      name: "AwfulBotIRCTestKit",
      dependencies: [
        "AwfulBotTestKit", "IRCTransport",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      path: "Tests/IRCTestKit",
      swiftSettings: swiftSettings
    ),
    // The live homeserver (Synapse from scripts/with-synapse), the people on it (MatrixHuman, MatrixE2EEHuman), and
    // the Matrix fakes (InertEncryption). Links MatrixTransport, so libolm: only Matrix and acceptance tests use it.
    .target(
      name: "AwfulBotMatrixTestKit",
      dependencies: [
        "AwfulBotTestKit", "ChatBridge", "MatrixCrypto", "MatrixModel", "MatrixTransport",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      path: "Tests/MatrixTestKit",
      swiftSettings: swiftSettings
    ),
    // What the app's tests and the acceptance suites share: the app's forum settings for the emulator, the app run
    // for the length of a test, configuration JSON for the ops tests, the status daemon's stand-in.
    .target(
      name: "AwfulBotAppTestKit",
      dependencies: [
        "AwfulBotApp", "AwfulBotTestKit", "BotStore", "ChatBridge", "FakeForum", "ForumsClient",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      path: "Tests/AppTestKit",
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "AwfulScrapingTests",
      dependencies: ["AwfulScraping", "ForumModel", "AwfulBotTestKit"],
      resources: [.copy("Pages"), .copy("FuzzRegressions")],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "ForumsClientTests",
      dependencies: [
        "AwfulBotTestKit", "AwfulBotForumTestKit", "ForumsClient", "FakeForum", "ForumModel",
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "ChatRenderingTests",
      dependencies: ["AwfulBotTestKit", "ChatRendering", "ChatBridge", "ForumModel"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "BotStoreTests",
      dependencies: ["AwfulBotTestKit", "BotStore", .product(name: "GRDB", package: "GRDB.swift")],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "BotCoreTests",
      dependencies: [
        "AwfulBotTestKit", "AwfulBotEngineTestKit", "BotCore", "BotStore", "ChatBridge", "ForumModel",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      // Read from the source tree by CommandFuzzRegressionTests.
      exclude: ["FuzzRegressions"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FakeForumTests",
      dependencies: [
        "AwfulBotTestKit", "FakeForum", "AwfulScraping", "ForumModel",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
      ],
      swiftSettings: swiftSettings
    ),
    // The Matrix events as values: what the typed content reads from clients and what it writes.
    .testTarget(
      name: "MatrixModelTests",
      dependencies: ["ChatBridge", "MatrixModel"],
      swiftSettings: swiftSettings
    ),
    // The crypto on its own: libolm, the key flows and cross-signing against an in-process homeserver (no HTTP).
    .testTarget(
      name: "MatrixCryptoTests",
      dependencies: [
        "AwfulBotTestKit", "ChatBridge", "MatrixCrypto", "MatrixModel",
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "MatrixTransportTests",
      dependencies: [
        "AwfulBotTestKit", "AwfulBotMatrixTestKit", "ChatBridge", "FakeForum", "ForumModel", "MatrixCrypto",
        "MatrixModel", "MatrixTransport", "ChatRendering",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      // Read from the source tree by OutsideNumberFuzzRegressionTests.
      exclude: ["FuzzRegressions"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "IRCTransportTests",
      dependencies: [
        "AwfulBotTestKit", "AwfulBotIRCTestKit", "ChatBridge", "ForumModel", "IRCTransport",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "DiscordTransportTests",
      dependencies: [
        "AwfulBotTestKit", "ChatBridge", "DiscordTransport", "FakeDiscord", "ForumModel",
        .product(name: "Logging", package: "swift-log"),
      ],
      exclude: ["FuzzRegressions"],
      swiftSettings: swiftSettings
    ),
    // AwfulBotApp's own tests, no live server needed: configuration and ops commands, the console, `scrape`, the
    // demo, start-up failures, and the whole bot on the forum emulator over loopback (`Loopback/`).
    .testTarget(
      name: "AppTests",
      dependencies: [
        "AwfulBotApp", "AwfulBotTestKit", "AwfulBotAppTestKit", "AwfulBotEngineTestKit", "AwfulBotForumTestKit",
        "AwfulBotMatrixTestKit", "AwfulScraping", "BotCore", "BotStore", "ChatBridge", "ChatRendering", "FakeDiscord",
        "FakeForum", "ForumModel", "ForumsClient",
        "IRCTransport", "MatrixTransport",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      // Golden transcripts are read from the source tree (#filePath), not bundled.
      exclude: ["Console/Transcripts"],
      swiftSettings: swiftSettings
    ),
    // The acceptance suites against the live servers the scripts start (Synapse, InspIRCd + Atheme): the transports
    // and the bot as people on those servers see them (`IRC/`, `Matrix/`, `Ops/`). Each suite skips itself, with
    // the reason, when its server is not running.
    .testTarget(
      name: "AcceptanceTests",
      dependencies: [
        "AwfulBotApp", "AwfulBotTestKit", "AwfulBotAppTestKit", "AwfulBotForumTestKit", "AwfulBotIRCTestKit",
        "AwfulBotMatrixTestKit", "BotCore", "BotStore", "ChatBridge", "FakeForum", "ForumsClient",
        "IRCTransport", "MatrixCrypto", "MatrixModel", "MatrixTransport",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: swiftSettings
    ),
  ]
)

// The libFuzzer entry points (scripts/fuzz). Only when AWFULBOT_FUZZ is set: they are linked against libFuzzer's
// own `main` and build only with `-sanitize=fuzzer -parse-as-library`, so a normal build or test never sees them.
// scripts/fuzz builds them into .build-fuzz (or the scratch path AWFULBOT_FUZZ_SCRATCH names).
if fuzzing {
  package.products.append(.executable(name: "awfulbot-fuzz", targets: ["awfulbot-fuzz"]))
  package.targets.append(contentsOf: [
    .systemLibrary(name: "CLibFuzzer", path: "Sources/CLibFuzzer"),
    .executableTarget(
      name: "awfulbot-fuzz",
      dependencies: [
        "AwfulScraping", "BotCore", "CLibXML2", "CLibFuzzer", "ChatBridge", "DiscordTransport", "ForumModel",
        "ForumsClient", "MatrixModel", "MatrixTransport",
      ],
      path: "Sources/awfulbot-fuzz",
      swiftSettings: swiftSettings + [.unsafeFlags(["-parse-as-library"])],
      linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
    ),
  ])
}
