import MessagingService
import ServiceKit

let configuration = try MessagingConfiguration(reader: ServiceSettings.environmentReader())
let application = try await buildMessagingApplication(configuration)
try await application.runService()
