import Foundation

/// The association files that let the mobile apps open the platform's mailed links (password reset, e-mail
/// verification) instead of the browser: Apple's `/.well-known/apple-app-site-association` and Android's
/// `/.well-known/assetlinks.json`, both rendered once from configuration.
public struct AppLinks: Sendable, Equatable {
    /// One Android app: its package and the SHA-256 fingerprints of its signing certificates.
    public struct AndroidApp: Sendable, Equatable {
        public var package: String
        public var fingerprints: [String]

        /// Creates an entry.
        public init(package: String, fingerprints: [String]) {
            self.package = package
            self.fingerprints = fingerprints
        }
    }

    /// Apple app identifiers, `TEAMID.bundle.id`.
    public var appleAppIDs: [String]
    /// Android apps.
    public var androidApps: [AndroidApp]
    /// The link paths the apps open (Apple only; Android's association covers the host).
    public var paths: [String]

    /// The paths the platform mails links to.
    public static let defaultPaths = ["/reset-password", "/verify-email"]

    /// Creates the association from app ids and paths.
    public init(appleAppIDs: [String] = [], androidApps: [AndroidApp] = [], paths: [String] = Self.defaultPaths) {
        self.appleAppIDs = appleAppIDs
        self.androidApps = androidApps
        self.paths = paths
    }

    /// Parses `APP_LINKS_ANDROID_APPS`: `package=FP[|FP...]` entries separated by commas.
    static func androidApps(_ text: String) throws -> [AndroidApp] {
        try list(text).map { entry in
            let halves = entry.split(separator: "=", maxSplits: 1).map(String.init)
            let fingerprints = halves.count == 2 ? halves[1].split(separator: "|").map(String.init) : []
            guard halves.count == 2, !halves[0].isEmpty, !fingerprints.isEmpty,
                fingerprints.allSatisfy({
                    $0.range(of: #"^([0-9A-Fa-f]{2}:){31}[0-9A-Fa-f]{2}$"#, options: .regularExpression) != nil
                })
            else {
                throw GatewayConfigurationError(
                    "APP_LINKS_ANDROID_APPS must be package=SHA256:FINGERPRINT[|...] entries separated by commas")
            }
            return AndroidApp(package: halves[0], fingerprints: fingerprints.map { $0.uppercased() })
        }
    }

    /// Comma-separated values, trimmed, empty ones dropped.
    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// `apple-app-site-association` (served as `application/json`), or `nil` when no Apple app is configured.
    public var appleDocument: Data? {
        guard !appleAppIDs.isEmpty else { return nil }
        let components = paths.flatMap { path in [["/": path], ["/": path + "/*"]] }
        let document: [String: Any] = [
            "applinks": ["details": [["appIDs": appleAppIDs, "components": components]]],
            "webcredentials": ["apps": appleAppIDs],
        ]
        return try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// `assetlinks.json` (served as `application/json`), or `nil` when no Android app is configured.
    public var androidDocument: Data? {
        guard !androidApps.isEmpty else { return nil }
        let statements: [[String: Any]] = androidApps.map { app in
            [
                "relation": ["delegate_permission/common.handle_all_urls"],
                "target": [
                    "namespace": "android_app", "package_name": app.package,
                    "sha256_cert_fingerprints": app.fingerprints,
                ],
            ]
        }
        return try? JSONSerialization.data(withJSONObject: statements, options: [.sortedKeys, .withoutEscapingSlashes])
    }
}
