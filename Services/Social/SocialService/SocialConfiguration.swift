import Configuration
import Foundation
import PlatformKit
import ServiceKit

/// Everything the social service needs to start, from the environment or built by tests.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `NOTIFICATIONS_URL` | the notifications service, for friend and follow notices | unset: notices are logged |
/// | `MESSAGING_URL` | the messaging service, for a conversation's members (friends not in it) | http://127.0.0.1:8083 |
/// | and those of ``ServiceSettings`` | | |
public struct SocialConfiguration: Sendable {
    public var settings: ServiceSettings
    public var notificationsURL: String?
    /// The messaging service, read on each call so that a test stack may start it after this one.
    public var messagingURL: @Sendable () -> String
    /// Replaces the notices' destination (tests record them).
    public var noticeSink: (any NoticeSink)?
    /// Replaces the identity lookups.
    public var userDirectory: (any UserDirectory)?
    /// Replaces the verifier of identity's published keys (router tests sign their own tokens).
    public var verifier: AccessTokenVerifier?

    public init(
        settings: ServiceSettings, notificationsURL: String? = nil, noticeSink: (any NoticeSink)? = nil,
        userDirectory: (any UserDirectory)? = nil, verifier: AccessTokenVerifier? = nil,
        messagingURL: @escaping @Sendable () -> String = { "http://127.0.0.1:\(ServiceName.messaging.defaultPort)" }
    ) {
        self.settings = settings
        self.notificationsURL = notificationsURL
        self.messagingURL = messagingURL
        self.noticeSink = noticeSink
        self.userDirectory = userDirectory
        self.verifier = verifier
    }

    public init(reader: ConfigReader) throws {
        self.init(
            settings: try ServiceSettings(service: .social, reader: reader),
            notificationsURL: reader.string(forKey: "notifications.url"))
        let messaging = reader.string(
            forKey: "messaging.url", default: "http://127.0.0.1:\(ServiceName.messaging.defaultPort)")
        messagingURL = { messaging }
    }
}
