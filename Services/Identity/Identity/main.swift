import IdentityService
import ServiceKit

try LogFormat.bootstrap()
let configuration = try IdentityConfiguration(reader: ServiceSettings.environmentReader())
let application = try await buildIdentityApplication(configuration)
try await application.runService()
