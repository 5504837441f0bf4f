import Configuration
import Foundation
import PlatformKit
import ServiceKit

/// Everything the geo service needs to start, from the environment or built by tests.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `SOCIAL_URL` | the social service, for friends and blocks | http://127.0.0.1:8082 |
/// | and those of ``ServiceSettings`` | | |
public struct GeoConfiguration: Sendable {
    public var settings: ServiceSettings
    public var socialURL: String
    /// Replaces the social graph lookups (tests start social after geo, benchmarks use none).
    public var socialGraph: (any GeoSocialGraph)?
    /// Replaces the identity lookups.
    public var userDirectory: (any UserDirectory)?
    /// Loads the embedded gazetteer at first start (benchmarks and focused tests may skip it).
    public var loadGazetteer: Bool

    public init(
        settings: ServiceSettings, socialURL: String = "http://127.0.0.1:\(ServiceName.social.defaultPort)",
        socialGraph: (any GeoSocialGraph)? = nil, userDirectory: (any UserDirectory)? = nil, loadGazetteer: Bool = true
    ) {
        self.settings = settings
        self.socialURL = socialURL
        self.socialGraph = socialGraph
        self.userDirectory = userDirectory
        self.loadGazetteer = loadGazetteer
    }

    public init(reader: ConfigReader) throws {
        self.init(
            settings: try ServiceSettings(service: .geo, reader: reader),
            socialURL: reader.string(
                forKey: "social.url", default: "http://127.0.0.1:\(ServiceName.social.defaultPort)"))
    }
}
