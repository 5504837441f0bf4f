/// An image's size in pixels as it is shown: read from its header, with width and height swapped when its EXIF
/// orientation turns it a quarter (5 to 8), so that a client can lay it out before the bytes arrive.
public struct ImageSize: Sendable, Equatable, Codable {
    /// Pixels across, as shown.
    public var width: Int
    /// Pixels down, as shown.
    public var height: Int

    /// A size of `width` by `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size a JPEG, PNG or WebP header gives; `nil` when the header is missing, cut short or says zero. Reads
    /// only headers: every offset is checked before it is read and every step moves forward, so no byte sequence
    /// crashes it or makes it loop.
    public static func read(_ bytes: [UInt8], as kind: ImageKind) -> ImageSize? {
        let size: ImageSize?
        switch kind {
        case .jpeg: size = jpeg(bytes)
        case .png: size = png(bytes)
        case .webp: size = webp(bytes)
        }
        guard let size, size.width > 0, size.height > 0 else { return nil }
        return size
    }

    /// Width and height swapped when the orientation turns the image a quarter.
    func oriented(_ orientation: UInt16?) -> ImageSize {
        (5...8).contains(orientation ?? 1) ? ImageSize(width: height, height: width) : self
    }

    private static func be16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }

    /// The first frame header (SOF0 to SOF15 but DHT, JPG and DAC) before the scan; an EXIF APP1 before it gives the
    /// orientation.
    private static func jpeg(_ bytes: [UInt8]) -> ImageSize? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var orientation: UInt16?
        var i = 2
        while i < bytes.count, bytes[i] == 0xFF {
            while i < bytes.count, bytes[i] == 0xFF { i += 1 }  // fill bytes
            guard i < bytes.count else { return nil }
            let marker = bytes[i]
            i += 1
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }  // no length
            if marker == 0xD9 || marker == 0xDA || marker == 0x00 || marker == 0xD8 { return nil }
            guard bytes.count - i >= 2 else { return nil }
            let length = be16(bytes, i)
            guard length >= 2, length <= bytes.count - i else { return nil }
            let payload = (i + 2)..<(i + length)
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard payload.count >= 5 else { return nil }
                let start = payload.lowerBound
                return ImageSize(width: be16(bytes, start + 3), height: be16(bytes, start + 1)).oriented(orientation)
            }
            if marker == 0xE1, bytes[payload].starts(with: Array("Exif\0\0".utf8)) {
                orientation = ImageSanitizer.exifOrientation(Array(bytes[payload].dropFirst(6)))
            }
            i += length
        }
        return nil
    }

    /// IHDR (the first chunk), turned by an `eXIf` chunk before the image data.
    private static func png(_ bytes: [UInt8]) -> ImageSize? {
        let signature = ImageSanitizer.pngSignature.count
        guard bytes.starts(with: ImageSanitizer.pngSignature), bytes.count >= signature + 8 + 13,
            bytes[(signature + 4)..<(signature + 8)].elementsEqual("IHDR".utf8)
        else { return nil }
        func be32(_ at: Int) -> Int { be16(bytes, at) << 16 | be16(bytes, at + 2) }
        let size = ImageSize(width: be32(signature + 8), height: be32(signature + 12))
        var i = signature
        while bytes.count - i >= 12 {
            let length = be32(i)
            guard length <= bytes.count - i - 12 else { break }
            let type = bytes[(i + 4)..<(i + 8)]
            if type.elementsEqual("IDAT".utf8) { break }
            if type.elementsEqual("eXIf".utf8) {
                return size.oriented(ImageSanitizer.exifOrientation(Array(bytes[(i + 8)..<(i + 8 + length)])))
            }
            i += 12 + length
        }
        return size
    }

    /// The canvas of `VP8X`, or the frame of a simple lossy (`VP8 `) or lossless (`VP8L`) file.
    private static func webp(_ bytes: [UInt8]) -> ImageSize? {
        guard bytes.count >= 30, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8)
        else { return nil }
        let data = 20  // the first chunk's data, after its type and size
        func le(_ at: Int, _ count: Int) -> Int {
            (0..<count).reduce(0) { value, n in value | Int(bytes[at + n]) << (8 * n) }
        }
        switch String(decoding: bytes[12..<16], as: UTF8.self) {
        case "VP8X":
            return ImageSize(width: le(data + 4, 3) + 1, height: le(data + 7, 3) + 1)
        case "VP8 ":
            // A key frame: a three-byte frame tag, the start code, then 14-bit width and height.
            guard bytes[(data + 3)..<(data + 6)].elementsEqual([0x9D, 0x01, 0x2A]) else { return nil }
            return ImageSize(width: le(data + 6, 2) & 0x3FFF, height: le(data + 8, 2) & 0x3FFF)
        case "VP8L":
            guard bytes[data] == 0x2F else { return nil }
            let bits = le(data + 1, 4)
            return ImageSize(width: (bits & 0x3FFF) + 1, height: (bits >> 14 & 0x3FFF) + 1)
        default:
            return nil
        }
    }
}
