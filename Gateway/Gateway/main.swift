import GatewayService
import Logging
import ServiceKit
import ServiceLifecycle

try LogFormat.bootstrap()
let configuration = try GatewayConfiguration(reader: ServiceSettings.environmentReader())
let group = ServiceGroup(
    services: [GatewayServer(configuration: configuration)], gracefulShutdownSignals: [.sigterm, .sigint],
    logger: Logger(label: "platform.gateway"))
try await group.run()
