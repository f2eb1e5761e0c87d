// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6)
]

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
    // libolm for Matrix end-to-end encryption (Olm/Megolm); only MatrixTransport's crypto files use it.
    .systemLibrary(
      name: "CLibOlm",
      pkgConfig: "olm",
      providers: [.apt(["libolm-dev"])]
    ),
    .target(
      name: "ForumModel",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "ChatBridge",
      dependencies: [
        "ForumModel",
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
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
    .target(
      name: "MatrixTransport",
      dependencies: [
        "ChatBridge",
        "ForumModel",
        "CLibOlm",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        // HKDF, HMAC and AES-CTR for secret storage (the cross-signing keys under the recovery key).
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "CryptoExtras", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "IRCTransport",
      dependencies: [
        "ChatBridge",
        "ForumModel",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "AwfulBotApp",
      dependencies: [
        "AwfulScraping", "ForumModel", "ChatBridge", "ForumsClient", "FakeForum", "BotStore", "BotCore",
        "IRCTransport", "MatrixTransport",
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
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "awfulbot-bench",
      dependencies: [
        "AwfulBotApp", "AwfulScraping", "CLibXML2", "FakeForum", "ForumModel", "ForumsClient", "BotCore", "BotStore",
        "MatrixTransport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: swiftSettings
    ),
    // The test kit: the fakes, runners and live-server environments every test target shares (no copies, no
    // symlinks). It never links AwfulBotApp, so the lower layers' tests do not build against the top layer.
    .target(
      name: "AwfulBotTestKit",
      dependencies: [
        "BotCore", "BotStore", "ChatBridge", "ForumModel", "FakeForum", "ForumsClient", "IRCTransport",
        "MatrixTransport",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      path: "Tests/TestKit",
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
      dependencies: ["AwfulBotTestKit", "ForumsClient", "FakeForum", "AwfulScraping", "ForumModel"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "BotStoreTests",
      dependencies: ["AwfulBotTestKit", "BotStore"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "BotCoreTests",
      dependencies: [
        "AwfulBotTestKit", "AwfulScraping", "ChatBridge", "ForumModel", "BotCore", "BotStore",
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
        "FakeForum", "AwfulScraping", "ForumModel",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "MatrixTransportTests",
      dependencies: [
        "AwfulBotTestKit", "AwfulScraping", "ChatBridge", "ForumModel", "MatrixTransport",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "IRCTransportTests",
      dependencies: [
        "AwfulBotTestKit", "ChatBridge", "ForumModel", "IRCTransport", "BotCore",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      swiftSettings: swiftSettings
    ),
    // The whole app and the live servers: AwfulBotApp's own tests, the bot on the forum emulator over loopback,
    // and the suites against Synapse and InspIRCd (they skip themselves when those are not running).
    .testTarget(
      name: "IntegrationTests",
      dependencies: [
        "AwfulBotTestKit", "ChatBridge", "ForumModel", "AwfulBotApp", "BotCore", "BotStore", "FakeForum",
        "ForumsClient", "MatrixTransport", "IRCTransport",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      // Golden transcripts are read from the source tree (#filePath), not bundled.
      exclude: ["Transcripts"],
      swiftSettings: swiftSettings
    ),
  ]
)

// The libFuzzer entry points (scripts/fuzz). Only when AWFULBOT_FUZZ is set: they are linked against libFuzzer's
// own `main` and build only with `-sanitize=fuzzer -parse-as-library`, so a normal build or test never sees them.
// scripts/fuzz builds them into their own scratch path (.build-fuzz).
if Context.environment["AWFULBOT_FUZZ"] != nil {
  package.products.append(.executable(name: "awfulbot-fuzz", targets: ["awfulbot-fuzz"]))
  package.targets.append(contentsOf: [
    .systemLibrary(name: "CLibFuzzer", path: "Sources/CLibFuzzer"),
    .executableTarget(
      name: "awfulbot-fuzz",
      dependencies: ["AwfulScraping", "BotCore", "CLibXML2", "CLibFuzzer"],
      path: "Sources/awfulbot-fuzz",
      swiftSettings: swiftSettings
    ),
  ])
}
