import Foundation
import GatewayService
import TestSupport
import Testing

/// The app association files the gateway serves from configuration, so the apps open mailed links.
@Suite struct AppLinksTests {
    static let fingerprint = (0..<32).map { String(format: "%02X", $0) }.joined(separator: ":")

    @Test func servesBothAssociationFilesAsJSON() async throws {
        try await withTestStack(configureGateway: {
            $0.appLinks = AppLinks(
                appleAppIDs: ["ABCDE12345.com.example.wegroup"],
                androidApps: [.init(package: "com.example.wegroup", fingerprints: [Self.fingerprint])],
                paths: ["/reset-password", "/verify-email"])
        }) { stack in
            // when an app's operating system fetches them (without a token)
            let apple = try await stack.gateway.get("/.well-known/apple-app-site-association")
            let android = try await stack.gateway.get("/.well-known/assetlinks.json")
            // then Apple's names the app and the link paths
            #expect(apple.status == 200)
            #expect(apple.headers.first(name: "content-type") == "application/json")
            let details = try #require(
                ((apple.object["applinks"] as? [String: Any])?["details"] as? [[String: Any]])?.first)
            #expect(details["appIDs"] as? [String] == ["ABCDE12345.com.example.wegroup"])
            let components = try #require(details["components"] as? [[String: String]])
            #expect(components.contains(["/": "/reset-password"]))
            #expect(components.contains(["/": "/verify-email"]))
            // and Android's names the package and its signing certificate
            #expect(android.status == 200)
            #expect(android.headers.first(name: "content-type") == "application/json")
            let statements = try #require(try JSONSerialization.jsonObject(with: android.body) as? [[String: Any]])
            let target = try #require(statements.first?["target"] as? [String: Any])
            #expect(target["package_name"] as? String == "com.example.wegroup")
            #expect(target["sha256_cert_fingerprints"] as? [String] == [Self.fingerprint])
            #expect(statements.first?["relation"] as? [String] == ["delegate_permission/common.handle_all_urls"])
        }
    }

    @Test func withoutAppsTheFilesAreNotFound() async throws {
        try await withTestStack { stack in
            let apple = try await stack.gateway.get("/.well-known/apple-app-site-association")
            let android = try await stack.gateway.get("/.well-known/assetlinks.json")
            #expect(apple.status == 404 && android.status == 404)
        }
    }
}
