import Foundation
import NIOCore
import NIOExtras
import NIOPosix
import NIOSSL
import Synchronization

/// A local SMTP server for tests: accepts every message, optionally upgrades with STARTTLS, and keeps
/// what it received so a test can read the mail (a reset link) the service sent.
public final class FakeSMTPServer: Sendable {
    /// One received message.
    public struct Message: Sendable {
        public var from: String
        public var recipients: [String]
        public var data: String
        /// Whether the message travelled over TLS.
        public var encrypted: Bool
    }

    private struct State {
        var messages: [Message] = []
        /// How many messages ``nextMessage()`` has handed out.
        var taken = 0
        var waiters: [CheckedContinuation<Message, Never>] = []
    }

    private let channel: any Channel
    private let state = Mutex(State())
    /// The port it listens on (127.0.0.1).
    public let port: Int

    /// Starts a server; with `tls`, it offers STARTTLS.
    public static func start(tls: NIOSSLContext? = nil) async throws -> FakeSMTPServer {
        let box = LateBinding<FakeSMTPServer>()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
                    try channel.pipeline.syncOperations.addHandler(
                        SMTPSessionHandler(tls: tls) { box.value?.receive($0) })
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = FakeSMTPServer(channel: channel)
        box.value = server
        return server
    }

    private init(channel: any Channel) {
        self.channel = channel
        self.port = channel.localAddress?.port ?? 0
    }

    /// Every message received so far.
    public var messages: [Message] { state.withLock { $0.messages } }

    /// Waits for the next message not yet handed out by an earlier call.
    public func nextMessage() async -> Message {
        await withCheckedContinuation { continuation in
            let ready: Message? = state.withLock { state in
                guard state.taken < state.messages.count else {
                    state.waiters.append(continuation)
                    return nil
                }
                state.taken += 1
                return state.messages[state.taken - 1]
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    fileprivate func receive(_ message: Message) {
        let waiter: CheckedContinuation<Message, Never>? = state.withLock { state in
            state.messages.append(message)
            guard !state.waiters.isEmpty else { return nil }
            state.taken += 1
            return state.waiters.removeFirst()
        }
        waiter?.resume(returning: message)
    }

    public func stop() async {
        try? await channel.close()
    }
}

/// The server side of one SMTP conversation.
private final class SMTPSessionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let tls: NIOSSLContext?
    private let deliver: @Sendable (FakeSMTPServer.Message) -> Void
    private var from = ""
    private var recipients: [String] = []
    private var data: [String]?
    private var encrypted = false

    init(tls: NIOSSLContext?, deliver: @escaping @Sendable (FakeSMTPServer.Message) -> Void) {
        self.tls = tls
        self.deliver = deliver
    }

    func channelActive(context: ChannelHandlerContext) {
        reply(context, "220 fake-smtp ready")
    }

    func channelRead(context: ChannelHandlerContext, data buffer: NIOAny) {
        let line = String(buffer: unwrapInboundIn(buffer)).trimmingCharacters(in: CharacterSet(charactersIn: "\r\n"))
        if var lines = data {
            if line == "." {
                data = nil
                deliver(
                    .init(from: from, recipients: recipients, data: lines.joined(separator: "\n"), encrypted: encrypted)
                )
                reply(context, "250 queued")
            } else {
                lines.append(line.hasPrefix("..") ? String(line.dropFirst()) : line)
                data = lines
            }
            return
        }
        let verb = line.prefix(while: { $0 != " " && $0 != ":" }).uppercased()
        switch verb {
        case "EHLO", "HELO":
            reply(context, tls != nil && !encrypted ? "250-fake-smtp\r\n250 STARTTLS" : "250 fake-smtp")
        case "STARTTLS":
            guard let tls, !encrypted else { return reply(context, "502 not offered") }
            reply(context, "220 go ahead")
            encrypted = true
            try? context.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls), position: .first)
        case "AUTH": reply(context, "235 ok")
        case "MAIL":
            from = String(line.drop(while: { $0 != "<" }).dropFirst().prefix(while: { $0 != ">" }))
            recipients = []
            reply(context, "250 ok")
        case "RCPT":
            recipients.append(String(line.drop(while: { $0 != "<" }).dropFirst().prefix(while: { $0 != ">" })))
            reply(context, "250 ok")
        case "DATA":
            data = []
            reply(context, "354 end with .")
        case "QUIT":
            reply(context, "221 bye")
            context.close(promise: nil)
        default: reply(context, "500 unknown")
        }
    }

    private func reply(_ context: ChannelHandlerContext, _ text: String) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text + "\r\n")), promise: nil)
    }
}
