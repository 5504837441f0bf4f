import Foundation
import IdentityService
import ServiceKit

EventLoopExecutor.install()
// `Identity roles grant|revoke|list ...`: the operator's command (RoleCommand), not the service.
if let status = await RoleCommand.runIfAsked(CommandLine.arguments) { exit(status) }
await ExecutableMain.run("identity") {
    try Observability.bootstrap(service: "identity")
    let configuration = try IdentityConfiguration(reader: ServiceSettings.environmentReader())
    let application = try await buildIdentityApplication(configuration)
    try await application.runService()
}
