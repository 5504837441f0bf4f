import Foundation
import HabitsService
import PlatformKit
import ServiceKit
import SocialService
import TestSupport
import Testing

/// A stack with the social graph and the habits service, and three users.
struct HabitsWorld {
    let stack: TestStack
    let ann: TestUser, bob: TestUser, cat: TestUser
    let tokens = TokenBook()
    var api: APIClient { stack.gateway }

    /// Starts the stack; with `at`, the clock is first moved to that instant (RFC 3339).
    static func run(at instant: String? = nil, _ body: (HabitsWorld) async throws -> Void) async throws {
        // Services start in name order, habits before social: the social URL is known only afterwards.
        let social = LateServiceURL()
        try await withTestStack(services: [
            .social: { try await buildSocialApplication(SocialConfiguration(settings: $0)) },
            .habits: { settings in
                try await buildHabitsApplication(
                    HabitsConfiguration(
                        settings: settings,
                        followGraph: SocialGraphClient(address: .late { social.url }, token: settings.internalToken)))
            },
        ]) { stack in
            social.url = stack.serviceURLs[.social] ?? ""
            if let instant { stack.clock.advance(by: try date(instant).timeIntervalSince(stack.clock.now)) }
            try await body(
                HabitsWorld(
                    stack: stack, ann: try await stack.register("ann"), bob: try await stack.register("bob"),
                    cat: try await stack.register("cat")))
        }
    }

    static func date(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text))
    }

    /// The user's current access token.
    func token(_ user: TestUser) -> String { tokens.get(user.id) ?? user.accessToken }

    /// Moves the clock to `instant`; access tokens (15 minutes) would expire, so everyone signs in again.
    func move(to instant: String) async throws {
        stack.clock.advance(by: try Self.date(instant).timeIntervalSince(stack.clock.now))
        try await tokens.signIn([ann, bob, cat], via: api)
    }

    func setTimeZone(_ user: TestUser, _ zone: String) async throws {
        let response = try await api.send(.PUT, HabitsPaths.preferences, token: token(user), json: ["timeZone": zone])
        #expect(response.status == 200, "\(response.text)")
    }

    /// Creates a habit and returns its id.
    @discardableResult
    func habit(
        _ user: TestUser, _ title: String, weekdays: [String] = HabitBody.everyDay, startDate: String? = nil
    ) async throws -> String {
        let response = try await api.post(
            HabitsPaths.habits, token: token(user),
            json: HabitBody(title: title, reason: "because", weekdays: weekdays, startDate: startDate))
        #expect(response.status == 201, "\(response.text)")
        return try response.decode(WireHabit.self).id
    }

    /// Records an event and returns the response.
    func event(_ user: TestUser, _ habit: String, _ body: EventBody = EventBody()) async throws -> APIResponse {
        try await api.post("\(HabitsPaths.habits)/\(habit)/events", token: token(user), json: body)
    }

    /// Records an event that must succeed and returns its id.
    @discardableResult
    func recorded(_ user: TestUser, _ habit: String, _ body: EventBody = EventBody()) async throws -> String {
        let response = try await event(user, habit, body)
        #expect(response.status == 201, "\(response.text)")
        return try response.decode(WireHabitEvent.self).id
    }

    /// `follower` asks to follow `followee`, who approves.
    func follow(_ follower: TestUser, approvedBy followee: TestUser) async throws {
        let asked = try await api.post(
            SocialPaths.follows, token: token(follower), json: ["username": followee.username])
        #expect(asked.status == 201)
        let approved = try await api.post(
            "\(SocialPaths.followRequests)/\(follower.id)/approve", token: token(followee))
        #expect(approved.status == 204)
    }

    /// Today's list: every habit due today, done or not.
    func today(_ user: TestUser) async throws -> WireTodayList {
        let response = try await api.get(HabitsPaths.today, token: token(user))
        #expect(response.status == 200, "\(response.text)")
        return try response.decode(WireTodayList.self)
    }

    /// The titles of the habits due today and not done yet.
    func toDo(_ user: TestUser) async throws -> [String] {
        try await today(user).items.filter { !$0.doneToday }.map(\.title)
    }

    /// The habits of a list answer.
    func habits(_ response: APIResponse) throws -> [WireHabit] {
        try response.decode(WireHabitList.self).items
    }

    func titles(_ response: APIResponse) throws -> [String] {
        try habits(response).map(\.title)
    }

    /// The events of a history page.
    func events(_ response: APIResponse) throws -> [WireHabitEvent] {
        try response.decode(WirePage<WireHabitEvent>.self).items
    }
}

struct HabitBody: Encodable, Sendable {
    static let everyDay = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    var title: String? = nil
    var reason: String? = nil
    var weekdays: [String]? = nil
    var startDate: String? = nil
}

struct EventBody: Encodable, Sendable {
    struct Location: Encodable, Sendable {
        var latitude: Double
        var longitude: Double
    }
    var date: String? = nil
    var comment: String? = nil
    var location: Location? = nil
    var removeLocation: Bool? = nil
    var photo: String? = nil
}
