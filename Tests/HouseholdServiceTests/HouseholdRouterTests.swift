import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PlatformKit
import ServiceKit
import Synchronization
import TestSupport
import Testing

@testable import HouseholdService

/// The household routes on the service's own router: ann and bob share household `h`, cat is an outsider.
/// The access token is the user's id (`AccessTokenVerifier.userIDTokens`).
struct HouseholdRouterFixture {
    let location: DatabaseLocation
    let store: any HouseholdStore
    let clock = ManualClock()

    /// The fixture on a fresh database of `kind` (SQLite in memory by default).
    init(_ kind: StoreKind = .sqlite) async throws {
        location = kind == .sqlite ? .inMemory : try await kind.freshLocation()
        store = try await openHouseholdStore(location, logger: Logger(label: "test.household"))
        let now = clock.now
        try await seed { store in
            try await store.createHousehold(
                HouseholdRecord(
                    id: "h", name: "Flat", timeZone: "UTC", createdBy: "ann", noteLifetimeDays: 7, createdAt: now))
            _ = try await store.invite(
                InvitationRecord(
                    id: "i", householdId: "h", inviterId: "ann", inviteeId: "bob", status: "pending", createdAt: now))
            _ = try await store.respond(to: "i", as: "bob", accept: true, now: now)
        }
    }

    /// Runs `body` on the fixture's database before the app runs: on the store itself, or on PostgreSQL through a
    /// second store running meanwhile (the fixture's own pool runs with the app, once).
    func seed(_ body: (any HouseholdStore) async throws -> Void) async throws {
        guard !store.services.isEmpty else { return try await body(store) }
        let other = try await openHouseholdStore(location, logger: Logger(label: "test.household.seed"))
        try await withRunning(other) { try await body(other) }
    }

    func app(
        choreLists: KeptAnswers<ChoresController.ChoreList> = KeptAnswers(), notices: any NoticeSink = NoNotices()
    ) -> some ApplicationProtocol {
        Self.app(store: store, clock: clock, choreLists: choreLists, notices: notices)
    }

    /// The routes on `store`, as one replica of the service serves them.
    static func app(
        store: any HouseholdStore, clock: ManualClock,
        choreLists: KeptAnswers<ChoresController.ChoreList> = KeptAnswers(), notices: any NoticeSink = NoNotices()
    ) -> some ApplicationProtocol {
        let clock = clock.wallClock
        let chassis = ServiceChassis(
            settings: ServiceSettings(service: .household, internalToken: "internal"), store: store,
            openAPIDocument: Data("{}".utf8), verifier: .userIDTokens(clock: clock))
        addHouseholdRoutes(
            to: chassis.signedIn, store: store, directory: NoDirectory(), social: NoBlocks(), notices: notices,
            clock: clock, choreLists: choreLists)
        return Application(router: chassis.router, services: store.services)
    }

    struct NoDirectory: UserDirectory {
        func user(username: String) async throws -> DirectoryUser? { nil }
        func users(ids: [String]) async throws -> [DirectoryUser] { [] }
    }

    struct NoBlocks: SocialRelationshipLookup {
        func relationship(_ a: String, _ b: String) async throws -> SocialFacts {
            SocialFacts(friends: false, blocked: false)
        }
    }

    struct NoNotices: NoticeSink {
        func publish(_ event: Notice) async {}
        func publish(_ event: RealtimeEvent) async {}
    }
}

@Suite struct HouseholdRouterTests {
    static let household = "/v1/households/h"

    /// Without an outbox (a sink a test injects, the log) each change's notices and live events are handed to the
    /// sink once it committed (the change is visible by then), and a refused change hands it nothing.
    @Test func withoutAnOutboxTheSinkIsHandedAChangesNoticesOnceItCommitted() async throws {
        let fixture = try await HouseholdRouterFixture()
        let store = fixture.store
        let sink = RecordingNoticeSink {
            let groceries = (try? await store.communalGroceries(of: "h", asMember: "ann").count) ?? -1
            let notes = (try? await store.notes(of: "h", asMember: "ann", now: .distantPast).count) ?? -1
            return "\(groceries) groceries, \(notes) notes"
        }
        try await fixture.app(notices: sink).test(.router) { client async throws in
            // when cat (no member) adds an item and a note, then ann adds an item and bob a note
            for (path, body) in [("/groceries", #"{"name":"Milk","communal":true}"#), ("/notes", #"{"text":"hi"}"#)] {
                #expect(try await client.send(.post, Self.household + path, as: "cat", json: body).status == .notFound)
            }
            #expect(sink.posted.isEmpty)
            let milk = #"{"name":"Milk","communal":true}"#
            #expect(
                try await client.send(.post, Self.household + "/groceries", as: "ann", json: milk).status == .created)
            let note = #"{"text":"hi"}"#
            #expect(try await client.send(.post, Self.household + "/notes", as: "bob", json: note).status == .created)
        }
        // then the sink got the item's event, then the note's notice to ann and event, each after its commit
        #expect(
            sink.posted == [
                PostedEntry(recipientIds: ["ann", "bob"], type: "household.grocery.created"),
                PostedEntry(recipientIds: ["ann"], kind: "household.note_posted"),
                PostedEntry(recipientIds: ["ann", "bob"], type: "household.note.created"),
            ])
        #expect(sink.observed == ["1 groceries, 0 notes", "1 groceries, 1 notes", "1 groceries, 1 notes"])
    }

    @Test(
        arguments: [
            (HTTPRequest.Method.get, "/bills", nil),
            (.post, "/bills", #"{"description":"x","amount":100,"currency":"EUR","split":{"kind":"equal"}}"#),
            (.get, "/balances", nil), (.post, "/payments", #"{"to":"ann","amount":100,"currency":"EUR"}"#),
            (.get, "/notes", nil), (.post, "/notes", #"{"text":"hi"}"#), (.get, "/chores", nil),
            (.post, "/chores", #"{"name":"Dishes"}"#), (.get, "/completions", nil), (.get, "/statistics", nil),
            (.get, "/groceries", nil), (.post, "/groceries", #"{"name":"Milk"}"#), (.get, "/trips", nil),
            (.post, "/reminders/all", nil), (.get, "/payment-handles", nil), (.get, "/activity", nil), (.get, "", nil),
        ] as [(HTTPRequest.Method, String, String?)])
    func anOutsiderFindsNoHousehold(method: HTTPRequest.Method, path: String, body: String?) async throws {
        try await HouseholdRouterFixture().app().test(.router) { client in
            let answer = try await client.send(method, Self.household + path, as: "cat", json: body)
            #expect(answer.status == .notFound)
            #expect(answer.problem?.detail == "The household was not found.")
        }
    }

    @Test(arguments: [
        (
            "/bills", #"{"description":"x","amount":0,"currency":"EUR","split":{"kind":"equal"}}"#, "invalid_amount",
            "amount: must be a positive amount in minor units, at most 1,000,000.00."
        ),
        (
            "/bills", #"{"description":"x","amount":100,"currency":"EURO","split":{"kind":"equal"}}"#,
            "invalid_currency", "currency: must be an ISO 4217 code such as EUR."
        ),
        (
            "/bills", #"{"description":"x","amount":100,"currency":"EUR","split":{"kind":"thirds"}}"#,
            "invalid_split.kind", "split.kind: must be equal, exact, percentages or shares."
        ),
        (
            "/bills",
            #"{"description":"x","amount":100,"currency":"EUR","split":{"kind":"exact","amounts":{"ann":50,"bob":40}}}"#,
            "invalid_split.amounts", "split.amounts: must add up to the bill's amount exactly."
        ),
        (
            "/bills",
            #"{"description":"x","amount":100,"currency":"EUR","split":{"kind":"equal","among":["ann","cat"]}}"#,
            "invalid_members", "members: everyone named must be a member of the household."
        ),
        (
            "/payments", #"{"to":"bob","amount":100000001,"currency":"EUR"}"#, "invalid_amount",
            "amount: must be a positive amount in minor units."
        ),
        ("/payments", #"{"to":"ann","amount":100,"currency":"EUR"}"#, "invalid_to", "to: must be another member."),
        (
            "/notes", #"{"text":"hi","expiresInDays":91}"#, "invalid_expires_in_days",
            "expiresInDays: must be from 1 to 90."
        ),
        (
            "/notes", #"{"text":"hi","expiresInHours":2161}"#, "invalid_expires_in_hours",
            "expiresInHours: must be from 1 to 2160."
        ),
        (
            "/notes", #"{"text":"hi","expiresInHours":0}"#, "invalid_expires_in_hours",
            "expiresInHours: must be from 1 to 2160."
        ),
        (
            "/notes", #"{"text":"hi","expiresInHours":5,"expiresInDays":1}"#, "invalid_expires_in_hours",
            "expiresInHours: must not be given with expiresInDays."
        ),
        ("/chores", #"{"name":"Dishes","points":101}"#, "invalid_points", "points: must be from 0 to 100."),
        (
            "/chores", #"{"name":"Dishes","startOn":"2000-01-01"}"#, "invalid_start_on",
            "startOn: must not be in the past."
        ),
        ("/groceries", #"{"name":"Milk","quantity":0}"#, "invalid_quantity", "quantity: must be from 1 to 999."),
        (
            "/trips", #"{"total":100,"currency":"EUR","items":[]}"#, "invalid_items",
            "items: must pick from 1 to 200 items of the household list."
        ),
    ])
    func aBadFieldIsNamed(path: String, body: String, code: String, detail: String) async throws {
        try await HouseholdRouterFixture().app().test(.router) { client in
            let answer = try await client.send(.post, Self.household + path, as: "ann", json: body)
            #expect(answer.status == .badRequest)
            #expect(answer.problem?.code == code)
            #expect(answer.problem?.detail == detail)
        }
    }

    @Test func anUnknownChoreStatusIsNamed() async throws {
        try await HouseholdRouterFixture().app().test(.router) { client in
            let answer = try await client.send(.get, Self.household + "/chores?status=finished", as: "ann")
            #expect(answer.status == .badRequest)
            #expect(answer.problem?.code == "invalid_status")
            #expect(answer.problem?.detail == "status: must be pending, done or all.")
        }
    }

    @Test(arguments: ["/statistics?from=2024-1-011", "/completions?to=%2B023-01-01"])
    func aBadDayIsNamed(path: String) async throws {
        try await HouseholdRouterFixture().app().test(.router) { client in
            let answer = try await client.send(.get, Self.household + path, as: "ann")
            #expect(answer.status == .badRequest)
            #expect(answer.problem?.code.hasPrefix("invalid_") == true)
            #expect(answer.problem?.detail?.hasSuffix("must be a day as YYYY-MM-DD.") == true)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anIdempotencyKeyFollowsThePlatformRule(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            let bill = #"{"description":"x","amount":100,"currency":"EUR","split":{"kind":"equal"}}"#
            let long = String(repeating: "k", count: 256)
            let refused = try await client.send(
                .post, Self.household + "/bills", as: "ann", json: bill, headers: [IdempotencyKey.field: long])
            #expect(refused.problem?.code == "invalid_idempotency_key")
            let key = String(repeating: "k", count: 255)
            let first = try await client.send(
                .post, Self.household + "/bills", as: "ann", json: bill, headers: [IdempotencyKey.field: key])
            let again = try await client.send(
                .post, Self.household + "/bills", as: "ann", json: bill, headers: [IdempotencyKey.field: key])
            #expect(first.status == .created)
            #expect(again.status == .ok)
        }
    }

    /// Two replicas on one PostgreSQL database each receive the same bill with one `Idempotency-Key`, four times at
    /// once: one bill exists, the first answer is 201 and every other is 200 with that same bill.
    @Test func oneIdempotencyKeyOnTwoReplicasMakesOneBill() async throws {
        let fixture = try await HouseholdRouterFixture(.postgres)
        let replica = try await openHouseholdStore(fixture.location, logger: Logger(label: "test.household.replica"))
        let bill = #"{"description":"Rent","amount":1000,"currency":"EUR","split":{"kind":"equal"}}"#
        try await fixture.app().test(.router) { first in
            try await HouseholdRouterFixture.app(store: replica, clock: fixture.clock).test(.router) { second in
                let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                    for index in 0..<8 {
                        group.addTask {
                            let client: any TestClientProtocol = index % 2 == 0 ? first : second
                            let answer = try await client.send(
                                .post, Self.household + "/bills", as: "ann", json: bill,
                                headers: [IdempotencyKey.field: "rent-2026-11"])
                            return (answer.status, answer.object["id"] as? String)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(answers.filter { $0.0 == .created }.count == 1)
                #expect(answers.filter { $0.0 == .ok }.count == 7)
                #expect(Set(answers.map(\.1)).count == 1 && answers[0].1 != nil)
                let listed = try await second.send(.get, Self.household + "/bills", as: "bob")
                #expect((listed.object["items"] as? [Any])?.count == 1)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anotherMemberMayNotDoWhatIsTheCreatorsOrAuthors(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            let removed = try await client.send(.delete, Self.household + "/members/ann", as: "bob")
            #expect(removed.status == .forbidden)
            #expect(removed.problem?.code == "not_household_admin")
            let note = try await client.send(.post, Self.household + "/notes", as: "ann", json: #"{"text":"hi"}"#)
            let id = try #require(note.object["id"] as? String)
            let deleted = try await client.send(.delete, Self.household + "/notes/\(id)", as: "bob")
            #expect(deleted.problem?.code == "not_note_author")
            #expect(deleted.problem?.detail == "Only the note's author can delete it.")
            for pinned in [true, false] {
                let pin = try await client.send(
                    .put, Self.household + "/notes/\(id)/pin", as: "bob", json: #"{"pinned":\#(pinned)}"#)
                #expect(pin.status == .forbidden)
                #expect(pin.problem?.detail == "Only the note's author can \(pinned ? "pin" : "unpin") it.")
            }
            let own = try await client.send(
                .put, Self.household + "/notes/\(id)/pin", as: "ann", json: #"{"pinned":true}"#)
            #expect(own.object["pinned"] as? Bool == true)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aBillImageIsServedWithItsTagAndRevalidated(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            let created = try await client.send(
                .post, Self.household + "/bills", as: "ann",
                json: #"{"description":"x","amount":100,"currency":"EUR","split":{"kind":"equal"}}"#)
            let bill = try #require(created.object["id"] as? String)
            let png = [UInt8](TestImages.png())
            let path = Self.household + "/bills/\(bill)/image"
            try await client.execute(
                uri: path, method: .put, headers: [.authorization: "Bearer bob"], body: ByteBuffer(bytes: png)
            ) { #expect($0.status == .noContent) }
            let tag = try await client.execute(uri: path, method: .get, headers: [.authorization: "Bearer ann"]) {
                response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLength] == "\(png.count)")
                #expect(response.headers[.cacheControl] == StoredBytes.cacheControl)
                #expect(response.headers[.eTag] == EntityTag(of: png).description)
                return try #require(response.headers[.eTag])
            }
            try await client.execute(
                uri: path, method: .get, headers: [.authorization: "Bearer ann", .ifNoneMatch: tag]
            ) { #expect($0.status == .notModified) }
            let outsider = try await client.send(.get, path, as: "cat")
            #expect(outsider.status == .notFound)
        }
    }
}

/// Every domain error answers with the status, code and detail clients have always received.
@Suite struct HouseholdErrorProblemTests {
    static let next = Date(timeIntervalSince1970: 1_800_000_100)

    @Test(
        arguments: [
            (
                HouseholdError.invalidField("split.shares", "must give each member a whole number of shares."), 400,
                "invalid_split.shares", "split.shares: must give each member a whole number of shares."
            ),
            (.notFound("The bill"), 404, "not_found", "The bill was not found."),
            (.alreadyInHousehold(.you), 409, "already_in_household", "You are already in a household; leave it first."),
            (.alreadyInHousehold(.youHere), 409, "already_in_household", "You are already in this household."),
            (.alreadyInvited, 409, "already_invited", "That user already has an invitation."),
            (
                .invitationNotPending(status: "declined"), 409, "invitation_not_pending",
                "The invitation was already declined."
            ),
            (.notHouseholdAdmin, 403, "not_household_admin", "Only the household's creator can remove members."),
            (.billOfTrip, 409, "bill_of_trip", "This bill is the cost of a shopping trip; edit the trip instead."),
            (
                .notTripShopper(action: "edit the trip"), 403, "not_trip_shopper",
                "Only the member who went shopping can edit the trip."
            ),
            (
                .notNoteAuthor(action: "change its photo"), 403, "not_note_author",
                "Only the note's author can change its photo."
            ),
            (.notItemOwner, 403, "not_item_owner", "Only its owner can change a personal item."),
            (.groceryListFull, 409, "grocery_list_full", "The household's lists hold at most 1,000 items."),
            (.choreDone, 409, "chore_done", "This one-off chore was already completed."),
            (.nothingOwed(.byThatMember), 409, "nothing_owed", "That member does not owe you anything."),
            (.nothingOwed(.byAnybody), 409, "nothing_owed", "Nobody owes you anything."),
            (.nothingOwed(.toThatMember), 409, "nothing_owed", "You do not owe that member anything."),
            (
                .noPaymentHandle(provider: "venmo"), 409, "no_payment_handle",
                "That member has not added a venmo handle."
            ),
            (
                .reminderTooSoon(next: next, now: next.addingTimeInterval(-99.5)), 429, "reminder_too_soon",
                "You can remind a member once every 24 hours; try again after 2027-01-15T08:01:40Z."
            ),
        ] as [(HouseholdError, Int, String, String)])
    func mapsToItsProblem(error: HouseholdError, status: Int, code: String, detail: String) {
        let problem = error.problem
        #expect(problem.statusCode == status)
        #expect(problem.code == code)
        #expect(problem.detail == detail)
    }

    @Test func aTooEarlyReminderSaysWhenToRetry() {
        let problem = HouseholdError.reminderTooSoon(next: Self.next, now: Self.next.addingTimeInterval(-99.5)).problem
        #expect(problem.retryAfter == 100)
    }
}

@Suite struct HouseholdOverpaymentTests {
    static let household = "/v1/households/h"

    /// bob owes ann half of a 10.00 bill: he may pay up to 5.00, no more, and nothing once settled; ann, owed
    /// rather than owing, may pay bob nothing. The refusal carries what is owed (`owed`), and balances stay put.
    @Test(arguments: StoreKind.allCases)
    func aPaymentMayNotExceedWhatIsOwed(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            let bill = #"{"description":"Rent","amount":1000,"currency":"EUR","split":{"kind":"equal"}}"#
            let billed = try await client.send(.post, Self.household + "/bills", as: "ann", json: bill)
            #expect(billed.status == .created)
            let tooMuch = try await client.send(
                .post, Self.household + "/payments", as: "bob", json: #"{"to":"ann","amount":501,"currency":"EUR"}"#)
            #expect(tooMuch.status == .conflict)
            #expect(tooMuch.problem?.code == "overpayment")
            #expect(tooMuch.problem?.owed == 500)
            #expect(
                tooMuch.problem?.detail
                    == "You can pay that member at most 5.00 EUR: the smaller of what you owe and what they are owed.")
            let otherCurrency = try await client.send(
                .post, Self.household + "/payments", as: "bob", json: #"{"to":"ann","amount":1,"currency":"USD"}"#)
            #expect(otherCurrency.problem?.code == "overpayment")
            #expect(otherCurrency.problem?.owed == 0)
            let backwards = try await client.send(
                .post, Self.household + "/payments", as: "ann", json: #"{"to":"bob","amount":1,"currency":"EUR"}"#)
            #expect(backwards.status == .conflict)
            #expect(backwards.problem?.owed == 0)
            let exact = try await client.send(
                .post, Self.household + "/payments", as: "bob", json: #"{"to":"ann","amount":500,"currency":"EUR"}"#)
            #expect(exact.status == .created)
            let again = try await client.send(
                .post, Self.household + "/payments", as: "bob", json: #"{"to":"ann","amount":1,"currency":"EUR"}"#)
            #expect(again.status == .conflict)
            #expect(again.problem?.owed == 0)
        }
    }

    /// Four members whose settle-up plan pairs amy with ben and eve with dan: amy may still pay dan, who is owed
    /// money, up to the smaller of what she owes (5.00) and what he is owed (3.00); paying someone owed nothing, or
    /// paying while owing nothing, is refused; balances sum to zero throughout.
    @Test(arguments: StoreKind.allCases)
    func aDebtorMayPayAnyCreditorUpToTheSmallerAmount(kind: StoreKind) async throws {
        let fixture = try await HouseholdRouterFixture(kind)
        let now = fixture.clock.now
        try await fixture.seed { store in
            try await store.createHousehold(
                HouseholdRecord(
                    id: "h4", name: "Big flat", timeZone: "UTC", createdBy: "amy", noteLifetimeDays: 7, createdAt: now))
            for member in ["ben", "dan", "eve"] {
                _ = try await store.invite(
                    InvitationRecord(
                        id: "i-\(member)", householdId: "h4", inviterId: "amy", inviteeId: member, status: "pending",
                        createdAt: now))
                _ = try await store.respond(to: "i-\(member)", as: member, accept: true, now: now)
            }
        }
        let flat = "/v1/households/h4"
        try await fixture.app().test(.router) { client in
            func pay(_ from: String, _ to: String, _ amount: Int) async throws -> (
                status: HTTPResponse.Status, problem: Problem?, object: [String: Any]
            ) {
                try await client.send(
                    .post, flat + "/payments", as: from, json: #"{"to":"\#(to)","amount":\#(amount),"currency":"EUR"}"#)
            }
            func net() async throws -> [String: Int] {
                (try await fixture.store.balances(of: "h4", asMember: "amy").net["EUR"] ?? [:]).filter {
                    $0.value != 0
                }
            }
            let rent =
                #"{"description":"Rent","amount":1000,"currency":"EUR","split":{"kind":"equal","among":["amy","ben"]}}"#
            #expect(try await client.send(.post, flat + "/bills", as: "ben", json: rent).status == .created)
            let food =
                #"{"description":"Food","amount":600,"currency":"EUR","split":{"kind":"equal","among":["dan","eve"]}}"#
            #expect(try await client.send(.post, flat + "/bills", as: "dan", json: food).status == .created)
            #expect(try await net() == ["amy": -500, "ben": 500, "dan": 300, "eve": -300])
            let plan = SettleUp.plan(try await net())
            #expect(!plan.contains { $0.from == "amy" && $0.to == "dan" }, "the plan does not pair amy with dan")

            let tooMuch = try await pay("amy", "dan", 301)
            #expect(tooMuch.status == .conflict)
            #expect(tooMuch.problem?.code == "overpayment")
            #expect(tooMuch.problem?.owed == 300)
            #expect(
                tooMuch.problem?.detail
                    == "You can pay that member at most 3.00 EUR: the smaller of what you owe and what they are owed.")
            #expect(try await pay("amy", "dan", 300).status == .created)
            #expect(try await net() == ["amy": -200, "ben": 500, "eve": -300])

            let owedNothing = try await pay("amy", "dan", 1)
            #expect(owedNothing.problem?.code == "overpayment")
            #expect(owedNothing.problem?.owed == 0)
            #expect(owedNothing.problem?.detail == "That member is not owed anything in EUR.")
            let owesNothing = try await pay("ben", "eve", 1)
            #expect(owesNothing.problem?.code == "overpayment")
            #expect(owesNothing.problem?.detail == "You do not owe anything in EUR, so there is nothing to pay.")

            #expect(try await pay("eve", "ben", 300).status == .created)
            #expect(try await pay("amy", "ben", 200).status == .created)
            #expect(try await net().isEmpty, "everyone is settled")
        }
    }

    @Test func paymentLimitsFollowTheTwoBalances() {
        #expect(PaymentRule.limit(payerNet: -500, payeeNet: 300) == .atMost(300))
        #expect(PaymentRule.limit(payerNet: -200, payeeNet: 900) == .atMost(200))
        #expect(PaymentRule.limit(payerNet: 0, payeeNet: 900) == .payerOwesNothing)
        #expect(PaymentRule.limit(payerNet: 100, payeeNet: 900) == .payerOwesNothing)
        #expect(PaymentRule.limit(payerNet: -100, payeeNet: 0) == .payeeIsOwedNothing)
        #expect(PaymentRule.limit(payerNet: -100, payeeNet: -50) == .payeeIsOwedNothing)
    }

    /// The payee's notice names the payer and the amount; an unknown name falls back to "A roommate".
    @Test func thePaymentNoticeNamesThePayerAndTheAmount() {
        #expect(BillsController.paidNotice(payer: "Sam", amount: 1_250, currency: "EUR") == "Sam paid you 12.50 EUR.")
        #expect(BillsController.paidNotice(payer: nil, amount: 500, currency: "JPY") == "A roommate paid you 500 JPY.")
        #expect(BillsController.paidNotice(payer: "", amount: 5, currency: "EUR") == "A roommate paid you 0.05 EUR.")
    }

    /// Suggestions: prefix any case, most used first, LIKE wildcards in the prefix match themselves; bounded.
    @Test(arguments: StoreKind.allCases)
    func grocerySuggestionsMatchAPrefixMostUsedFirst(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            for (user, name) in [("ann", "Milk"), ("bob", "milk"), ("bob", "Mints"), ("ann", "5% juice")] {
                let added = try await client.send(
                    .post, Self.household + "/groceries", as: user, json: #"{"name":"\#(name)"}"#)
                #expect(added.status == .created)
            }
            let found = try await client.send(.get, Self.household + "/groceries/suggestions?prefix=mI", as: "ann")
            let items = try #require(found.object["items"] as? [[String: Any]])
            #expect(items.map { $0["name"] as? String } == ["Milk", "Mints"])
            #expect(items.map { $0["uses"] as? Int } == [2, 1])
            let percent = try await client.send(.get, Self.household + "/groceries/suggestions?prefix=5%25", as: "ann")
            #expect((percent.object["items"] as? [Any])?.count == 1)
            let wildcard = try await client.send(.get, Self.household + "/groceries/suggestions?prefix=%25", as: "ann")
            #expect((wildcard.object["items"] as? [Any])?.count == 0)
            let long = String(repeating: "m", count: 61)
            let tooLong = try await client.send(
                .get, Self.household + "/groceries/suggestions?prefix=\(long)", as: "ann")
            #expect(tooLong.problem?.code == "invalid_prefix")
            let outsider = try await client.send(.get, Self.household + "/groceries/suggestions", as: "cat")
            #expect(outsider.status == .notFound)
        }
    }

    /// bob leaves owed 5.00 by ann: both still settle (ann pays him, he reads the balances), he reads nothing
    /// else, overpaying is still refused, and once settled he is an outsider again.
    @Test(arguments: StoreKind.allCases)
    func aFormerMemberWithABalanceStillSettles(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            let bill = #"{"description":"Rent","amount":1000,"currency":"EUR","split":{"kind":"equal"}}"#
            #expect(try await client.send(.post, Self.household + "/bills", as: "bob", json: bill).status == .created)
            let left = try await client.send(.post, Self.household + "/leave", as: "bob")
            #expect(left.status == .noContent)
            let balances = try await client.decoded(WireBalances.self, .get, Self.household + "/balances", as: "bob")
            #expect(balances.currencies.first?.mine.net == 500)
            #expect(try await client.send(.get, Self.household + "/notes", as: "bob").status == .notFound)
            #expect(try await client.send(.get, Self.household + "/balances", as: "cat").status == .notFound)
            let bobPays = try await client.send(
                .post, Self.household + "/payments", as: "bob", json: #"{"to":"ann","amount":1,"currency":"EUR"}"#)
            #expect(bobPays.problem?.code == "overpayment")
            let annPays = try await client.send(
                .post, Self.household + "/payments", as: "ann", json: #"{"to":"bob","amount":500,"currency":"EUR"}"#)
            #expect(annPays.status == .created)
            #expect(try await client.send(.get, Self.household + "/balances", as: "bob").status == .notFound)
        }
    }
}

/// The chore list is answered from the kept lists while nothing in the household changed, and shows every kind of
/// change at once; an outsider still finds no household.
@Suite struct KeptChoreListTests {
    let choreLists = KeptAnswers<ChoresController.ChoreList>()

    struct Listed: Decodable, Equatable {
        struct Chore: Decodable, Equatable {
            var id: String
            var name: String
            var nextDue: String?
            var overdue: Bool
            var assigneeId: String?
        }
        var items: [Chore]
    }

    /// The list as `user` reads it, checked against the same list read past the kept ones (a window of 99, which
    /// no other read asks for, read at each revision for the first time).
    func list(_ client: some TestClientProtocol, as user: String = "bob") async throws -> [Listed.Chore] {
        func read(_ query: String) async throws -> Data {
            try await client.execute(
                uri: HouseholdRouterTests.household + "/chores" + query, method: .get,
                headers: [.authorization: "Bearer \(user)"]
            ) { response in
                #expect(response.status == .ok)
                return Data(response.body.readableBytesView)
            }
        }
        let listed = try await read("")
        #expect(try await read("?limit=99") == listed)
        return try JSONDecoder().decode(Listed.self, from: listed).items
    }

    @Test(arguments: StoreKind.allCases)
    func theChoreListIsKeptOnlyWhileNothingInTheHouseholdChanged(kind: StoreKind) async throws {
        let fixture = try await HouseholdRouterFixture(kind)
        try await fixture.app(choreLists: choreLists).test(.router) { client in
            let chores = HouseholdRouterTests.household + "/chores"
            let bins = try #require(
                try await client.send(
                    .post, chores, as: "ann", json: #"{"name":"Bins","schedule":{"kind":"everyDays","every":2}}"#
                )
                .object["id"] as? String)
            _ = try await client.send(.post, chores, as: "ann", json: #"{"name":"Dishes"}"#)
            let first = try await list(client)
            #expect(first.map(\.name) == ["Bins", "Dishes"])
            let hits = choreLists.hits
            #expect(try await list(client, as: "ann") == first)
            #expect(choreLists.hits == hits + 2)
            #expect(try await client.send(.get, chores, as: "cat").status == .notFound)

            #expect(
                try await client.send(.patch, chores + "/\(bins)", as: "ann", json: #"{"name":"Recycling"}"#).status
                    == .ok)
            #expect(try await list(client).map(\.name) == ["Dishes", "Recycling"])
            let due = try #require(try await list(client).first { $0.id == bins }?.nextDue)
            #expect(
                try await client.send(.post, chores + "/\(bins)/completions", as: "bob", json: "{}").status == .created)
            #expect(try await list(client).first { $0.id == bins }?.nextDue != due)
            // A new day: nothing in the household changed, but what is overdue did.
            #expect(try await list(client).allSatisfy { !$0.overdue })
            fixture.clock.advance(by: 5 * 86_400)
            #expect(try await list(client).allSatisfy(\.overdue))
            #expect(try await client.send(.delete, chores + "/\(bins)", as: "ann").status == .noContent)
            #expect(try await list(client).map(\.name) == ["Dishes"])
            // A member who leaves is no longer anyone's assignee, and no longer reads the list.
            #expect(
                try await client.send(.post, HouseholdRouterTests.household + "/leave", as: "bob").status == .noContent)
            #expect(try await client.send(.get, chores, as: "bob").status == .notFound)
            #expect(try await list(client, as: "ann").allSatisfy { $0.assigneeId != "bob" })
        }
    }

    /// Two replicas of the service on one PostgreSQL database, each keeping its own lists: whatever is written
    /// through one, the other's next list shows, though it had the list kept.
    @Test func aWriteOnOneReplicaIsListedByTheOther() async throws {
        let fixture = try await HouseholdRouterFixture(.postgres)
        let replica = try await openHouseholdStore(fixture.location, logger: Logger(label: "test.household.replica"))
        let otherLists = KeptAnswers<ChoresController.ChoreList>()
        let chores = HouseholdRouterTests.household + "/chores"
        try await fixture.app(choreLists: choreLists).test(.router) { first in
            try await HouseholdRouterFixture.app(store: replica, clock: fixture.clock, choreLists: otherLists).test(
                .router
            ) { second in
                _ = try await first.send(.post, chores, as: "ann", json: #"{"name":"Dishes"}"#)
                #expect(try await list(second).map(\.name) == ["Dishes"])
                let hits = otherLists.hits
                #expect(try await list(second).map(\.name) == ["Dishes"])
                #expect(otherLists.hits == hits + 2)

                let bins = try #require(
                    try await first.send(.post, chores, as: "ann", json: #"{"name":"Bins"}"#).object["id"] as? String)
                #expect(Set(try await list(second).map(\.name)) == ["Bins", "Dishes"])
                #expect(try await first.send(.delete, chores + "/\(bins)", as: "ann").status == .noContent)
                #expect(try await list(second).map(\.name) == ["Dishes"])
                #expect(
                    try await first.send(.post, HouseholdRouterTests.household + "/leave", as: "bob").status
                        == .noContent)
                #expect(try await second.send(.get, chores, as: "bob").status == .notFound)
                #expect(try await list(second, as: "ann").allSatisfy { $0.assigneeId != "bob" })
            }
        }
    }
}
