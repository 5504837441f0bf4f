import GeoService
import ServiceKit

EventLoopExecutor.install()
await ExecutableMain.run("geo") {
    try Observability.bootstrap(service: "geo")
    let configuration = try GeoConfiguration(reader: ServiceSettings.environmentReader())
    let application = try await buildGeoApplication(configuration)
    try await application.runService()
}
