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
    /// The notifications service; `nil`: notices are logged.
    public var notificationsURL: ServiceAddress?
    /// The messaging service (a test stack may start it after this one: ``ServiceAddress/late(_:)``).
    public var messagingURL: ServiceAddress
    /// Replaces the notices' destination (tests record them).
    public var noticeSink: (any NoticeSink)?
    /// Replaces the identity lookups.
    public var userDirectory: (any UserDirectory)?
    /// Replaces the verifier of identity's published keys (router tests sign their own tokens).
    public var verifier: AccessTokenVerifier?

    public init(
        settings: ServiceSettings, notificationsURL: ServiceAddress? = nil, noticeSink: (any NoticeSink)? = nil,
        userDirectory: (any UserDirectory)? = nil, verifier: AccessTokenVerifier? = nil,
        messagingURL: ServiceAddress = .local(.messaging)
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
            notificationsURL: reader.optionalAddress(of: .notifications), messagingURL: reader.address(of: .messaging))
    }
}
