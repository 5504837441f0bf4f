import Foundation
import HTTPTypes
import Hummingbird
import PlatformKit

extension ClientPosition {
    /// The request header that carries the client's position.
    static let header = "Geo-Position"

    /// Parses the header; absent is `nil`, malformed is a 400 problem. The separator may come percent-encoded
    /// (`%3B`): OpenAPI clients such as swift-openapi-generator's escape `;` in a header parameter.
    static func parse(_ value: String?) throws -> ClientPosition? {
        guard let value = value?.replacingOccurrences(of: "%3B", with: ";", options: .caseInsensitive) else {
            return nil
        }
        let parts = value.split(separator: ";", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard parts.count >= 2, let latitude = parts[0], let longitude = parts[1] else {
            throw Problem.badRequest(
                "invalid_position", "\(header) must be '<latitude>;<longitude>' in decimal degrees.")
        }
        try Validate.coordinate(latitude: latitude, longitude: longitude)
        return ClientPosition(latitude: latitude, longitude: longitude)
    }
}

extension Request {
    /// The client's position from the request's `Geo-Position` header, if sent.
    func clientPosition() throws -> ClientPosition? {
        try ClientPosition.parse(headers[HTTPField.Name(ClientPosition.header)!])
    }

    /// `sort` (new or top), `limit` and `cursor` of a post list.
    func postListQuery() throws -> (PostOrder, PageRequest) {
        let sort = uri.queryParameters["sort"].map(String.init) ?? "new"
        guard let order = PostOrder(rawValue: sort) else {
            throw Problem.invalidField("sort", "must be new or top.")
        }
        return (order, try pageRequest())
    }
}
