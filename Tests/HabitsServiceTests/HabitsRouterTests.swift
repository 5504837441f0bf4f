import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import HabitsService

/// The habits routes on the service's own router, at 2027-01-15 08:00 UTC: ann follows bob, cat follows
/// nobody. The access token is the user's id (`AccessTokenVerifier.userIDTokens`).
struct HabitsRouterFixture {
    let store: any HabitsStore
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))

    init() throws {
        store = try SQLiteHabitsStore(.inMemory)
    }

    /// A fixture over `store` (running): one replica of several on a PostgreSQL database.
    init(store: any HabitsStore) {
        self.store = store
    }

    struct Follows: FollowingIDsLookup {
        func followingIDs(of userID: String, requestID: String?) async throws -> [String] {
            userID == "ann" ? ["bob"] : []
        }
    }

    func app() -> some ApplicationProtocol {
        let clock = clock.wallClock
        let chassis = ServiceChassis(
            settings: ServiceSettings(service: .habits, internalToken: "internal"), store: store,
            openAPIDocument: Data("{}".utf8), verifier: .userIDTokens(clock: clock))
        addHabitsRoutes(to: chassis.signedIn, store: store, graph: Follows(), clock: clock)
        return Application(router: chassis.router)
    }
}

extension TestClientProtocol {
    /// Creates a habit of `user`, due every day from 2027-01-01; returns its id.
    func habit(of user: String) async throws -> String {
        let created = try await send(
            .post, HabitsPaths.habits, as: user,
            json: #"{"title":"Run","weekdays":["mon","tue","wed","thu","fri","sat","sun"],"startDate":"2027-01-01"}"#)
        return try #require(created.object["id"] as? String)
    }
}

@Suite struct HabitsRouterTests {
    /// A 1x1 PNG's signature and a few bytes, base64.
    static let png = TestImages.png()

    @Test func anotherUsersHabitsAndEventsAreHiddenUnlessTheyApprovedMe() async throws {
        try await HabitsRouterFixture().app().test(.router) { client in
            let habit = try await client.habit(of: "bob")
            let event = try await client.send(
                .post, HabitsPaths.habits + "/\(habit)/events", as: "bob", json: #"{"date":"2027-01-10"}"#)
            let eventID = try #require(event.object["id"] as? String)
            #expect(try await client.send(.get, HabitsPaths.habits + "/\(habit)", as: "cat").status == .notFound)
            #expect(try await client.send(.get, HabitsPaths.events + "/\(eventID)", as: "cat").status == .notFound)
            #expect(try await client.send(.get, HabitsPaths.events + "/\(eventID)", as: "ann").status == .ok)
            let foreign = try await client.send(
                .post, HabitsPaths.habits + "/\(habit)/events", as: "cat", json: #"{"date":"2027-01-11"}"#)
            #expect(foreign.problem?.detail == "The habit was not found.")
            #expect(try await client.send(.delete, HabitsPaths.events + "/\(eventID)", as: "ann").status == .notFound)
        }
    }

    @Test(arguments: [
        (#"{"weekdays":["mon"]}"#, "invalid_title", "title: is required."),
        (
            #"{"title":"Run","weekdays":["monday"]}"#, "invalid_weekdays",
            "weekdays: use mon, tue, wed, thu, fri, sat and sun."
        ),
        (#"{"title":"Run","weekdays":[]}"#, "invalid_weekdays", "weekdays: choose at least one day."),
        (
            #"{"title":"Run","weekdays":["mon"],"startDate":"2027-1-011"}"#, "invalid_start_date",
            "startDate: must be a day as YYYY-MM-DD."
        ),
        (
            #"{"title":"Run","weekdays":["mon"],"startDate":"1999-12-31"}"#, "invalid_start_date",
            "startDate: must be from 2000-01-01 to a year from today."
        ),
    ])
    func aBadHabitFieldIsNamed(body: String, code: String, detail: String) async throws {
        try await HabitsRouterFixture().app().test(.router) { client in
            let answer = try await client.send(.post, HabitsPaths.habits, as: "ann", json: body)
            #expect(answer.status == .badRequest)
            #expect(answer.problem?.code == code)
            #expect(answer.problem?.detail == detail)
        }
    }

    @Test(arguments: [
        (#"{"date":"+027-01-10"}"#, 400, "invalid_date"), (#"{"date":"2027-01-16"}"#, 400, "event_in_future"),
        (#"{"date":"2026-12-31"}"#, 400, "event_before_start"),
        (#"{"comment":"\#(String(repeating: "x", count: 21))"}"#, 400, "invalid_comment"),
        (#"{"photo":"not base64!"}"#, 400, "invalid_photo"),
    ])
    func aBadEventIsRefusedNamingWhy(body: String, status: Int, code: String) async throws {
        try await HabitsRouterFixture().app().test(.router) { client in
            let habit = try await client.habit(of: "ann")
            let answer = try await client.send(.post, HabitsPaths.habits + "/\(habit)/events", as: "ann", json: body)
            #expect(Int(answer.status.code) == status)
            #expect(answer.problem?.code == code)
        }
    }

    @Test func anIdempotencyKeyFollowsThePlatformRule() async throws {
        try await HabitsRouterFixture().app().test(.router) { client in
            let habit = try await client.habit(of: "ann")
            let path = HabitsPaths.habits + "/\(habit)/events"
            let long = try await client.send(
                .post, path, as: "ann", json: "{}", headers: [IdempotencyKey.field: String(repeating: "k", count: 256)])
            #expect(long.problem?.code == "invalid_idempotency_key")
            let key = String(repeating: "k", count: 255)
            let first = try await client.send(.post, path, as: "ann", json: "{}", headers: [IdempotencyKey.field: key])
            let again = try await client.send(.post, path, as: "ann", json: "{}", headers: [IdempotencyKey.field: key])
            #expect(first.status == .created)
            #expect(again.status == .ok)
            #expect(first.object["id"] as? String == again.object["id"] as? String)
        }
    }

    /// One `Idempotency-Key` sent to two replicas at once (one PostgreSQL database): one event, created once (201),
    /// and every other answer the same event (200), whichever replica answered.
    @Test func oneKeySentToTwoReplicasAtOnceIsOneEvent() async throws {
        try await withHabitsStores(.postgres, replicas: 2) { stores in
            let replicas = stores.map { HabitsRouterFixture(store: $0).app() }
            try await replicas[0].test(.router) { first in
                try await replicas[1].test(.router) { second in
                    let habit = try await first.habit(of: "ann")
                    let path = HabitsPaths.habits + "/\(habit)/events"
                    let headers: HTTPFields = [
                        .authorization: "Bearer ann", .contentType: "application/json", IdempotencyKey.field: "once",
                    ]
                    // when both replicas are sent the same key at once
                    let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String).self) { group in
                        for index in 0..<12 {
                            group.addTask {
                                let response =
                                    index.isMultiple(of: 2)
                                    ? try await first.execute(
                                        uri: path, method: .post, headers: headers, body: ByteBuffer(string: "{}"))
                                    : try await second.execute(
                                        uri: path, method: .post, headers: headers, body: ByteBuffer(string: "{}"))
                                return (response.status, String(buffer: response.body))
                            }
                        }
                        return try await group.reduce(into: [(HTTPResponse.Status, String)]()) { $0.append($1) }
                    }
                    // then one event, created once, and one answer
                    #expect(answers.filter { $0.0 == .created }.count == 1)
                    #expect(answers.filter { $0.0 == .ok }.count == 11)
                    #expect(Set(answers.map(\.1)).count == 1, "\(Set(answers.map(\.1)))")
                }
            }
        }
    }

    @Test func anEventPhotoIsServedWithItsTagAndRevalidated() async throws {
        try await HabitsRouterFixture().app().test(.router) { client in
            let habit = try await client.habit(of: "bob")
            let event = try await client.send(
                .post, HabitsPaths.habits + "/\(habit)/events", as: "bob",
                json: #"{"photo":"\#(Self.png.base64EncodedString())"}"#)
            let path = HabitsPaths.events + "/\(try #require(event.object["id"] as? String))/photo"
            let tag = try await client.execute(uri: path, method: .get, headers: [.authorization: "Bearer ann"]) {
                response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(response.headers[.contentLength] == "\(Self.png.count)")
                #expect(response.headers[.cacheControl] == StoredBytes.cacheControl)
                #expect(response.headers[.eTag] == EntityTag(of: Self.png).description)
                return try #require(response.headers[.eTag])
            }
            try await client.execute(
                uri: path, method: .get, headers: [.authorization: "Bearer ann", .ifNoneMatch: tag]
            ) { #expect($0.status == .notModified) }
            #expect(try await client.send(.get, path, as: "cat").status == .notFound)
        }
    }

    @Test func statisticsNameABadQueryField() async throws {
        try await HabitsRouterFixture().app().test(.router) { client in
            let habit = try await client.habit(of: "ann")
            let weeks = try await client.send(.get, HabitsPaths.habits + "/\(habit)/statistics?weeks=0", as: "ann")
            #expect(weeks.problem?.code == "invalid_weeks")
            let from = try await client.send(
                .get, HabitsPaths.habits + "/\(habit)/statistics?from=2027-1-01", as: "ann")
            #expect(from.problem?.detail == "from: must be a day as YYYY-MM-DD.")
        }
    }
}

/// Every domain error answers with the status, code and detail clients have always received.
@Suite struct HabitsErrorProblemTests {
    @Test(
        arguments: [
            (
                HabitsError.invalidField("weekdays", "choose at least one day."), 400, "invalid_weekdays",
                "weekdays: choose at least one day."
            ),
            (.notFound("The event"), 404, "not_found", "The event was not found."),
            (.eventExists(day: "2027-01-10"), 409, "event_exists", "This habit already has an event on 2027-01-10."),
            (.eventInFuture, 400, "event_in_future", "You cannot record an event for a day that has not come."),
            (.eventBeforeStart(start: "2027-01-01"), 400, "event_before_start", "The habit starts on 2027-01-01."),
            (
                .eventNotDue(day: "2027-01-12", dueOn: ["mon", "wed"]), 400, "event_not_due",
                "The habit is not due on 2027-01-12 (it is due on mon, wed)."
            ),
        ] as [(HabitsError, Int, String, String)])
    func mapsToItsProblem(error: HabitsError, status: Int, code: String, detail: String) {
        let problem = error.problem
        #expect(problem.statusCode == status)
        #expect(problem.code == code)
        #expect(problem.detail == detail)
    }
}
