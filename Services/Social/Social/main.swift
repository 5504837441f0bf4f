import ServiceKit
import SocialService

try LogFormat.bootstrap()
let configuration = try SocialConfiguration(reader: ServiceSettings.environmentReader())
let application = try await buildSocialApplication(configuration)
try await application.runService()
