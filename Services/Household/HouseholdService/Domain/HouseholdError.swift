import Foundation

/// Why the household service refuses a request; `Controllers/HouseholdError+Problem.swift` turns each case into
/// the problem a client receives.
enum HouseholdError: Error, Equatable {
    /// A field breaks a rule; `field` as the client wrote it (`split.percentages`), `reason` for people.
    case invalidField(_ field: String, _ reason: String)
    /// Nothing here, or nothing the caller may see (a household they are not in): "The bill".
    case notFound(_ what: String)
    /// Someone already in a household cannot create or join one (an invitation to them is made as any other, so
    /// the inviter learns nothing; they answer it).
    case alreadyInHousehold(Who)
    case alreadyInvited
    case invitationNotPending(status: String)
    /// Only the household's creator removes other members.
    case notHouseholdAdmin
    /// A bill that carries a shopping trip's cost changes only through the trip.
    case billOfTrip
    /// Only the member who went shopping changes a trip; `action` is what they tried ("edit the trip").
    case notTripShopper(action: String)
    /// Only a note's author deletes it or changes its photo; `action` as in "delete it".
    case notNoteAuthor(action: String)
    /// Only an event's creator edits or cancels it; `action` as in "cancel it".
    case notEventCreator(action: String)
    /// Only a recurring bill's creator or the household's admin changes or stops it; `action` as in "stop it".
    case notRecurringBillOwner(action: String)
    /// A cancelled event takes no edit, answer or second cancellation.
    case eventCancelled
    /// A personal grocery item belongs to its owner.
    case notItemOwner
    case groceryListFull
    /// A one-off chore that was completed has no next occurrence.
    case choreDone
    /// Ticking items off needs a trip under way (`POST .../shopping` starts one).
    case notShopping
    /// Nothing is owed: by `whom` (one member, or anybody at all).
    case nothingOwed(NothingOwed)
    /// A payment larger than the payer may pay the payee in its currency (``PaymentRule``).
    case overpayment(PaymentRule.Limit, currency: String)
    /// The payee has no handle with this payment app.
    case noPaymentHandle(provider: String)
    /// A member may be reminded once per interval; the next reminder may go at `next`.
    case reminderTooSoon(next: Date, now: Date)

    enum Who: Equatable {
        /// The caller, creating or joining a household.
        case you
        /// The caller, inviting themselves to their own household.
        case youHere
    }

    enum NothingOwed: Equatable {
        /// The named member owes the caller nothing.
        case byThatMember
        /// Nobody owes the caller anything.
        case byAnybody
        /// The caller owes the payee nothing.
        case toThatMember
    }
}
