import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import Testing

/// The plumbing every service shares: calendar days, money, entity tags, stored bytes and idempotency keys.
@Suite struct LocalDayTests {
    @Test(arguments: ["2024-02-29", "1970-01-01", "0001-01-01", "9999-12-31", "2026-11-25"])
    func aDayReadsBackAsItWasWritten(text: String) throws {
        let day = try #require(LocalDay(text))
        #expect(day.description == text)
        #expect(LocalDay(year: day.year, month: day.month, day: day.day) == day)
    }

    /// The digit-by-digit text is `String(format: "%04d-%02d-%02d")`'s, for every day of a century and a half and
    /// around the ends of the years it writes itself (0 and 9999).
    @Test func aDayIsWrittenAsTheFormatterWouldWriteIt() {
        let days = Array(-720_000 ... -719_000) + Array(-1_000...55_000) + Array(2_932_000...2_933_500)
        for number in days {
            let day = LocalDay(number: number)
            let formatted = String(format: "%04d-%02d-%02d", day.year, day.month, day.day)
            if day.description != formatted {
                Issue.record("day \(number): \(day.description) instead of \(formatted)")
                return
            }
        }
    }

    @Test(arguments: [
        "2023-02-29", "2024-13-01", "2024-00-10", "2024-1-011", "+023-01-01", "2024-01-1 ", "", "0000-01-01",
    ])
    func onlyExistingDaysInExactlyThatShapeParse(text: String) {
        #expect(LocalDay(text) == nil)
    }

    @Test func weekdaysAndArithmeticFollowTheCalendar() throws {
        let day = try #require(LocalDay("2026-11-25"))
        #expect(day.isoWeekday == 3)
        #expect(day.weekStart.description == "2026-11-23")
        #expect(day.adding(days: 7).description == "2026-12-02")
        #expect(day.days(until: try #require(LocalDay("2027-01-01"))) == 37)
        #expect(LocalDay("2024-01-31")?.inMonth(offset: 1, day: 31).description == "2024-02-29")
        #expect(LocalDay("2024-12-15")?.inMonth(offset: 1, day: 1).description == "2025-01-01")
        #expect(LocalDay("2024-01-15")?.inMonth(offset: -1, day: 31).description == "2023-12-31")
    }

    @Test func todayDependsOnTheZone() throws {
        // 23:30 UTC on 25 November is already 26 November in Tokyo and still the 25th in New York.
        let clock = WallClock { Date(timeIntervalSince1970: 1_795_649_400) }
        #expect(clock.today(inZone: "UTC").description == "2026-11-25")
        #expect(clock.today(inZone: "Asia/Tokyo").description == "2026-11-26")
        #expect(clock.today(inZone: "America/New_York").description == "2026-11-25")
        #expect(clock.today(inZone: "Not/AZone").description == "2026-11-25")
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        #expect(LocalDay("2026-11-26")?.start(in: tokyo) == Date(timeIntervalSince1970: 1_795_618_800))
    }

    @Test func daysTravelAsText() throws {
        let day = try #require(LocalDay("2026-03-29"))
        #expect(String(decoding: try JSONEncoder().encode([day]), as: UTF8.self) == #"["2026-03-29"]"#)
        #expect(try JSONDecoder().decode([LocalDay].self, from: Data(#"["2026-03-29"]"#.utf8)) == [day])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([LocalDay].self, from: Data(#"["29/03"]"#.utf8))
        }
    }
}

@Suite struct MoneyTests {
    @Test func amountsArePositiveAndBounded() throws {
        #expect(try Money.amount(1) == 1)
        #expect(try Money.amount(Money.maximumAmount) == Money.maximumAmount)
        for bad in [0, -1, Money.maximumAmount + 1, Int.max, Int.min] {
            #expect(throws: Problem.self) { try Money.amount(bad, field: "total") }
        }
        #expect((try? Money.amount(0, field: "total")) == nil)
        #expect(Money.isPrice(0) && !Money.isAmount(0))
    }

    @Test func theProblemNamesTheField() {
        do {
            _ = try Money.amount(0, field: "total")
            Issue.record("zero was accepted")
        } catch let problem as Problem {
            #expect(problem.code == "invalid_total")
            #expect(problem.detail?.hasPrefix("total:") == true)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func currenciesAreIsoCodes() throws {
        #expect(try Money.currency("eur") == "EUR")
        for bad in ["EU", "EURO", "€UR", "E1R", ""] {
            #expect(throws: Problem.self) { try Money.currency(bad) }
        }
    }
}

@Suite struct EntityTagTests {
    @Test func equalBytesHaveEqualStrongTags() {
        let tag = EntityTag(of: Data("picture".utf8))
        #expect(tag == EntityTag(of: Array("picture".utf8)))
        #expect(tag != EntityTag(of: Data("other".utf8)))
        #expect(tag.description.count == 34 && tag.description.hasPrefix("\"") && tag.description.hasSuffix("\""))
    }

    @Test func ifNoneMatchUsesWeakComparisonOverAList() {
        let tag = EntityTag(stored: "\"abc\"")
        #expect(tag.isMatched(byIfNoneMatch: "\"abc\""))
        #expect(tag.isMatched(byIfNoneMatch: "\"x\", W/\"abc\""))
        #expect(tag.isMatched(byIfNoneMatch: "*"))
        #expect(!tag.isMatched(byIfNoneMatch: "\"abcd\""))
        #expect(!tag.isMatched(byIfNoneMatch: "abc"))
        #expect(!tag.isMatched(byIfNoneMatch: nil))
    }
}

@Suite struct StoredBytesAndIdempotencyKeyTests {
    func app() -> some ApplicationProtocol {
        let router = ServiceApplication.router(
            metrics: ServiceMetrics(), openAPIDocument: Data("{}".utf8), database: nil)
        let picture = StoredBytes(
            bytes: Data("png!".utf8), mediaType: "image/png", tag: EntityTag(of: Data("png!".utf8)))
        router.get("/picture") { request, _ in picture.response(to: request) }
        router.post("/once") { request, _ -> String in try IdempotencyKey.of(request) ?? "none" }
        return Application(router: router)
    }

    @Test func storedBytesAnswerWithTagLengthAndOneCachePolicy() async throws {
        try await app().test(.router) { client in
            let tag = try await client.execute(uri: "/picture", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(response.headers[.contentLength] == "4")
                #expect(response.headers[.cacheControl] == StoredBytes.cacheControl)
                #expect(String(decoding: response.body.readableBytesView, as: UTF8.self) == "png!")
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: "/picture", method: .get, headers: [.ifNoneMatch: tag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.eTag] == tag)
            }
            try await client.execute(uri: "/picture", method: .get, headers: [.ifNoneMatch: "\"stale\""]) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func anIdempotencyKeyIsOneToTwoHundredFiftyFiveVisibleCharacters() async throws {
        try await app().test(.router) { client in
            for (key, expected) in [
                ("k-1", "k-1"), (String(repeating: "k", count: 255), String(repeating: "k", count: 255)),
            ] {
                try await client.execute(uri: "/once", method: .post, headers: [IdempotencyKey.field: key]) {
                    response in
                    #expect(String(decoding: response.body.readableBytesView, as: UTF8.self) == expected)
                }
            }
            try await client.execute(uri: "/once", method: .post) { response in
                #expect(String(decoding: response.body.readableBytesView, as: UTF8.self) == "none")
            }
            for key in [String(repeating: "k", count: 256), "two words", "tab\tkey", "é"] {
                try await client.execute(uri: "/once", method: .post, headers: [IdempotencyKey.field: key]) {
                    response in
                    #expect(response.status == .badRequest, "\(key)")
                    let problem = try JSONDecoder().decode(Problem.self, from: Data(response.body.readableBytesView))
                    #expect(problem.code == "invalid_idempotency_key")
                }
            }
        }
    }
}

@Suite struct ServiceChassisGroupTests {
    enum RuleError: ProblemConvertible {
        case tooLate
        var problem: Problem { .conflict("too_late", "It is too late.") }
    }

    func app() -> some ApplicationProtocol {
        let settings = ServiceSettings(service: .household, internalToken: "internal-secret")
        let chassis = ServiceChassis(
            settings: settings, database: try! DatabaseQueue(), openAPIDocument: Data("{}".utf8))
        chassis.signedIn.get("/mine") { _, context in context.user.userID }
        chassis.internalOnly.get("/internal/thing") { _, _ in "internal" }
        chassis.publicRoutes.get("/rule") { _, _ -> String in throw RuleError.tooLate }
        // The router alone: `chassis.application()` would also follow identity's revocation feed.
        return Application(router: chassis.router)
    }

    @Test func signedInNeedsATokenInternalNeedsTheCredentialAndDomainErrorsBecomeTheirProblems() async throws {
        try await app().test(.router) { client in
            try await client.execute(uri: "/mine", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/internal/thing", method: .get) { response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(
                uri: "/internal/thing", method: .get,
                headers: [HTTPField.Name(PlatformHeaders.internalToken)!: "internal-secret"]
            ) { response in
                #expect(String(decoding: response.body.readableBytesView, as: UTF8.self) == "internal")
            }
            try await client.execute(uri: "/rule", method: .get) { response in
                #expect(response.status == .conflict)
                let problem = try JSONDecoder().decode(Problem.self, from: Data(response.body.readableBytesView))
                #expect(problem.code == "too_late")
            }
        }
    }
}
