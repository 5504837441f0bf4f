import Foundation
import PlatformKit

/// Issue 41: cursors built in each list's own format with a number no list writes (`inf`, `-inf`, `nan`, `1e999`,
/// `-1e999`) in each numeric position; every one must be refused with 400 `invalid_cursor`.
///
/// A format is the JSON a cursor encodes, with `%` where a number goes (`"%"` where the list writes it as text).
/// Every list is also sent the numbers alone and as an offset cursor, the two shapes any list could mistake.
enum HostileCursors {
    static let numbers = ["inf", "-inf", "nan", "1e999", "-1e999"]

    /// The shapes every list is sent.
    static let common = ["%", #"{"offset":%}"#]

    /// Each list's own format, by operation id; a list whose cursor holds no number (usernames, ids, offsets) has
    /// none beyond ``common``. A new list with a cursor must be added here (the walk names any that is not).
    static let formats: [String: [String]] = [
        // geo
        "myComments": [], "myPackPosts": [], "listPins": [], "listComments": [], "listPinPhotos": [],
        "discoverPacks": [], "myPacks": [], "getVisitors": [], "listGeoTrips": [],
        "listFeed": [#"{"id":%,"hot":%}"#], "listPackPosts": [#"{"id":%,"hot":%}"#],
        "discoverPosts": [#"{"id":%,"hot":%}"#, #"{"pack":%,"post":%}"#],
        "listReportedItems": [#"{"first":%,"count":%}"#],
        // habits
        "myHabits": [], "listFollowedHabits": [], "listHabitsToday": [], "getHabitHistoryMap": [], "listHabitSkips": [],
        "listHabitPauses": [],
        "listHabitHistory": [#"{"day":"2026-01-01","id":%}"#],
        // household
        "myInvitations": [], "listActivity": [], "listChoreCatalogue": [], "listChores": [], "listGroceries": [],
        "listCommunalGroceries": [], "listPersonalGroceries": [], "listNotes": [], "listPaymentHandles": [],
        "listBills": [#"["%","b"]"#], "listTrips": [#"["%","t"]"#], "listCompletions": [#"["2026-01-01","%","c"]"#],
        "listEvents": [#"["%","e"]"#], "listRecurringBills": [#"["%","r"]"#],
        // identity
        "listSessions": [], "listLinkedIdentities": [], "searchUsers": [#"{"rank":%,"username":"a"}"#],
        // messaging
        "listConversations": [#"{"activity":%,"id":"c"}"#], "listCommonGroups": [#"{"activity":%,"id":"c"}"#],
        "listMessages": [#"{"before":%}"#, #"{"after":%}"#], "listTopics": [#"{"lastMessageId":%,"id":%}"#],
        "searchMessages": [], "listReportedMessages": [#"{"first":%,"count":%}"#],
        // notifications
        "listNotifications": [], "listDevices": [],
        // social
        "listBlocks": [], "followRequests": [], "listFollowers": [], "listFollowing": [], "listFriendRequests": [],
        "listFriends": [], "listMutualFriends": [],
    ]

    /// The hostile cursors for an operation, or `nil` if its format is not known here.
    static func cursors(for operationID: String) -> [(label: String, cursor: String)]? {
        guard let own = formats[operationID] else { return nil }
        return (common + own).flatMap(cursors(in:))
    }

    /// One cursor per hostile number per numeric position of `format`, the other positions holding 1.
    static func cursors(in format: String) -> [(label: String, cursor: String)] {
        let pieces = format.components(separatedBy: "%")
        let positions = pieces.count - 1
        return (0..<positions).flatMap { position in
            numbers.map { number in
                var json = pieces[0]
                for index in 0..<positions { json += (index == position ? number : "1") + pieces[index + 1] }
                return (label: "cursor(\(json))", cursor: Data(json.utf8).base64URLEncoded)
            }
        }
    }
}
