import HouseholdService
import ServiceKit

EventLoopExecutor.install()
await ExecutableMain.run("household") {
    try Observability.bootstrap(service: "household")
    let configuration = try HouseholdConfiguration(reader: ServiceSettings.environmentReader())
    let application = try await buildHouseholdApplication(configuration)
    try await application.runService()
}
