import NotificationsService
import ServiceKit

try LogFormat.bootstrap()
let configuration = try NotificationsConfiguration(reader: ServiceSettings.environmentReader())
let application = try await buildNotificationsApplication(configuration)
try await application.runService()
