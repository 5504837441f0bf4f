import GeoService
import ServiceKit

try LogFormat.bootstrap()
let configuration = try GeoConfiguration(reader: ServiceSettings.environmentReader())
let application = try await buildGeoApplication(configuration)
try await application.runService()
