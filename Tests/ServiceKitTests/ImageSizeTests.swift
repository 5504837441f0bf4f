import Foundation
import PlatformKit
import TestSupport
import Testing

/// An image's size as shown, from its header alone; any byte sequence answers a size or `nil`, never a crash.
@Suite struct ImageSizeTests {
    typealias Bytes = ImageSanitizerTests

    /// A JPEG whose frame header says 640 wide and 480 high, after the EXIF segment (orientation 6) when `turned`.
    static func jpeg(turned: Bool) -> [UInt8] {
        let frame = Bytes.segment(0xC2, [8] + Bytes.be16(480) + Bytes.be16(640) + [1, 1, 0x11, 0])
        let exif = turned ? ImageSanitizer.orientationSegment(6) : []
        return [0xFF, 0xD8] + Bytes.app0 + exif + Bytes.segment(0xDB, [0] + Array(repeating: 1, count: 64))
            + frame + Bytes.segment(0xDA, [1, 1, 0, 0, 63, 0]) + [0x12, 0xFF, 0xD9]
    }

    @Test func aJPEGSaysItsFrameAndAQuarterTurnSwapsIt() {
        #expect(ImageSize.read(Self.jpeg(turned: false), as: .jpeg) == ImageSize(width: 640, height: 480))
        #expect(ImageSize.read(Self.jpeg(turned: true), as: .jpeg) == ImageSize(width: 480, height: 640))
        #expect(ImageSize.read(Array(TestImages.jpeg()), as: .jpeg) == ImageSize(width: 1, height: 1))
    }

    @Test func aPNGSaysItsHeaderAndItsEXIfChunkTurnsIt() {
        let png = Array(TestImages.png(width: 800, height: 600))
        #expect(ImageSize.read(png, as: .png) == ImageSize(width: 800, height: 600))
        let ihdr = Bytes.chunk("IHDR", Bytes.be32(800) + Bytes.be32(600) + [8, 0, 0, 0, 0])
        let turned = ImageSanitizer.pngSignature + ihdr + ImageSanitizer.orientationChunk(8) + Bytes.idat + Bytes.iend
        #expect(ImageSize.read(turned, as: .png) == ImageSize(width: 600, height: 800))
    }

    @Test func aWebPSaysItsCanvasOrItsFrame() {
        // VP8X canvas 300 x 200 (each stored minus one, 24 bits little-endian).
        let vp8x = Bytes.riff(
            Bytes.riffChunk("VP8X", [0, 0, 0, 0] + [43, 1, 0] + [199, 0, 0]) + Bytes.vp8l)
        #expect(ImageSize.read(vp8x, as: .webp) == ImageSize(width: 300, height: 200))
        // VP8L: 14 bits of width - 1 then 14 bits of height - 1: 100 x 50.
        let bits = 99 | 49 << 14
        let lossless = Bytes.riff(
            Bytes.riffChunk("VP8L", [0x2F] + Bytes.le32(bits) + Array(repeating: 0, count: 10)))
        #expect(ImageSize.read(lossless, as: .webp) == ImageSize(width: 100, height: 50))
        // VP8 key frame: frame tag, start code, 14-bit width and height: 320 x 240.
        let lossy = Bytes.riff(
            Bytes.riffChunk("VP8 ", [0x10, 0x02, 0x00, 0x9D, 0x01, 0x2A, 0x40, 0x01, 0xF0, 0x00, 0, 0]))
        #expect(ImageSize.read(lossy, as: .webp) == ImageSize(width: 320, height: 240))
        #expect(ImageSize.read(Array(TestImages.webp()), as: .webp) == ImageSize(width: 1, height: 1))
    }

    @Test func aHeaderSayingZeroOrNothingIsNoSize() {
        #expect(ImageSize.read(Array(TestImages.png(width: 0, height: 5)), as: .png) == nil)
        #expect(ImageSize.read([0xFF, 0xD8, 0xFF, 0xDA, 0, 2], as: .jpeg) == nil)
        #expect(ImageSize.read(Array("RIFF\0\0\0\0WEBPnope".utf8) + Array(repeating: 0, count: 20), as: .webp) == nil)
    }

    /// Every prefix of a valid image, and seeded random bytes behind each format's signature, answer without a crash.
    @Test func cutOrHostileHeadersNeverCrash() {
        let images: [([UInt8], ImageKind)] = [
            (Self.jpeg(turned: true), .jpeg), (Array(TestImages.png(width: 9, height: 9)), .png),
            (Bytes.webp, .webp),
        ]
        for (image, kind) in images {
            for length in 0...image.count { _ = ImageSize.read(Array(image.prefix(length)), as: kind) }
        }
        var random = SplitMix64(seed: 48)
        for _ in 0..<2_000 {
            let noise = (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = ImageSize.read([0xFF, 0xD8] + noise, as: .jpeg)
            _ = ImageSize.read(ImageSanitizer.pngSignature + noise, as: .png)
            _ = ImageSize.read(Array("RIFF".utf8) + Bytes.le32(noise.count + 4) + Array("WEBP".utf8) + noise, as: .webp)
        }
    }
}
