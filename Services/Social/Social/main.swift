import ServiceKit
import SocialService

EventLoopExecutor.install()
await ExecutableMain.run("social") {
    try Observability.bootstrap(service: "social")
    let configuration = try SocialConfiguration(reader: ServiceSettings.environmentReader())
    let application = try await buildSocialApplication(configuration)
    try await application.runService()
}
