import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Where and when a user's phone is pushed to: APNs device tokens (one per session) and push preferences.
struct DevicesController {
    let store: any NotificationsStore
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(NotificationsPaths.devices), use: list)
        router.put(RouterPath(NotificationsPaths.devices + "/:token"), use: register)
        router.delete(RouterPath(NotificationsPaths.devices + "/:token"), use: unregister)
        router.get(RouterPath(NotificationsPaths.preferences), use: preferences)
        router.put(RouterPath(NotificationsPaths.preferences), use: savePreferences)
    }

    struct DeviceView: ResponseEncodable {
        var token: String
        var environment: String
        var createdAt: Date

        init(_ row: DeviceRecord) {
            token = row.token
            environment = row.environment
            createdAt = row.createdAt
        }
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Page<DeviceView> {
        try request.page(of: try await store.devices(of: context.user.userID).map(DeviceView.init))
    }

    struct RegisterRequest: Decodable {
        var environment: String?
    }

    @Sendable func register(_ request: Request, context: AuthenticatedContext) async throws -> DeviceView {
        let token = try Self.deviceToken(try context.parameters.require("token"))
        // The body is optional: a bare PUT registers a production token.
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        let input =
            body.readableBytes == 0
            ? RegisterRequest() : try await request.decode(as: RegisterRequest.self, context: context)
        let environment = input.environment ?? "production"
        guard ["production", "sandbox"].contains(environment) else {
            throw Problem.invalidField("environment", "must be production or sandbox.")
        }
        let device = DeviceRecord(
            token: token, userId: context.user.userID, sessionId: context.user.sessionID, environment: environment,
            createdAt: clock.now)
        try await store.register(device)
        return DeviceView(device)
    }

    @Sendable func unregister(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let token = try Self.deviceToken(try context.parameters.require("token"))
        guard try await store.removeDevice(token, of: context.user.userID) else {
            throw NotificationsError.notFound("device")
        }
        return .noContent
    }

    /// An APNs device token: hexadecimal, 64 characters today, up to 200 to allow for Apple lengthening it.
    static func deviceToken(_ value: String) throws -> String {
        let token = value.lowercased()
        guard (64...200).contains(token.utf8.count), token.count % 2 == 0, token.allSatisfy(\.isHexDigit) else {
            throw Problem.invalidField("token", "must be an APNs device token in hexadecimal.")
        }
        return token
    }

    struct PreferencesBody: Codable, ResponseEncodable {
        struct Window: Codable {
            var start: String
            var end: String
            var timeZone: String
        }
        var disabledKinds: [String]
        var quietHours: Window?
    }

    @Sendable func preferences(_ request: Request, context: AuthenticatedContext) async throws -> PreferencesBody {
        Self.body(try await store.preferences(of: context.user.userID))
    }

    @Sendable func savePreferences(_ request: Request, context: AuthenticatedContext) async throws -> PreferencesBody {
        let input = try await request.decode(as: PreferencesBody.self, context: context)
        guard input.disabledKinds.count <= 100 else {
            throw Problem.invalidField("disabledKinds", "must name at most 100 kinds.")
        }
        var preferences = Preferences(
            disabledKinds: Set(
                try input.disabledKinds.map { try NoticeValidation.dottedName($0, field: "disabledKinds") }))
        if let window = input.quietHours {
            preferences.quietHours = try QuietHours(start: window.start, end: window.end, timeZone: window.timeZone)
        }
        try await store.save(preferences, of: context.user.userID, now: clock.now)
        return Self.body(preferences)
    }

    static func body(_ preferences: Preferences) -> PreferencesBody {
        PreferencesBody(
            disabledKinds: preferences.disabledKinds.sorted(),
            quietHours: preferences.quietHours.map {
                .init(start: $0.start, end: $0.end, timeZone: $0.timeZone.identifier)
            })
    }
}
