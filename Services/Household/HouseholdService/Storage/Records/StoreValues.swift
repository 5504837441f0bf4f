import Foundation

// Read models the store hands out besides its records.

/// An item ticked off during a trip under way: a line of the household list, by its merge key.
struct CheckedItem: Sendable {
    var itemId: String
    var key: String
    var name: String
    var price: Int?
    var checkedAt: Date
}

/// A member's trip under way and what they ticked off so far.
struct CurrentTrip: Sendable {
    var shopperId: String
    var startedAt: Date
    var checked: [CheckedItem]
}

/// A shopping trip as stored: the trip, what was bought, and each member's part of its bill.
struct StoredTrip: Sendable {
    var trip: TripRecord
    var lines: [TripLine]
    var shares: [String: Int]
}

/// One member's completions of one chore over a range.
struct ChoreTally: Sendable {
    var userID: String
    var chore: String
    var count: Int
    var points: Int
}
