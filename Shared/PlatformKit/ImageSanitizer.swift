/// Parses an uploaded JPEG, PNG or WebP as its container and rebuilds it without metadata that can identify a
/// place or a device (EXIF with GPS, XMP, IPTC, comments, text chunks). Every length is bounded before it is used,
/// so no byte sequence crashes it; a malformed container throws ``ImageSanitizer/Malformed``.
///
/// JPEG keeps the JFIF APP0, ICC_PROFILE APP2 and Adobe APP14 (which says how CMYK data is coded) segments and the
/// image data byte for byte; whatever follows EOI is dropped. Orientation is the one EXIF field kept, because
/// dropping it would show portrait photos on their side: when it is not 1, a minimal EXIF APP1 holding only the
/// Orientation tag is written. PNG keeps the chunks that say how to draw the pixels and drops the rest (text, time,
/// private chunks), and its `eXIf` becomes one holding only the orientation. WebP keeps only its image, alpha,
/// animation and colour-profile chunks (dropping `EXIF`, `XMP ` and any other) and clears the EXIF and XMP flags in
/// `VP8X` (WebP decoders do not apply an EXIF orientation, so none is lost).
public enum ImageSanitizer {
    /// The image rebuilt without metadata, after checking its container.
    public static func sanitize(_ bytes: [UInt8], as kind: ImageKind) throws -> [UInt8] {
        switch kind {
        case .jpeg: try sanitizeJPEG(bytes)
        case .png: try sanitizePNG(bytes)
        case .webp: try sanitizeWebP(bytes)
        }
    }

    /// Why an image was refused (for logs; clients get one `invalid_image` problem).
    public struct Malformed: Error, Equatable, Sendable {
        /// What was wrong, e.g. "JPEG segment length past the end".
        public let reason: String
    }

    // MARK: JPEG

    /// The JPEG without APP1 (EXIF, XMP), APP13 (IPTC), COM and the APPn segments other than JFIF APP0,
    /// ICC_PROFILE APP2 and Adobe APP14.
    public static func sanitizeJPEG(_ bytes: [UInt8]) throws -> [UInt8] {
        func fail(_ reason: String) -> Malformed { Malformed(reason: reason) }
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw fail("JPEG has no SOI") }
        var kept: [ArraySlice<UInt8>] = []
        var orientation: UInt16 = 1
        var i = 2
        while true {
            guard i < bytes.count, bytes[i] == 0xFF else { throw fail("JPEG marker expected") }
            while i < bytes.count, bytes[i] == 0xFF { i += 1 }  // fill bytes
            guard i < bytes.count else { throw fail("JPEG ends inside a marker") }
            let marker = bytes[i]
            let start = i - 1
            i += 1
            if marker == 0xD9 { throw fail("JPEG ends before its image data") }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { kept.append(bytes[start..<i]); continue }
            if marker == 0x00 || marker == 0xD8 { throw fail("JPEG has an invalid marker") }
            guard bytes.count - i >= 2 else { throw fail("JPEG segment length past the end") }
            let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard length >= 2, length <= bytes.count - i else { throw fail("JPEG segment length past the end") }
            let end = i + length
            let payload = bytes[(i + 2)..<end]
            switch marker {
            case 0xE0:
                if payload.starts(with: Array("JFIF\0".utf8)) { kept.append(bytes[start..<end]) }
            case 0xE1:
                if payload.starts(with: Array("Exif\0\0".utf8)),
                    let value = exifOrientation(Array(payload.dropFirst(6)))
                {
                    orientation = value
                }
            case 0xE2:
                if payload.starts(with: Array("ICC_PROFILE\0".utf8)) { kept.append(bytes[start..<end]) }
            case 0xEE:
                if payload.starts(with: Array("Adobe".utf8)) { kept.append(bytes[start..<end]) }
            case 0xE3...0xEF, 0xFE: break
            default: kept.append(bytes[start..<end])
            }
            i = end
            guard marker == 0xDA else { continue }
            // Entropy-coded data runs to the next marker that is not a stuffed 0x00, a fill byte or a restart.
            var j = i
            while true {
                guard j + 1 < bytes.count else { throw fail("JPEG has no EOI") }
                if bytes[j] == 0xFF, bytes[j + 1] != 0x00, bytes[j + 1] != 0xFF, !(0xD0...0xD7).contains(bytes[j + 1]) {
                    break
                }
                j += 1
            }
            kept.append(bytes[i..<j])
            i = j
            if bytes[j + 1] == 0xD9 {
                kept.append(bytes[j..<(j + 2)])
                break
            }
        }
        var out: [UInt8] = [0xFF, 0xD8]
        var segments = kept[...]
        if let first = segments.first, first.count > 1, first[first.startIndex + 1] == 0xE0 {
            out += first
            segments = segments.dropFirst()
        }
        if (2...8).contains(orientation) { out += orientationSegment(orientation) }
        for segment in segments { out += segment }
        return out
    }

    /// The Orientation (0x0112) of IFD0 in a TIFF structure, if present and valid.
    public static func exifOrientation(_ tiff: [UInt8]) -> UInt16? {
        guard tiff.count >= 8 else { return nil }
        let big: Bool
        switch (tiff[0], tiff[1]) {
        case (0x4D, 0x4D): big = true
        case (0x49, 0x49): big = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at <= tiff.count - 2 else { return nil }
            return big ? Int(tiff[at]) << 8 | Int(tiff[at + 1]) : Int(tiff[at + 1]) << 8 | Int(tiff[at])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return big ? a << 16 | b : b << 16 | a
        }
        guard let ifd = u32(4), ifd <= tiff.count, let count = u16(ifd) else { return nil }
        for n in 0..<count {
            let entry = ifd + 2 + n * 12
            guard let tag = u16(entry), let type = u16(entry + 2), let value = u16(entry + 8) else { return nil }
            if tag == 0x0112 {
                guard type == 3, (1...8).contains(value) else { return nil }
                return UInt16(value)
            }
        }
        return nil
    }

    /// A TIFF structure (EXIF's container) holding only the Orientation tag: big-endian, one IFD0 entry.
    static func orientationTIFF(_ orientation: UInt16) -> [UInt8] {
        [
            0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8,  // header, IFD0 at 8
            0, 1,  // one entry
            0x01, 0x12, 0, 3, 0, 0, 0, 1, UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0, 0,
            0, 0, 0, 0,  // no next IFD
        ]
    }

    /// An APP1 segment whose EXIF holds only the Orientation tag.
    public static func orientationSegment(_ orientation: UInt16) -> [UInt8] {
        let payload = Array("Exif\0\0".utf8) + orientationTIFF(orientation)
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// A PNG `eXIf` chunk holding only the Orientation tag.
    public static func orientationChunk(_ orientation: UInt16) -> [UInt8] {
        let typed = Array("eXIf".utf8) + orientationTIFF(orientation)
        let crc = crc32(typed[...])
        let length = typed.count - 4
        return [0, 0, UInt8(length >> 8), UInt8(length & 0xFF)] + typed
            + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }

    // MARK: PNG

    /// The eight bytes every PNG starts with.
    public static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The chunks that say how to draw the pixels (PNG 3rd edition, APNG included); any other chunk may carry
    /// metadata, an unknown critical one cannot be drawn.
    static let keptPNGChunks: Set<String> = [
        "IHDR", "PLTE", "IDAT", "IEND", "tRNS", "cHRM", "gAMA", "iCCP", "sBIT", "sRGB", "cICP", "mDCV", "cLLI",
        "bKGD", "hIST", "pHYs", "sPLT", "acTL", "fcTL", "fdAT",
    ]

    /// The PNG with only the chunks that draw it; IHDR must come first, every CRC must match, IEND must end it.
    public static func sanitizePNG(_ bytes: [UInt8]) throws -> [UInt8] {
        func fail(_ reason: String) -> Malformed { Malformed(reason: reason) }
        guard bytes.starts(with: pngSignature) else { throw fail("PNG has no signature") }
        var out = pngSignature
        var i = pngSignature.count
        var first = true
        while true {
            guard bytes.count - i >= 12 else { throw fail("PNG ends before IEND") }
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length <= 0x7FFF_FFFF, length <= bytes.count - i - 12 else {
                throw fail("PNG chunk length past the end")
            }
            let typeBytes = bytes[(i + 4)..<(i + 8)]
            guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw fail("PNG chunk type is not letters")
            }
            let type = String(decoding: typeBytes, as: UTF8.self)
            let end = i + 12 + length
            let stored =
                UInt32(bytes[end - 4]) << 24 | UInt32(bytes[end - 3]) << 16 | UInt32(bytes[end - 2]) << 8
                | UInt32(bytes[end - 1])
            guard crc32(bytes[(i + 4)..<(end - 4)]) == stored else { throw fail("PNG chunk \(type) has a bad CRC") }
            if first {
                guard type == "IHDR", length == 13 else { throw fail("PNG does not start with IHDR") }
                first = false
            } else if type == "IHDR" {
                throw fail("PNG has a second IHDR")
            }
            if type == "eXIf", let orientation = exifOrientation(Array(bytes[(i + 8)..<(end - 4)])),
                (2...8).contains(orientation)
            {
                out += orientationChunk(orientation)  // the one EXIF field kept, as for JPEG
            } else if keptPNGChunks.contains(type) {
                out += bytes[i..<end]
            } else if (0x41...0x5A).contains(bytes[i + 4]) {
                throw fail("PNG has an unknown critical chunk \(type)")
            }
            i = end
            if type == "IEND" { return out }
        }
    }

    // MARK: WebP

    /// The chunks that draw a WebP (container specification): any other, `EXIF` and `XMP ` included, is dropped.
    static let keptWebPChunks: Set<String> = ["VP8 ", "VP8L", "VP8X", "ALPH", "ANIM", "ANMF", "ICCP"]

    /// The WebP with only the chunks that draw it. The RIFF size must match the file, the first chunk must be `VP8 `,
    /// `VP8L` or a 10-byte `VP8X`, and every chunk must fit.
    public static func sanitizeWebP(_ bytes: [UInt8]) throws -> [UInt8] {
        func fail(_ reason: String) -> Malformed { Malformed(reason: reason) }
        func le32(_ at: Int) -> Int {
            Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8)
        else { throw fail("WebP has no RIFF header") }
        guard le32(4) == bytes.count - 8 else { throw fail("WebP RIFF size does not match the file") }
        var chunks: [[UInt8]] = []
        var extended = false  // VP8X first: alpha, animation and image chunks may follow
        var i = 12
        while i < bytes.count {
            guard bytes.count - i >= 8 else { throw fail("WebP chunk header past the end") }
            let typeBytes = bytes[i..<(i + 4)]
            guard typeBytes.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                throw fail("WebP chunk type is not text")
            }
            let type = String(decoding: typeBytes, as: UTF8.self)
            let size = le32(i + 4)
            let padded = size + size & 1
            guard padded <= bytes.count - i - 8 else { throw fail("WebP chunk \(type) past the end") }
            var chunk = Array(bytes[i..<(i + 8 + padded)])
            if chunks.isEmpty {
                switch type {
                case "VP8 ", "VP8L": break
                case "VP8X":
                    guard size == 10 else { throw fail("WebP VP8X is not 10 bytes") }
                    chunk[8] &= ~0x0C  // the EXIF and XMP flags: those chunks are gone
                    extended = true
                default: throw fail("WebP does not start with VP8, VP8L or VP8X")
                }
            } else if type == "VP8X" || (!extended && (type == "VP8 " || type == "VP8L")) {
                throw fail("WebP has a second image header")
            }
            if keptWebPChunks.contains(type) { chunks.append(chunk) }
            i += 8 + padded
        }
        guard !chunks.isEmpty else { throw fail("WebP has no image") }
        let body = chunks.joined()
        let riffSize = body.count + 4
        return Array("RIFF".utf8)
            + [
                UInt8(riffSize & 0xFF), UInt8(riffSize >> 8 & 0xFF), UInt8(riffSize >> 16 & 0xFF),
                UInt8(riffSize >> 24),
            ]
            + Array("WEBP".utf8) + body
    }

    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// CRC-32 as PNG uses it (ISO 3309 polynomial, reflected).
    public static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
