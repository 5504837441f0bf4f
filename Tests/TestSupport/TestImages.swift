import Foundation

/// Well-formed images of an exact size for upload tests. Their containers are valid and carry no metadata, so the
/// platform stores and serves them byte for byte; the padding sits in the pixel data, which nothing parses.
public enum TestImages {
    /// A PNG of `size` bytes (at least 57) whose header says `width` by `height`: IHDR, one IDAT, IEND.
    public static func png(size: Int = 100, width: Int = 1, height: Int = 1) -> Data {
        precondition(size >= 57, "a PNG has at least 57 bytes")
        let pixels = [UInt8](repeating: 0x42, count: size - 57)
        return Data(
            pngSignature + chunk("IHDR", be32(width) + be32(height) + [8, 0, 0, 0, 0]) + chunk("IDAT", pixels)
                + chunk("IEND", []))
    }

    /// A baseline JPEG of `size` bytes (at least 96): quantisation table, frame, scan, entropy-coded data, EOI.
    public static func jpeg(size: Int = 100) -> Data {
        precondition(size >= 96, "this JPEG has at least 96 bytes")
        let head: [UInt8] =
            [0xFF, 0xD8] + segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
            + segment(0xC0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]) + segment(0xDA, [1, 1, 0, 0, 63, 0])
        return Data(head + [UInt8](repeating: 0x12, count: size - 96) + [0xFF, 0xD9])
    }

    /// A lossless WebP of `size` bytes (even, at least 20): the RIFF header and one VP8L chunk.
    public static func webp(size: Int = 100) -> Data {
        precondition(size >= 20 && size % 2 == 0, "a WebP has an even size of at least 20 bytes")
        let bitstream = [0x2F] + [UInt8](repeating: 0, count: size - 21)
        let padding: [UInt8] = bitstream.count % 2 == 1 ? [0] : []
        return Data(
            Array("RIFF".utf8) + le32(size - 8) + Array("WEBP".utf8) + Array("VP8L".utf8) + le32(bitstream.count)
                + bitstream + padding)
    }

    /// Eight bytes every PNG starts with.
    public static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func be32(_ v: Int) -> [UInt8] {
        [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
    static func le32(_ v: Int) -> [UInt8] { be32(v).reversed() }

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in typed {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return be32(data.count) + typed + be32(Int(crc ^ 0xFFFF_FFFF))
    }
}
