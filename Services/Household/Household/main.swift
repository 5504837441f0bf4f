import HouseholdService
import ServiceKit

let configuration = try HouseholdConfiguration(reader: ServiceSettings.environmentReader())
let application = try await buildHouseholdApplication(configuration)
try await application.runService()
