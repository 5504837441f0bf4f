import HouseholdService
import ServiceKit

EventLoopExecutor.install()
try Observability.bootstrap(service: "household")
let configuration = try HouseholdConfiguration(reader: ServiceSettings.environmentReader())
let application = try await buildHouseholdApplication(configuration)
try await application.runService()
