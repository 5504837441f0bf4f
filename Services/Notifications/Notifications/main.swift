import NotificationsService
import ServiceKit

let configuration = try NotificationsConfiguration(reader: ServiceSettings.environmentReader())
let application = try await buildNotificationsApplication(configuration)
try await application.runService()
