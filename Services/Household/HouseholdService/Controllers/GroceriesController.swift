import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Grocery lists: mine, the communal one, and the household list that merges both.
struct GroceriesController {
    let store: any HouseholdStore
    let live: LiveUpdates
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let groceries = HouseholdPaths.households + "/:household/groceries"
        router.get(RouterPath(groceries), use: household)
        router.get(RouterPath(groceries + "/personal"), use: personal)
        router.get(RouterPath(groceries + "/communal"), use: communal)
        router.get(RouterPath(groceries + "/suggestions"), use: suggestions)
        router.post(RouterPath(groceries), use: add)
        router.patch(RouterPath(groceries + "/:item"), use: edit)
        router.delete(RouterPath(groceries + "/:item"), use: delete)
    }

    struct ItemView: ResponseEncodable, Sendable {
        var id: String
        var name: String
        var quantity: Int
        var note: String?
        /// Nil for a communal item.
        var ownerId: String?
        var communal: Bool
        var visible: Bool
        var createdAt: Date

        init(_ item: GroceryItemRecord) {
            (id, name, quantity, note) = (item.id, item.name, item.quantity, item.note)
            (ownerId, communal, visible, createdAt) = (item.ownerId, item.ownerId == nil, item.visible, item.createdAt)
        }
    }

    struct LineView: ResponseEncodable, Sendable {
        struct Want: Encodable, Sendable {
            var userId: String
            var quantity: Int
        }
        var key: String
        var name: String
        var quantity: Int
        var communalQuantity: Int
        var wantedBy: [Want]
        var notes: [String]
        var itemIds: [String]

        init(_ line: Groceries.Line) {
            (key, name, quantity, communalQuantity) = (line.key, line.name, line.quantity, line.communalQuantity)
            wantedBy = line.wantedBy.sorted { $0.key < $1.key }.map { Want(userId: $0.key, quantity: $0.value) }
            (notes, itemIds) = (line.notes, line.itemIDs)
        }
    }

    struct Suggestion: Encodable, Sendable {
        var name: String
        /// How often the household listed or bought it.
        var uses: Int
    }

    /// `?prefix=mi&limit=`: names from the household's grocery history starting with `prefix` (any case), most
    /// used first; the best `limit` (20 by default, at most 100), so there is no next page.
    @Sendable func suggestions(_ request: Request, context: AuthenticatedContext) async throws -> Page<Suggestion> {
        let query = request.uri.queryParameters
        let prefix = query["prefix"].map(String.init) ?? ""
        guard prefix.count <= 60 else { throw HouseholdError.invalidField("prefix", "must be at most 60 characters.") }
        let page = try PageRequest(limit: query["limit"].map(String.init), cursor: nil)
        let rows = try await store.grocerySuggestions(
            in: try context.parameters.require("household"), asMember: context.user.userID, prefix: prefix,
            limit: page.limit)
        return Page(items: rows.map { Suggestion(name: $0.name, uses: $0.uses) }, nextCursor: nil)
    }

    @Sendable func household(_ request: Request, context: AuthenticatedContext) async throws -> Page<LineView> {
        let lines = try await store.householdGroceries(
            of: try context.parameters.require("household"), asMember: context.user.userID)
        return try request.page(of: lines.map(LineView.init))
    }

    @Sendable func personal(_ request: Request, context: AuthenticatedContext) async throws -> Page<ItemView> {
        let items = try await store.personalGroceries(
            of: try context.parameters.require("household"), asMember: context.user.userID)
        return try request.page(of: items.map(ItemView.init))
    }

    @Sendable func communal(_ request: Request, context: AuthenticatedContext) async throws -> Page<ItemView> {
        let items = try await store.communalGroceries(
            of: try context.parameters.require("household"), asMember: context.user.userID)
        return try request.page(of: items.map(ItemView.init))
    }

    struct AddRequest: Decodable {
        var name: String
        var quantity: Int?
        var note: String?
        /// On the communal list rather than my personal one.
        var communal: Bool?
        /// For a personal item: whether it shows in the household list (default true).
        var visible: Bool?
    }

    @Sendable func add(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<ItemView> {
        let householdID = try context.parameters.require("household")
        let input = try await request.decode(as: AddRequest.self, context: context)
        let name = try HouseholdInput.groceryName(input.name)
        let communal = input.communal ?? false
        let item = GroceryItemRecord(
            id: UUID().uuidString.lowercased(), householdId: householdID,
            ownerId: communal ? nil : context.user.userID, name: name, mergeKey: Groceries.mergeKey(name),
            quantity: try Self.quantity(input.quantity ?? 1),
            note: try Validate.optionalText(input.note, field: "note", max: 200),
            visible: communal ? true : (input.visible ?? true), createdBy: context.user.userID, createdAt: clock.now)
        let me = context.user.userID
        try await store.addGrocery(
            item, notices: live.reporting(events: { Self.changed("household.grocery.created", $0.value, $0, by: me) }))
        return EditedResponse(status: .created, response: ItemView(item))
    }

    struct EditRequest: Decodable {
        var name: String?
        var quantity: Int?
        /// An empty note removes it.
        var note: String?
        var visible: Bool?
    }

    @Sendable func edit(_ request: Request, context: AuthenticatedContext) async throws -> ItemView {
        let input = try await request.decode(as: EditRequest.self, context: context)
        let name = try input.name.map(HouseholdInput.groceryName)
        let quantity = try input.quantity.map(Self.quantity)
        let note = try input.note.map { try Validate.optionalText($0, field: "note", max: 200) ?? "" }
        let me = context.user.userID
        let (_, item) = try await store.changeGrocery(
            try context.parameters.require("item"), in: try context.parameters.require("household"), by: me,
            notices: live.reporting(events: { Self.edited($0, by: me) })
        ) { item in
            if let name { (item.name, item.mergeKey) = (name, Groceries.mergeKey(name)) }
            if let quantity { item.quantity = quantity }
            if let note { item.note = note.isEmpty ? nil : note }
            if let visible = input.visible, item.ownerId != nil { item.visible = visible }
        }
        return ItemView(item)
    }

    /// An edit's live events: an item just hidden leaves the other members' open lists as a deletion would (my
    /// devices keep it), then every list that shows it follows the change.
    static func edited(_ change: HouseholdChange<GroceryEdit>, by actorID: String) -> [RealtimeEvent] {
        let (before, item) = change.value
        var events: [RealtimeEvent] = []
        if isShared(before) && !isShared(item) {
            events += LiveUpdates.event(
                "household.grocery.deleted", .init(householdId: item.householdId, actorId: actorID, id: item.id),
                to: .othersThanActor, members: change.members)
        }
        return events + changed("household.grocery.updated", item, change, by: actorID)
    }

    /// Whether the item is on the household list that every member sees (communal, or personal and visible).
    static func isShared(_ item: GroceryItemRecord) -> Bool {
        item.ownerId == nil || item.visible
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let me = context.user.userID
        try await store.deleteGrocery(
            try context.parameters.require("item"), in: try context.parameters.require("household"), by: me,
            notices: live.reporting(events: { change in
                let item = change.value
                return LiveUpdates.event(
                    "household.grocery.deleted", .init(householdId: item.householdId, actorId: me, id: item.id),
                    to: Self.isShared(item) ? .everyone : .actor, members: change.members)
            }))
        return .noContent
    }

    /// Every member's open list follows the change; a personal item kept off the household list tells only me.
    static func changed(
        _ type: String, _ item: GroceryItemRecord, _ change: HouseholdChange<some Sendable>, by actorID: String
    ) -> [RealtimeEvent] {
        LiveUpdates.event(
            type, .init(householdId: item.householdId, actorId: actorID, id: item.id, item: ItemView(item)),
            to: isShared(item) ? .everyone : .actor, members: change.members)
    }

    static func quantity(_ value: Int) throws -> Int {
        guard (1...999).contains(value) else { throw HouseholdError.invalidField("quantity", "must be from 1 to 999.") }
        return value
    }
}
