import Configuration
import Foundation
import PlatformKit
import ServiceKit

/// Everything the habits service needs to start, from the environment or built by tests.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `SOCIAL_URL` | the social service, for who follows whom (approved) | http://127.0.0.1:8082 |
/// | and those of ``ServiceSettings`` | | |
public struct HabitsConfiguration: Sendable {
    public var settings: ServiceSettings
    public var socialURL: String
    /// Replaces the social graph lookups (tests whose social service starts later, or a fake).
    public var followGraph: (any FollowGraph)?

    public init(
        settings: ServiceSettings, socialURL: String = "http://127.0.0.1:\(ServiceName.social.defaultPort)",
        followGraph: (any FollowGraph)? = nil
    ) {
        self.settings = settings
        self.socialURL = socialURL
        self.followGraph = followGraph
    }

    public init(reader: ConfigReader) throws {
        self.init(
            settings: try ServiceSettings(service: .habits, reader: reader),
            socialURL: reader.string(
                forKey: "social.url", default: "http://127.0.0.1:\(ServiceName.social.defaultPort)"))
    }
}
