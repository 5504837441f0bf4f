import PlatformKit
import Testing

/// Uploaded images are rebuilt without place or device metadata; any byte sequence is refused or sanitised, never
/// a crash.
@Suite struct ImageSanitizerTests {
    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func be32(_ v: Int) -> [UInt8] { be16(v >> 16) + be16(v & 0xFFFF) }
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + be16(payload.count + 2) + payload
    }
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(data.count) + typed + be32(Int(ImageSanitizer.crc32(typed[...])))
    }

    /// Big-endian TIFF: IFD0 with Orientation 6 and a GPS IFD pointer; the GPS IFD holds GPSLatitudeRef "N".
    static let tiff: [UInt8] = {
        var t: [UInt8] = [0x4D, 0x4D, 0, 0x2A] + be32(8) + be16(2)
        t += be16(0x0112) + be16(3) + be32(1) + be16(6) + be16(0)
        t += be16(0x8825) + be16(4) + be32(1) + be32(38) + be32(0)
        t += be16(1) + be16(0x0001) + be16(2) + be32(2) + [0x4E, 0, 0, 0] + be32(0)
        return t
    }()
    static let app0 = segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
    /// Quantisation table, frame, scan header, entropy-coded data (with a stuffed 0xFF00 and a restart), EOI.
    static let imageData =
        segment(0xDB, [0] + Array(repeating: 1, count: 64)) + segment(0xC0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0])
        + segment(0xDA, [1, 1, 0, 0, 63, 0]) + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0xD9]
    static let jpeg: [UInt8] =
        [0xFF, 0xD8] + app0 + segment(0xE1, Array("Exif\0\0".utf8) + tiff) + segment(0xFE, Array("home".utf8))
        + segment(0xED, [1, 2, 3]) + imageData
    static let ihdr = chunk("IHDR", be32(1) + be32(1) + [8, 0, 0, 0, 0])
    static let idat = chunk("IDAT", [0x78, 0x9C, 0x63, 0, 0, 0, 1, 0, 1])
    static let iend = chunk("IEND", [])
    static let png =
        ImageSanitizer.pngSignature + ihdr + chunk("tEXt", Array("GPS\0home".utf8)) + chunk("eXIf", tiff)
        + chunk("prVt", [1, 2]) + chunk("pHYs", be32(1) + be32(1) + [0]) + idat + iend

    static func le32(_ v: Int) -> [UInt8] {
        [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
    }
    static func riffChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        Array(type.utf8) + le32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
    }
    static func riff(_ chunks: [UInt8]) -> [UInt8] {
        Array("RIFF".utf8) + le32(chunks.count + 4) + Array("WEBP".utf8) + chunks
    }
    /// VP8X with the ICC, EXIF and XMP flags set, then ICCP, a lossless bitstream (odd length: padded), EXIF, XMP.
    static let vp8x = riffChunk("VP8X", [0x2C, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    static let iccp = riffChunk("ICCP", [9, 9])
    static let vp8l = riffChunk("VP8L", [0x2F, 0, 0, 0, 0x10])
    static let webp = riff(
        vp8x + iccp + vp8l + riffChunk("EXIF", tiff) + riffChunk("XMP ", Array("<x:xmpmeta/>".utf8))
            + riffChunk("GPSx", [1, 2]))

    @Test func aJPEGLosesExifCommentsAndIPTCButKeepsItsOrientationAndImageData() throws {
        let clean = try ImageSanitizer.sanitizeJPEG(Self.jpeg)
        #expect(clean == [0xFF, 0xD8] + Self.app0 + ImageSanitizer.orientationSegment(6) + Self.imageData)
        #expect(try ImageSanitizer.sanitizeJPEG(clean) == clean)
        let orientation = ImageSanitizer.orientationSegment(6)
        #expect(ImageSanitizer.exifOrientation(Array(orientation.dropFirst(10))) == 6)
    }

    @Test func aPNGKeepsOnlyTheChunksThatDrawItAndItsOrientation() throws {
        let clean = try ImageSanitizer.sanitizePNG(Self.png)
        let pHYs = Self.chunk("pHYs", Self.be32(1) + Self.be32(1) + [0])
        #expect(
            clean == ImageSanitizer.pngSignature + Self.ihdr + ImageSanitizer.orientationChunk(6) + pHYs + Self.idat
                + Self.iend)
        #expect(try ImageSanitizer.sanitizePNG(clean) == clean)
        // a critical chunk nobody can draw is refused, not passed on
        let unknown = ImageSanitizer.pngSignature + Self.ihdr + Self.chunk("ZZZZ", []) + Self.idat + Self.iend
        #expect(throws: ImageSanitizer.Malformed.self) { try ImageSanitizer.sanitizePNG(unknown) }
        #expect(ImageSanitizer.crc32(Array("IEND".utf8)[...]) == 0xAE42_6082)
    }

    @Test func aWebPLosesExifAndXMPAndTheirFlags() throws {
        let clean = try ImageSanitizer.sanitizeWebP(Self.webp)
        let flags = Self.riffChunk("VP8X", [0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(clean == Self.riff(flags + Self.iccp + Self.vp8l))
        #expect(try ImageSanitizer.sanitizeWebP(clean) == clean)
        let simple = Self.riff(Self.vp8l)
        #expect(try ImageSanitizer.sanitizeWebP(simple) == simple)
        // a second bitstream after a simple one, a size that is not the file's, a foreign first chunk
        for bad in [
            Self.riff(Self.vp8l + Self.vp8l), Self.riff(Self.vp8l) + [0, 0], Self.riff(Self.iccp + Self.vp8l),
            Self.riff([]), Self.riff(Self.riffChunk("VP8X", [0, 0, 0])),
        ] {
            #expect(throws: ImageSanitizer.Malformed.self) { try ImageSanitizer.sanitizeWebP(bad) }
        }
    }

    @Test func aCMYKJPEGKeepsItsAdobeSegment() throws {
        let adobe = Self.segment(0xEE, Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 2])
        let jpeg =
            [0xFF, 0xD8] + adobe + Self.segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0".utf8)) + Self.imageData
        #expect(try ImageSanitizer.sanitizeJPEG(jpeg) == [0xFF, 0xD8] + adobe + Self.imageData)
        // whatever follows the end of the image (a second picture, an archive) is not kept
        #expect(try ImageSanitizer.sanitizeJPEG(jpeg + Self.jpeg) == [0xFF, 0xD8] + adobe + Self.imageData)
    }

    @Test func malformedContainersAreRefused() {
        var badCRC = Self.png
        badCRC[40] ^= 1
        #expect(throws: ImageSanitizer.Malformed.self) { try ImageSanitizer.sanitizePNG(badCRC) }
        #expect(throws: ImageSanitizer.Malformed.self) {
            try ImageSanitizer.sanitizePNG(ImageSanitizer.pngSignature + [1, 2, 3, 4, 5])
        }
        #expect(throws: ImageSanitizer.Malformed.self) {
            try ImageSanitizer.sanitizeJPEG([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0])
        }
        for n in 0..<Self.jpeg.count {
            let truncated = Array(Self.jpeg.prefix(n))
            #expect(throws: ImageSanitizer.Malformed.self) { try ImageSanitizer.sanitizeJPEG(truncated) }
        }
        for n in 0..<Self.png.count {
            let truncated = Array(Self.png.prefix(n))
            #expect(throws: ImageSanitizer.Malformed.self) { try ImageSanitizer.sanitizePNG(truncated) }
        }
        for n in 0..<Self.webp.count {
            let truncated = Array(Self.webp.prefix(n))
            #expect(throws: ImageSanitizer.Malformed.self) { try ImageSanitizer.sanitizeWebP(truncated) }
        }
    }

    @Test func seededRandomBytesNeverCrash() {
        var state: UInt64 = 42
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        for _ in 0..<5_000 {
            var bytes = [Self.jpeg, Self.png, Self.webp][Int(next() % 3)]
            for _ in 0..<(1 + Int(next() % 6)) { bytes[Int(next() % UInt64(bytes.count))] = UInt8(next() & 0xFF) }
            _ = try? ImageSanitizer.sanitizeJPEG(bytes)
            _ = try? ImageSanitizer.sanitizePNG(bytes)
            _ = try? ImageSanitizer.sanitizeWebP(bytes)
            let random = (0..<Int(next() % 64)).map { _ in UInt8(next() & 0xFF) }
            _ = try? ImageSanitizer.sanitizeJPEG([0xFF, 0xD8] + random)
            _ = try? ImageSanitizer.sanitizePNG(ImageSanitizer.pngSignature + random)
            _ = try? ImageSanitizer.sanitizeWebP(Self.riff(random))
        }
    }
}
