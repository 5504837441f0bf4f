import Foundation

// Typed answers of the household service (Services/Household/HouseholdService/Controllers/HouseholdDTOs.swift
// and the controllers' own answer types), as the stack tests read them. Fields the service always writes are
// required, so a renamed one fails the decode.

/// A member of a household (`MemberView`).
public struct WireHouseholdMember: Decodable, Sendable {
    public var userId: String
    public var username: String?
    public var displayName: String
    public var avatarUrl: String?
    public var joinedAt: Date
}

/// A household and its members (`HouseholdView`).
public struct WireHousehold: Decodable, Sendable {
    public var id: String
    public var name: String
    public var timeZone: String
    public var createdBy: String
    public var noteLifetimeDays: Int
    public var members: [WireHouseholdMember]
    public var createdAt: Date
}

/// An invitation into a household (`InvitationView`).
public struct WireInvitation: Decodable, Sendable {
    public var id: String
    public var householdId: String
    public var householdName: String
    public var inviterId: String
    public var inviteeId: String
    public var status: String
    public var createdAt: Date
}

/// A note on the household's board (`NoteView`).
public struct WireNote: Decodable, Sendable {
    public var id: String
    public var authorId: String
    public var text: String
    public var pinned: Bool
    public var createdAt: Date
    public var expiresAt: Date
    public var photoUrl: String?
}

/// One entry of the household's activity feed (`ActivityView`).
public struct WireActivity: Decodable, Sendable {
    public var id: Int64
    public var kind: String
    public var actorId: String
    public var subject: String
    public var createdAt: Date
}

/// A chore (`ChoreView`).
public struct WireChore: Decodable, Sendable {
    public struct Schedule: Decodable, Sendable {
        /// `once`, `everyDays`, `weekly` or `monthly`.
        public var kind: String
        public var every: Int?
        public var weekdays: [Int]?
        public var dayOfMonth: Int?
    }

    public struct Assignment: Decodable, Sendable {
        /// `fixed`, `rotating` or `leastPoints`.
        public var kind: String
        public var assignee: String?
        public var order: [String]?
    }

    public var id: String
    public var name: String
    public var points: Int
    public var schedule: Schedule
    public var assignment: Assignment
    public var assigneeId: String?
    /// The next due day in the household's time zone; `nil` once a one-off chore is done.
    public var nextDue: String?
    public var overdue: Bool
}

/// A chore of the catalogue (`ChoresController.CatalogueEntry`).
public struct WireCatalogueEntry: Decodable, Sendable {
    public var name: String
    public var points: Int
    public var custom: Bool
}

/// A chore done (`CompletionView`).
public struct WireCompletion: Decodable, Sendable {
    public var id: String
    public var choreId: String
    public var choreName: String
    public var userId: String
    public var points: Int
    public var dueOn: String?
    public var completedOn: String
    public var completedAt: Date
    public var note: String?
}

/// The answer to completing a chore: the completion and the chore rescheduled (`CompletionResult`).
public struct WireCompletionResult: Decodable, Sendable {
    public var completion: WireCompletion
    public var chore: WireChore
}

/// Chore statistics per member (`StatisticsController.Statistics`).
public struct WireChoreStatistics: Decodable, Sendable {
    public struct ChoreCount: Decodable, Sendable {
        public var chore: String
        public var count: Int
        public var points: Int
    }

    public struct Member: Decodable, Sendable {
        public var userId: String
        public var displayName: String
        public var count: Int
        public var points: Int
        public var byChore: [ChoreCount]
    }

    public var from: String
    public var to: String
    public var members: [Member]
    public var mine: Member
}

/// A name from the household's grocery history (`GroceriesController.Suggestion`).
public struct WireGrocerySuggestion: Decodable, Sendable {
    public var name: String
    public var uses: Int
}

/// One grocery item on a personal or the communal list (`GroceriesController.ItemView`).
public struct WireGroceryItem: Decodable, Sendable {
    public var id: String
    public var name: String
    public var quantity: Int
    public var note: String?
    /// `nil` for a communal item.
    public var ownerId: String?
    public var communal: Bool
    public var visible: Bool
    public var createdAt: Date
}

/// One merged line of the household's grocery list (`GroceriesController.LineView`).
public struct WireGroceryLine: Decodable, Sendable {
    public struct Want: Decodable, Sendable {
        public var userId: String
        public var quantity: Int
    }

    public var key: String
    public var name: String
    public var quantity: Int
    public var communalQuantity: Int
    public var wantedBy: [Want]
    public var notes: [String]
    public var itemIds: [String]
}

/// A shopping trip (`TripsController.TripView`).
public struct WireTrip: Decodable, Sendable {
    public struct Line: Decodable, Sendable {
        public var name: String
        public var price: Int?
        public var communalQuantity: Int
        public var wantedBy: [String: Int]
    }

    public var id: String
    public var shopperId: String
    public var total: Int
    public var currency: String
    public var billId: String
    public var items: [Line]
    /// Each member's part of the total, minor units.
    public var shares: [String: Int]
    public var hasReceipt: Bool
    public var createdAt: Date
    public var updatedAt: Date
}

/// A bill (`BillsController.BillView`).
public struct WireBill: Decodable, Sendable {
    public var id: String
    public var description: String
    public var amount: Int
    public var currency: String
    public var payerId: String
    public var split: String
    public var shares: [String: Int]
    /// Set when the bill is the cost of a shopping trip.
    public var tripId: String?
    public var createdAt: Date
}

/// A payment from one member to another (`Transfer`), in a settle-up plan or as a recorded payment.
public struct WireTransfer: Decodable, Sendable {
    public var from: String
    public var to: String
    public var amount: Int
}

/// Balances per currency (`BillsController.Balances`).
public struct WireBalances: Decodable, Sendable {
    public struct Net: Decodable, Sendable {
        public var userId: String
        public var net: Int
    }

    public struct Mine: Decodable, Sendable {
        public var net: Int
        public var owes: [WireTransfer]
        public var owed: [WireTransfer]
    }

    public struct Currency: Decodable, Sendable {
        public var currency: String
        public var members: [Net]
        public var plan: [WireTransfer]
        public var mine: Mine
    }

    public var currencies: [Currency]
}

/// The answer to a payment reminder (`SettleController.Reminded`).
public struct WireReminded: Decodable, Sendable {
    public struct Debt: Decodable, Sendable {
        public var userId: String
        /// Currency -> amount owed, minor units.
        public var owes: [String: Int]
    }

    public struct Skipped: Decodable, Sendable {
        public var userId: String
        public var retryAt: Date
    }

    public var reminded: [Debt]
    public var skipped: [Skipped]
}

/// A member's payment handles (`SettleController.Handles`).
public struct WirePaymentHandles: Decodable, Sendable {
    public var userId: String
    public var venmo: String?
    public var paypal: String?
}

/// A deep link paying a member (`SettleController.LinkView`).
public struct WirePaymentLink: Decodable, Sendable {
    /// `venmo` or `paypal`.
    public var provider: String
    public var url: String
    public var to: String
    public var amount: Int
    public var currency: String
}
