import ServiceKit
import SocialService

let configuration = try SocialConfiguration(reader: ServiceSettings.environmentReader())
let application = try await buildSocialApplication(configuration)
try await application.runService()
