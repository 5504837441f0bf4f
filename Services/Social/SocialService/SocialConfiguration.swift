import Configuration
import Foundation
import PlatformKit
import ServiceKit

/// Everything the social service needs to start, from the environment or built by tests.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `NOTIFICATIONS_URL` | the notifications service, for friend and follow notices | unset: notices are logged |
/// | and those of ``ServiceSettings`` | | |
public struct SocialConfiguration: Sendable {
    public var settings: ServiceSettings
    public var notificationsURL: String?
    /// Replaces the notices' destination (tests record them).
    public var noticeSink: (any NoticeSink)?
    /// Replaces the identity lookups.
    public var userDirectory: (any UserDirectory)?
    /// Replaces the verifier of identity's published keys (router tests sign their own tokens).
    public var verifier: AccessTokenVerifier?

    public init(
        settings: ServiceSettings, notificationsURL: String? = nil, noticeSink: (any NoticeSink)? = nil,
        userDirectory: (any UserDirectory)? = nil, verifier: AccessTokenVerifier? = nil
    ) {
        self.settings = settings
        self.notificationsURL = notificationsURL
        self.noticeSink = noticeSink
        self.userDirectory = userDirectory
        self.verifier = verifier
    }

    public init(reader: ConfigReader) throws {
        self.init(
            settings: try ServiceSettings(service: .social, reader: reader),
            notificationsURL: reader.string(forKey: "notifications.url"))
    }
}
