import HabitsService
import ServiceKit

EventLoopExecutor.install()
await ExecutableMain.run("habits") {
    try Observability.bootstrap(service: "habits")
    let configuration = try HabitsConfiguration(reader: ServiceSettings.environmentReader())
    let application = try await buildHabitsApplication(configuration)
    try await application.runService()
}
