// The whole platform in one process for local development: every service and the gateway, each on
// its own loopback port and talking over real HTTP, with their databases under DATA_DIR (./data).
// A new service plugs in with one line in `services` below.
import Configuration
import Foundation
import GatewayService
import GeoService
import HabitsService
import HouseholdService
import IdentityService
import Logging
import MessagingService
import NotificationsService
import PlatformKit
import ServiceKit
import ServiceLifecycle
import SocialService

/// The environment, with the port of `service` and the shared data folder filled in.
func reader(port: Int) -> ConfigReader {
    var environment = ProcessInfo.processInfo.environment
    environment["PORT"] = String(port)
    environment["DATA_DIR"] = environment["DATA_DIR"] ?? "data"
    environment["NOTIFICATIONS_URL"] =
        environment["NOTIFICATIONS_URL"] ?? "http://127.0.0.1:\(ServiceName.notifications.defaultPort)"
    return ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment))
}

// The gateway reads identity's ended sessions with the services' credential (generated in development).
var gatewayConfiguration = try GatewayConfiguration(reader: reader(port: 8080))
gatewayConfiguration.internalToken =
    try gatewayConfiguration.internalToken
    ?? ServiceSettings(service: .identity, reader: reader(port: ServiceName.identity.defaultPort)).internalToken

let services: [any Service] = [
    try await buildIdentityApplication(IdentityConfiguration(reader: reader(port: ServiceName.identity.defaultPort))),
    try await buildSocialApplication(SocialConfiguration(reader: reader(port: ServiceName.social.defaultPort))),
    try await buildHouseholdApplication(
        HouseholdConfiguration(reader: reader(port: ServiceName.household.defaultPort))),
    try await buildNotificationsApplication(
        NotificationsConfiguration(reader: reader(port: ServiceName.notifications.defaultPort))),
    try await buildMessagingApplication(
        MessagingConfiguration(reader: reader(port: ServiceName.messaging.defaultPort))),
    try await buildHabitsApplication(HabitsConfiguration(reader: reader(port: ServiceName.habits.defaultPort))),
    try await buildGeoApplication(GeoConfiguration(reader: reader(port: ServiceName.geo.defaultPort))),
    GatewayServer(configuration: gatewayConfiguration),
]

let logger = Logger(label: "platform.local-stack")
logger.notice("local stack starting: gateway on http://127.0.0.1:8080, data in ./data (mail in ./data/mail)")
try await ServiceGroup(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger).run()
