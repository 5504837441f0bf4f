import HabitsService
import ServiceKit

try LogFormat.bootstrap()
let configuration = try HabitsConfiguration(reader: ServiceSettings.environmentReader())
let application = try await buildHabitsApplication(configuration)
try await application.runService()
