import Foundation
import PlatformKit
import TestSupport
import Testing

@Suite struct PaginationTests {
    @Test func cursorsRoundTrip() throws {
        struct Key: Codable, Equatable { var name: String; var id: Int }
        let cursor = PageCursor.encode(Key(name: "anna/+=", id: 7))
        #expect(!cursor.contains("="))
        #expect(try PageCursor.decode(cursor, as: Key.self) == Key(name: "anna/+=", id: 7))
    }

    @Test(arguments: ["!!", "e30", String(repeating: "a", count: 600), "eyJub3QiOiJrZXkifQ"])
    func foreignCursorsAreBadRequests(cursor: String) {
        struct Key: Codable { var id: Int }
        #expect(throws: Problem.self) { try PageCursor.decode(cursor, as: Key.self) }
        do {
            _ = try PageCursor.decode(cursor, as: Key.self)
        } catch let problem as Problem {
            #expect(problem.statusCode == 400)
            #expect(problem.code == "invalid_cursor")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// Issue 41: no cursor carries a number `Double` would read as infinity or NaN, as JSON or as text.
    @Test func nonFiniteNumbersInCursorsAreRefused() throws {
        struct Key: Codable, Equatable { var hot: Double?; var id: Int64; var flag: Bool? }
        func cursor(_ json: String) -> String { Data(json.utf8).base64URLEncoded }
        func refused(_ body: () throws -> Void) -> Bool {
            do {
                try body()
                return false
            } catch let problem as Problem {
                return problem.statusCode == 400 && problem.code == "invalid_cursor"
            } catch {
                return false
            }
        }
        // JSON keys
        #expect(try PageCursor.decode(cursor(#"{"hot":-1.5e3,"id":7,"flag":true}"#), as: Key.self).id == 7)
        #expect(try PageCursor.decode(cursor(#"{"hot":null,"id":7,"note":"1e999 inf"}"#), as: Key.self).id == 7)
        for json in [
            #"{"hot":1e999,"id":7}"#, #"{"hot":-1e999,"id":7}"#, #"{"hot":inf,"id":7}"#, #"{"hot":NaN,"id":7}"#,
            #"{"hot":Infinity,"id":7}"#, #"{"id":1e999}"#,
        ] {
            let wasRefused = refused { _ = try PageCursor.decode(cursor(json), as: Key.self) }
            #expect(wasRefused, "\(json)")
        }
        // numbers as text
        #expect(try PageCursor.number("1767225600.25", in: 0...2e9) == 1767225600.25)
        for text in ["inf", "-inf", "nan", "1e999", "-1e999", "infinity", "3e9", "-1", "", "0x10p4"] {
            let wasRefused = refused { _ = try PageCursor.number(text, in: 0...2e9) }
            #expect(wasRefused, "\(text)")
        }
        let farFuture = refused { _ = try PageCursor.instant("1e12") }
        #expect(farFuture)
        #expect(try PageCursor.instant("0") == Date(timeIntervalSince1970: 0))
        // a cursor of texts has exactly the parts its list writes
        let parts = PageCursor.encode(["1767225600", "id"])
        #expect(try PageRequest(limit: nil, cursor: parts).decodeCursorParts(2) == ["1767225600", "id"])
        let tooFew = refused { _ = try PageRequest(limit: nil, cursor: parts).decodeCursorParts(3) }
        #expect(tooFew)
    }

    @Test(arguments: [("1", 1), ("100", 100), (nil, 20)] as [(String?, Int)])
    func limitsWithinBoundsAreAccepted(limit: String?, expected: Int) throws {
        #expect(try PageRequest(limit: limit, cursor: nil).limit == expected)
    }

    @Test(arguments: ["0", "101", "-1", "ten", ""])
    func limitsOutOfBoundsAreRefused(limit: String) {
        #expect(throws: Problem.self) { try PageRequest(limit: limit, cursor: nil) }
    }

    @Test func offsetsAreBoundedSoOffsetPlusLimitCannotOverflow() throws {
        func offset(_ cursor: String?) throws -> Int { try PageRequest(limit: nil, cursor: cursor).offset() }
        #expect(try offset(nil) == 0)
        #expect(try offset(OffsetCursor.next(after: 40, count: 20, total: 100)) == 60)
        #expect(OffsetCursor.next(after: 80, count: 20, total: 100) == nil)
        for forged in [Int.max, Int.min, -1, PageRequest.maximumOffset + 1] {
            #expect(throws: PageCursor.invalid) { try offset(PageCursor.encode(OffsetCursor(offset: forged))) }
        }
        #expect(throws: PageCursor.invalid) { try offset(PageCursor.encode(["offset": 1e300])) }
    }

    @Test func aPageFetchedWithOneExtraRowHasANextCursor() {
        let full = Page(fetched: [1, 2, 3], limit: 2) { $0 }
        #expect(full.items == [1, 2])
        #expect(full.nextCursor == PageCursor.encode(2))
        let last = Page(fetched: [1, 2], limit: 2) { $0 }
        #expect(last.nextCursor == nil)
    }
}

/// The strict reading of numeric settings every executable shares (`ExecutableStartTests` starts each with one).
@Suite struct NumberSettingTests {
    @Test(arguments: ["abc", "70000", "-5", "0", "65536", "1.5", ""])
    func aMalformedPortIsRefusedNamingTheVariable(value: String) {
        #expect(throws: SettingError.self) { try NumberSetting.port(value, variable: "PORT", default: 8080) }
        do {
            _ = try NumberSetting.port(value, variable: "PORT", default: 8080)
        } catch {
            #expect(error.description == "PORT must be a port number from 1 to 65535, not '\(value)'.")
        }
    }

    @Test func aPortIsReadOrDefaulted() throws {
        #expect(try NumberSetting.port("8081", variable: "PORT", default: 8080) == 8081)
        #expect(try NumberSetting.port(" 65535 ", variable: "PORT", default: 8080) == 65_535)
        #expect(try NumberSetting.port(nil, variable: "PORT", default: 8080) == 8080)
    }
}

@Suite struct ValidateTests {
    @Test func textIsTrimmedAndBoundedInCharacters() throws {
        #expect(try Validate.text("  hi  ", field: "title", max: 2) == "hi")
        #expect(try Validate.text("ééé", field: "title", max: 3) == "ééé")
        #expect(throws: Problem.self) { try Validate.text("abcd", field: "title", max: 3) }
        #expect(throws: Problem.self) { try Validate.text("   ", field: "title", max: 3) }
        #expect(throws: Problem.self) { try Validate.text("a\u{0000}b", field: "title", max: 5) }
        #expect(try Validate.optionalText("", field: "note", max: 3) == nil)
    }

    @Test(arguments: ["a@b.co", "First.Last+tag@Example.ORG"])
    func validEmails(email: String) throws {
        #expect(try Validate.email(email) == email.lowercased())
    }

    @Test(arguments: ["", "plain", "a@b", "@b.co", "a@.co", "a@b.", "a b@c.de", "a@b@c.de"])
    func invalidEmails(email: String) {
        #expect(throws: Problem.self) { try Validate.email(email) }
    }

    @Test(arguments: ["abc", "a.b_c", "0cool", String(repeating: "x", count: 30)])
    func validUsernames(username: String) throws {
        #expect(try Validate.username(username.uppercased()) == username.lowercased())
    }

    @Test(arguments: ["ab", "_abc", ".abc", "ab-c", "ab c", "ümlaut", String(repeating: "x", count: 31)])
    func invalidUsernames(username: String) {
        #expect(throws: Problem.self) { try Validate.username(username) }
    }

    @Test(arguments: [(90.0, 180.0), (-90.0, -180.0), (0.0, 0.0)])
    func coordinatesOnTheBoundsAreValid(latitude: Double, longitude: Double) throws {
        try Validate.coordinate(latitude: latitude, longitude: longitude)
    }

    @Test(arguments: [(90.000001, 0.0), (0.0, -180.1), (Double.nan, 0.0), (0.0, Double.infinity)])
    func coordinatesPastTheBoundsAreInvalid(latitude: Double, longitude: Double) {
        #expect(throws: Problem.self) { try Validate.coordinate(latitude: latitude, longitude: longitude) }
    }
}

@Suite struct ProblemTests {
    @Test func encodesAsRFC9457() throws {
        let problem = Problem.tooManyRequests(retryAfter: 3)
        let object = try #require(try JSONSerialization.jsonObject(with: problem.jsonData) as? [String: Any])
        #expect(object["status"] as? Int == 429)
        #expect(object["type"] as? String == "/problems/rate_limited")
        #expect(object["code"] as? String == "rate_limited")
        #expect(object["title"] as? String == "Too many requests")
        #expect(try JSONDecoder().decode(Problem.self, from: problem.jsonData) == problem)
    }

    @Test func fieldProblemsNameTheField() {
        let problem = Problem.invalidField("displayName", "is too long.")
        #expect(problem.code == "invalid_display_name")
        #expect(problem.detail == "displayName: is too long.")
    }
}

@Suite struct ImageKindTests {
    @Test func recognisesImagesByTheirBytes() {
        #expect(ImageKind.detect([0xFF, 0xD8, 0xFF, 0xE1]) == .jpeg)
        #expect(ImageKind.detect([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(ImageKind.detect(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(ImageKind.detect(Array("GIF89a".utf8)) == nil)
        #expect(ImageKind.detect(Array("<svg>".utf8)) == nil)
        #expect(ImageKind.detect([]) == nil)
    }

    @Test func cleaningChecksSizeKindAndContainer() async throws {
        let png = ImageSanitizerTests.png
        let clean = try await ImageKind.clean(png, maximumBytes: png.count)
        #expect(clean.kind == .png && clean.mediaType == "image/png")
        #expect(Array(clean.bytes) == (try ImageSanitizer.sanitizePNG(png)))
        await #expect(throws: Problem.payloadTooLarge(limit: 10)) { try await ImageKind.clean(png, maximumBytes: 10) }
        await #expect(throws: Problem.self) { try await ImageKind.clean([UInt8](), maximumBytes: 4) }
        await #expect(throws: Problem.self) { try await ImageKind.clean([1, 2, 3], maximumBytes: 4) }
        // the right signature on junk is a 400 naming the field, not a stored "photo"
        do {
            _ = try await ImageKind.clean(ImageSanitizer.pngSignature + [1, 2, 3], maximumBytes: 100, field: "photo")
            Issue.record("junk after a PNG signature was accepted")
        } catch let problem as Problem {
            #expect(problem.status == 400 && problem.code == "invalid_image")
            #expect(problem.errors?.map(\.field) == ["photo"])
        }
    }
}

@Suite struct TimeZoneNamesTests {
    @Test func zonesAndLinksOfTheTZDatabaseAreNames() {
        let text = """
            # version 2025b
            R E 1981 ma - Mar lSu 1u 1 S
            Z Europe/Paris 0:9:21 - LMT 1891 Mar 16
            1 E CE%sT
            Z Etc/GMT-2 2 - %z
            L Etc/UTC UTC
            L America/New_York US/Eastern
            """
        #expect(TimeZoneNames.names(inTZData: text) == ["Europe/Paris", "Etc/GMT-2", "UTC", "US/Eastern"])
    }

    @Test func offsetsAndUnknownNamesAreRefused() {
        for name in ["Europe/Paris", "Etc/GMT-2", "UTC", "US/Eastern"] {
            #expect(TimeZoneNames.isValid(name), "\(name)")
        }
        for name in ["GMT+2", "+02:00", "europe/paris", "Mars/Base", "", String(repeating: "A", count: 200)] {
            #expect(!TimeZoneNames.isValid(name), "\(name)")
        }
    }
}
