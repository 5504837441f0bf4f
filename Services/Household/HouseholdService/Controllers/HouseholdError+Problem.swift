import Foundation
import PlatformKit

/// The one place household's domain errors become problems (status, code and detail clients see).
extension HouseholdError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .invalidField(let field, let reason): Problem.invalidField(field, reason)
        case .notFound(let what): Problem.notFound(what)
        case .alreadyInHousehold(.you):
            Problem.conflict("already_in_household", "You are already in a household; leave it first.")
        case .alreadyInHousehold(.youHere):
            Problem.conflict("already_in_household", "You are already in this household.")
        case .alreadyInvited: Problem.conflict("already_invited", "That user already has an invitation.")
        case .invitationNotPending(let status):
            Problem.conflict("invitation_not_pending", "The invitation was already \(status).")
        case .notHouseholdAdmin:
            Problem.forbidden("not_household_admin", "Only the household's creator can remove members.")
        case .billOfTrip:
            Problem.conflict("bill_of_trip", "This bill is the cost of a shopping trip; edit the trip instead.")
        case .notTripShopper(let action):
            Problem.forbidden("not_trip_shopper", "Only the member who went shopping can \(action).")
        case .notNoteAuthor(let action): Problem.forbidden("not_note_author", "Only the note's author can \(action).")
        case .notEventCreator(let action):
            Problem.forbidden("not_event_creator", "Only the event's creator can \(action).")
        case .notRecurringBillOwner(let action):
            Problem.forbidden(
                "not_recurring_bill_owner", "Only the recurring bill's creator or the household's admin can \(action).")
        case .eventCancelled: Problem.conflict("event_cancelled", "This event was cancelled.")
        case .notItemOwner: Problem.forbidden("not_item_owner", "Only its owner can change a personal item.")
        case .groceryListFull:
            Problem.conflict("grocery_list_full", "The household's lists hold at most 1,000 items.")
        case .choreDone: Problem.conflict("chore_done", "This one-off chore was already completed.")
        case .notShopping:
            Problem.conflict("not_shopping", "Start shopping first (POST .../shopping); then tick items off.")
        case .nothingOwed(.byThatMember): Problem.conflict("nothing_owed", "That member does not owe you anything.")
        case .nothingOwed(.byAnybody): Problem.conflict("nothing_owed", "Nobody owes you anything.")
        case .nothingOwed(.toThatMember): Problem.conflict("nothing_owed", "You do not owe that member anything.")
        case .overpayment(let limit, let currency):
            Problem(
                status: 409, code: "overpayment", title: "Conflict", detail: Self.overpaymentDetail(limit, currency),
                owed: limit.payable)
        case .noPaymentHandle(let provider):
            Problem.conflict("no_payment_handle", "That member has not added a \(provider) handle.")
        case .reminderTooSoon(let next, let now):
            Problem(
                status: 429, code: "reminder_too_soon", title: "Too many requests",
                detail: "You can remind a member once every 24 hours; try again after \(next.formatted(.iso8601)).",
                retryAfter: Int((next.timeIntervalSince(now) - 0.001).rounded(.up)))
        }
    }

    static func overpaymentDetail(_ limit: PaymentRule.Limit, _ currency: String) -> String {
        switch limit {
        case .payerOwesNothing: "You do not owe anything in \(currency), so there is nothing to pay."
        case .payeeIsOwedNothing: "That member is not owed anything in \(currency)."
        case .atMost(let amount):
            "You can pay that member at most \(MinorUnits.decimal(amount, currency)) \(currency): the smaller of what you owe and what they are owed."
        }
    }
}
