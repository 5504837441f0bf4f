import Foundation
import TestSupport
import Testing

/// `PlatformClient` is generated from `Clients/PlatformClient/openapi.json`. This holds that file to the document
/// the gateway serves, so a service whose document changes fails here until `Clients/generate` has rewritten the
/// file and the client (`.ci/run` checks that `Generated/` is the generator's output for the file).
@Suite struct ClientDocumentTests {
    static let snapshot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Clients/PlatformClient/openapi.json")

    @Test func theClientIsGeneratedFromTheDocumentTheGatewayServes() async throws {
        try await ProductStack.run(notifications: true) { stack in
            let served = try await stack.gateway.get("/openapi.json")
            #expect(served.status == 200)
            if ProcessInfo.processInfo.environment["PLATFORM_CLIENT_UPDATE_DOCUMENT"] == "1" {
                let object = try JSONSerialization.jsonObject(with: served.body)
                let pretty = try JSONSerialization.data(
                    withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
                try (pretty + Data("\n".utf8)).write(to: Self.snapshot)
            }
            let generatedFrom = try #require(JSONValue(parsing: Data(contentsOf: Self.snapshot)))
            let current = try #require(JSONValue(parsing: served.body))
            #expect(
                generatedFrom == current,
                "Clients/PlatformClient/openapi.json is not the document the gateway serves: run Clients/generate")
        }
    }
}
