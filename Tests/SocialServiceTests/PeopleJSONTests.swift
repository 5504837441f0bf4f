import Foundation
import PlatformKit
import Testing

@testable import SocialService

/// People write their JSON by hand (``UserSummary/writeJSON(to:)``); Foundation's encoder, which the platform falls
/// back to and which reads `encode(to:)`, must give the same bytes for every list of people.
@Suite struct PeopleJSONTests {
    @Test func theHandWrittenPageIsTheEncodedPage() throws {
        var generator = SystemRandomNumberGenerator()
        let names = ["Ann 漢字", "a/b\\c \"quoted\"", "tab\there", "line\nbreak", "\u{1}\u{1f}", "🙂", ""]
        for _ in 0..<300 {
            let people = (0..<Int.random(in: 0...20, using: &generator)).map { _ in
                let profile = ProfileRecord(
                    userId: UUID().uuidString,
                    username: Bool.random(using: &generator) ? names.randomElement(using: &generator) : nil,
                    displayName: names.randomElement(using: &generator)!,
                    avatarUrl: Bool.random(using: &generator) ? "https://cdn.example/a b/\(names.count).png" : nil,
                    fetchedAt: Date())
                return UserSummary(Bool.random(using: &generator) ? profile : nil, id: profile.userId)
            }
            let page = Page(items: people, nextCursor: Bool.random(using: &generator) ? "cursor/1" : nil)
            let written = try PlatformJSONWriter.encode(page)
            let encoded = try PlatformJSON.encoder.encode(page)
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: encoded, as: UTF8.self))
        }
    }
}
