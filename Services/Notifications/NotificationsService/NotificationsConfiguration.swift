import Configuration
import Foundation
import PlatformKit
import ServiceKit

/// Everything the notifications service needs to start, from the environment or built by tests.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `APNS_TEAM_ID`, `APNS_KEY_ID`, `APNS_TOPIC` | Apple team, .p8 key id, the app's bundle id | unset: pushes are logged |
/// | `APNS_PRIVATE_KEY_PATH` | the .p8 key file | |
/// | `STREAM_HEARTBEAT_SECONDS` | how often an idle live stream sends a comment | 15 |
/// | and those of ``ServiceSettings`` | | |
public struct NotificationsConfiguration: Sendable {
    public var settings: ServiceSettings
    /// APNs credentials; without them pushes go to the log.
    public var apns: APNsSettings?
    /// Replaces push delivery altogether (tests record pushes).
    public var pushDelivery: (any PushDelivery)?
    public var heartbeatInterval: Duration
    /// How long stream events are kept for `Last-Event-ID` resume.
    public var streamRetention: TimeInterval
    /// Replaces the verifier of identity's published keys (router tests sign their own tokens).
    public var verifier: AccessTokenVerifier?
    /// Receives the background jobs once they are built, so tests can run them at the manual clock's time.
    public var jobsBuilt: (@Sendable (NotificationsJobs) -> Void)?
    /// How often stream events past their retention are deleted.
    public var streamPruningInterval: Duration

    public init(
        settings: ServiceSettings, apns: APNsSettings? = nil, pushDelivery: (any PushDelivery)? = nil,
        heartbeatInterval: Duration = .seconds(15), streamRetention: TimeInterval = 86_400,
        verifier: AccessTokenVerifier? = nil, jobsBuilt: (@Sendable (NotificationsJobs) -> Void)? = nil,
        streamPruningInterval: Duration = .seconds(600)
    ) {
        self.settings = settings
        self.apns = apns
        self.pushDelivery = pushDelivery
        self.heartbeatInterval = heartbeatInterval
        self.streamRetention = streamRetention
        self.verifier = verifier
        self.jobsBuilt = jobsBuilt
        self.streamPruningInterval = streamPruningInterval
    }

    public init(reader: ConfigReader) throws {
        var apns: APNsSettings?
        if let teamID = reader.string(forKey: "apns.team.id"), let keyID = reader.string(forKey: "apns.key.id"),
            let topic = reader.string(forKey: "apns.topic"),
            let keyPath = reader.string(forKey: "apns.private.key.path")
        {
            apns = APNsSettings(
                teamID: teamID, keyID: keyID, privateKeyPEM: try String(contentsOfFile: keyPath, encoding: .utf8),
                topic: topic)
        }
        self.init(
            settings: try ServiceSettings(service: .notifications, reader: reader), apns: apns,
            heartbeatInterval: .seconds(reader.int(forKey: "stream.heartbeat.seconds", default: 15)))
    }
}
