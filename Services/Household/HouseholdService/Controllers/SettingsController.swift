import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// My own settings, kept with my account whichever household I am in: when my month-end reminder comes and the
/// board's background.
struct SettingsController {
    let store: any HouseholdStore
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let settings = HouseholdPaths.households + "/settings"
        router.get(RouterPath(settings), use: show)
        router.patch(RouterPath(settings), use: change)
    }

    struct SettingsView: ResponseEncodable, Sendable {
        var reminderDaysBefore: Int
        var reminderHour: Int
        var boardBackground: String?

        init(_ settings: MemberSettings) {
            (reminderDaysBefore, reminderHour, boardBackground) = (
                settings.reminderDaysBefore, settings.reminderHour, settings.boardBackground
            )
        }
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> SettingsView {
        SettingsView(try await store.settings(of: context.user.userID))
    }

    struct ChangeRequest: Decodable {
        var reminderDaysBefore: Int?
        var reminderHour: Int?
        /// An empty string goes back to the app's default.
        var boardBackground: String?
    }

    /// Changes the given settings.
    @Sendable func change(_ request: Request, context: AuthenticatedContext) async throws -> SettingsView {
        let input = try await request.decode(as: ChangeRequest.self, context: context)
        try MemberSettings.checked(
            reminderDaysBefore: input.reminderDaysBefore, reminderHour: input.reminderHour,
            boardBackground: input.boardBackground)
        return SettingsView(
            try await store.changeSettings(
                of: context.user.userID, reminderDaysBefore: input.reminderDaysBefore,
                reminderHour: input.reminderHour, boardBackground: input.boardBackground, now: clock.now))
    }
}
