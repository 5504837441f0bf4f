import Foundation
import PlatformKit
import TestSupport
import Testing

@testable import MessagingService

/// The rules of images in messages: which ids a message may name, which sizes chat shows, what a notice says.
@Suite struct ChatImagesTests {
    static let id = "5f0c6a4e-7d3b-4c1a-9e2f-0a1b2c3d4e5f"

    @Test func aMessageNamesAtMostFourDistinctUploadIds() throws {
        #expect(try ChatImages.imageIDs(nil) == [])
        #expect(try ChatImages.imageIDs([Self.id.uppercased()]) == [Self.id])
        let five = (0..<5).map { _ in UUID().uuidString }
        #expect(throws: MessagingError.invalidField("imageIds", "must name at most 4 images.")) {
            try ChatImages.imageIDs(five)
        }
        #expect(throws: MessagingError.invalidField("imageIds", "must not name an image twice.")) {
            try ChatImages.imageIDs([Self.id, Self.id.uppercased()])
        }
        for bad in ["", "1", "../x", Self.id + "0", "\u{0}"] {
            #expect(throws: MessagingError.invalidField("imageIds", "must hold the ids the image uploads answered.")) {
                try ChatImages.imageIDs([bad])
            }
        }
    }

    @Test func anImageNeedsASizeOfAtMostFiftyMegapixels() async throws {
        let small = try await ImageKind.clean(Array(TestImages.png(width: 640, height: 480)), maximumBytes: 1 << 20)
        #expect(try ChatImages.size(of: small) == ImageSize(width: 640, height: 480))
        let huge = try await ImageKind.clean(Array(TestImages.png(width: 10_000, height: 5_001)), maximumBytes: 1 << 20)
        #expect(throws: MessagingError.self) { try ChatImages.size(of: huge) }
        let edge = try await ImageKind.clean(Array(TestImages.png(width: 10_000, height: 5_000)), maximumBytes: 1 << 20)
        #expect(try ChatImages.size(of: edge) == ImageSize(width: 10_000, height: 5_000))
    }

    @Test func aNoticeOfImagesOnlySaysWhatItHolds() {
        #expect(ChatImages.noticeText("Look", images: 2) == "Look")
        #expect(ChatImages.noticeText("", images: 1) == "📷 Image")
        #expect(ChatImages.noticeText("", images: 3) == "📷 3 images")
    }
}
