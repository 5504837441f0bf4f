import HabitsService
import ServiceKit

try Observability.bootstrap(service: "habits")
let configuration = try HabitsConfiguration(reader: ServiceSettings.environmentReader())
let application = try await buildHabitsApplication(configuration)
try await application.runService()
