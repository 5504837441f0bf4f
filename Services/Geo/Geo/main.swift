import GeoService
import ServiceKit

let configuration = try GeoConfiguration(reader: ServiceSettings.environmentReader())
let application = try await buildGeoApplication(configuration)
try await application.runService()
