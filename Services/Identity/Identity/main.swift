import IdentityService
import ServiceKit

EventLoopExecutor.install()
try Observability.bootstrap(service: "identity")
let configuration = try IdentityConfiguration(reader: ServiceSettings.environmentReader())
let application = try await buildIdentityApplication(configuration)
try await application.runService()
