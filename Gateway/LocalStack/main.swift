// The whole platform in one process for local development (see LocalStackKit): `swift run LocalStack`.
import Foundation
import LocalStackKit
import ServiceKit

EventLoopExecutor.install()

exit(await LocalStack.run(environment: ProcessInfo.processInfo.environment))
