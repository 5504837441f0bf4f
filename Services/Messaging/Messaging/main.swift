import MessagingService
import ServiceKit

EventLoopExecutor.install()
await ExecutableMain.run("messaging") {
    try Observability.bootstrap(service: "messaging")
    let configuration = try MessagingConfiguration(reader: ServiceSettings.environmentReader())
    let application = try await buildMessagingApplication(configuration)
    try await application.runService()
}
