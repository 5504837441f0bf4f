import Foundation
import Logging

/// One push to one device.
public struct PushMessage: Sendable, Equatable {
    public var deviceToken: String
    /// `production` or `sandbox`: which APNs environment issued the token.
    public var environment: String
    public var notificationID: String
    public var kind: String
    public var text: String
    /// The API path the notice is about; the app opens it when tapped.
    public var link: String
}

/// What became of a push.
public enum PushOutcome: Sendable, Equatable {
    case delivered
    /// The token is no longer valid (the app was removed): forget it.
    case unregistered
    case failed(reason: String)
}

/// Where pushes go: APNs when configured, the log otherwise, a recorder in tests.
public protocol PushDelivery: Sendable {
    func send(_ message: PushMessage) async -> PushOutcome
}

/// Pushes to the log, for local development without APNs credentials.
struct LoggingPushDelivery: PushDelivery {
    let logger: Logger

    func send(_ message: PushMessage) async -> PushOutcome {
        logger.info(
            "push (APNs not configured)",
            metadata: ["kind": "\(message.kind)", "device": "\(message.deviceToken.prefix(8))…"])
        return .delivered
    }
}
