import MessagingService
import ServiceKit

try LogFormat.bootstrap()
let configuration = try MessagingConfiguration(reader: ServiceSettings.environmentReader())
let application = try await buildMessagingApplication(configuration)
try await application.runService()
