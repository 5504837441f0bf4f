import GatewayService
import Logging
import ServiceKit
import ServiceLifecycle

EventLoopExecutor.install()
await ExecutableMain.run("gateway") {
    try Observability.bootstrap(service: "gateway")
    var configuration = try GatewayConfiguration(reader: ServiceSettings.environmentReader())
    configuration.tracer = Observability.exportingTracer
    // The exporter is listed first so it stops last: spans of the last requests are still sent.
    let services: [(any Service)?] = [Observability.takeExporter(), GatewayServer(configuration: configuration)]
    let group = ServiceGroup(
        services: services.compactMap { $0 },
        gracefulShutdownSignals: [.sigterm, .sigint], logger: Logger(label: "platform.gateway"))
    try await group.run()
}
