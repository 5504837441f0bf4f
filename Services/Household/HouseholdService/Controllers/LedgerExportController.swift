import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// The household's bills and payments as a CSV file, for a spreadsheet (members only).
struct LedgerExportController {
    let store: any HouseholdStore
    let directory: any UserDirectory

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(HouseholdPaths.households + "/:household/export.csv"), use: export)
    }

    /// `text/csv` (RFC 4180, with a header line): the newest 10,000 bills and 10,000 payments, oldest first.
    @Sendable func export(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let ledger = try await store.ledger(
            of: try context.parameters.require("household"), asMember: context.user.userID,
            limit: LedgerCSV.maximumRows)
        let ids = LedgerCSV.people(ledger)
        // The ledger is read; a directory that cannot answer only costs the file its names.
        let names = Dictionary(
            ((try? await directory.users(ids: ids)) ?? []).map { ($0.id, $0.displayName) },
            uniquingKeysWith: { a, _ in a })
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8; header=present",
                .contentDisposition: "attachment; filename=\"household-bills-and-payments.csv\"",
                .cacheControl: "private, no-store",
            ],
            body: .init(byteBuffer: ByteBuffer(string: LedgerCSV.csv(ledger, names: names))))
    }
}
