import NotificationsService
import ServiceKit

EventLoopExecutor.install()
await ExecutableMain.run("notifications") {
    try Observability.bootstrap(service: "notifications")
    let configuration = try NotificationsConfiguration(reader: ServiceSettings.environmentReader())
    let application = try await buildNotificationsApplication(configuration)
    try await application.runService()
}
