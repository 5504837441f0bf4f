import Foundation
import PlatformKit
import TestSupport
import Testing

@testable import NotificationsService

/// Notices write their JSON by hand (``NotificationView/writeJSON(to:)``); Foundation's encoder, which the platform
/// falls back to and which reads `encode(to:)`, must give the same bytes for every inbox page.
@Suite struct NotificationJSONTests {
    @Test(arguments: propertySeeds()) func theHandWrittenPageIsTheEncodedPage(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let texts = [
            "Bob wants to be your friend 😀", "a/b\\c \"quoted\"", "tab\there", "line\nbreak", "\u{1}\u{1f}", "",
        ]
        for _ in 0..<300 {
            let notices = (0..<Int.random(in: 0...20, using: &generator)).map { _ in
                let createdAt = Date(timeIntervalSince1970: Double.random(in: 0...4_000_000_000, using: &generator))
                let readAt = Bool.random(using: &generator) ? createdAt.addingTimeInterval(0.75) : nil
                return NotificationView(
                    id: UUID().uuidString, kind: texts.randomElement(using: &generator)!,
                    text: texts.randomElement(using: &generator)!, link: "/v1/social/friend-requests?x=1&y=/",
                    producer: texts.randomElement(using: &generator)!, createdAt: createdAt, readAt: readAt,
                    read: readAt != nil)
            }
            let page = Page(items: notices, nextCursor: Bool.random(using: &generator) ? "42" : nil)
            let written = try PlatformJSONWriter.encode(page)
            let encoded = try PlatformJSON.encoder.encode(page)
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: encoded, as: UTF8.self))
        }
    }
}
