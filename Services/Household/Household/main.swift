import HouseholdService
import ServiceKit

try LogFormat.bootstrap()
let configuration = try HouseholdConfiguration(reader: ServiceSettings.environmentReader())
let application = try await buildHouseholdApplication(configuration)
try await application.runService()
