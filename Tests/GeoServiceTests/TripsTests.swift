import Foundation
import Testing

@testable import GeoService

/// The rules of trips: days, span, who reads them and which pins they gather.
@Suite struct TripsTests {
    @Test func daysAreRealAndTheEndNotBeforeTheStart() throws {
        #expect(try Trips.day("2027-02-28", field: "startsOn") == "2027-02-28")
        #expect(throws: GeoError.invalidField("startsOn", "must be a date as YYYY-MM-DD.")) {
            try Trips.day("2027-02-29", field: "startsOn")
        }
        #expect(throws: GeoError.invalidField("endsOn", "must be a date as YYYY-MM-DD.")) {
            try Trips.day("3000-01-01", field: "endsOn")
        }
        try Trips.checkSpan(startsOn: "2026-05-01", endsOn: "2026-05-01")
        #expect(throws: GeoError.invalidField("endsOn", "must not be before startsOn.")) {
            try Trips.checkSpan(startsOn: "2026-05-02", endsOn: "2026-05-01")
        }
        #expect(throws: GeoError.invalidField("endsOn", "a trip lasts at most 3660 days.")) {
            try Trips.checkSpan(startsOn: "2000-01-01", endsOn: "2020-01-01")
        }
    }

    @Test func friendsReadSharedTripsAndOnlyTheOwnerPrivateOnes() {
        let friend = Standing(friends: true, blocked: false)
        #expect(Trips.mayRead(owner: "ann", viewer: "ann", visibility: .private, standing: nil))
        #expect(Trips.mayRead(owner: "ann", viewer: "bob", visibility: .friends, standing: friend))
        #expect(!Trips.mayRead(owner: "ann", viewer: "bob", visibility: .private, standing: friend))
        #expect(!Trips.mayRead(owner: "ann", viewer: "cat", visibility: .friends, standing: nil))
    }

    @Test func aTripGathersThePinsOfItsDaysByDay() {
        let created = Date(timeIntervalSince1970: 1_778_000_000)  // 2026-05-05 UTC
        func pin(_ id: Int64, _ visitedOn: String?) -> PinRecord {
            PinRecord(
                id: id, userId: "ann", latitude: 0, longitude: 0, placeName: "P\(id)", placeId: nil, countryCode: nil,
                note: nil, visitedOn: visitedOn, createdAt: created, updatedAt: created)
        }
        let inside = Trips.pinsInside(
            [pin(1, "2026-05-07"), pin(2, nil), pin(3, "2026-04-30"), pin(4, "2026-05-01"), pin(5, "2026-05-11")],
            startsOn: "2026-05-01", endsOn: "2026-05-10")
        #expect(inside.map(\.pin.id) == [4, 2, 1])
        #expect(inside.map(\.day) == ["2026-05-01", "2026-05-05", "2026-05-07"])
    }
}
