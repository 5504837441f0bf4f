import GatewayService
import ServiceKit
import ServiceLifecycle
import Logging

let configuration = try GatewayConfiguration(reader: ServiceSettings.environmentReader())
let group = ServiceGroup(
    services: [GatewayServer(configuration: configuration)], gracefulShutdownSignals: [.sigterm, .sigint],
    logger: Logger(label: "platform.gateway"))
try await group.run()
