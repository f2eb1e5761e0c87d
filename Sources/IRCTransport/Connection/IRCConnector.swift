import NIOCore
import NIOPosix
import NIOSSL

/// Opens the TCP connection (TLS when configured) with the line framing on top, as an async channel of lines.
enum IRCConnector {
  typealias LineChannel = NIOAsyncChannel<String, String>

  static func connect(_ configuration: IRCTransportConfiguration, tlsContext: NIOSSLContext?) async throws
    -> LineChannel
  {
    let host = configuration.host
    let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .connectTimeout(.milliseconds(Int64(configuration.connectTimeoutSeconds * 1000)))
      .channelOption(.socketOption(.so_keepalive), value: 1)
    return try await bootstrap.connect(host: host, port: configuration.port) { channel in
      channel.eventLoop.makeCompletedFuture {
        if let tlsContext {
          // SNI cannot carry an IP address; without a hostname NIOSSL checks the certificate against the peer's IP.
          let serverName = isIPAddress(host) ? nil : host
          try channel.pipeline.syncOperations.addHandler(
            NIOSSLClientHandler(context: tlsContext, serverHostname: serverName))
        }
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(IRCLineDecoder()))
        try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(IRCLineEncoder()))
        return try LineChannel(wrappingChannelSynchronously: channel)
      }
    }
  }

  /// The TLS context for the configuration: verification always on; the system roots, plus the configured CA file;
  /// the client certificate and key for SASL EXTERNAL when configured. nil for plain TCP.
  static func makeTLSContext(_ configuration: IRCTransportConfiguration) throws -> NIOSSLContext? {
    guard configuration.tls else { return nil }
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.certificateVerification = .fullVerification
    if let caFile = configuration.caFile {
      tls.additionalTrustRoots = [.file(caFile)]
    }
    if let certificateFile = configuration.clientCertificateFile, let keyFile = configuration.clientKeyFile {
      tls.certificateChain = try NIOSSLCertificate.fromPEMFile(certificateFile).map { .certificate($0) }
      tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: keyFile, format: .pem))
    }
    return try NIOSSLContext(configuration: tls)
  }

  static func isIPAddress(_ host: String) -> Bool {
    (try? SocketAddress(ipAddress: host, port: 0)) != nil
  }
}
