import MessagingService
import ServiceKit

EventLoopExecutor.install()
try Observability.bootstrap(service: "messaging")
let configuration = try MessagingConfiguration(reader: ServiceSettings.environmentReader())
let application = try await buildMessagingApplication(configuration)
try await application.runService()
