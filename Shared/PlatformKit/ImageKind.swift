/// The image formats the platform accepts for uploads, recognised by their leading bytes, never by a
/// client's `Content-Type` or file name.
public enum ImageKind: String, Sendable, Codable {
    case jpeg, png, webp

    /// The media type to serve the image with.
    public var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        }
    }

    /// Recognises an image by its signature; `nil` for anything else.
    public static func detect(_ bytes: some Collection<UInt8>) -> ImageKind? {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.count == 12, head[0..<4].elementsEqual(Array("RIFF".utf8)),
            head[8..<12].elementsEqual(Array("WEBP".utf8))
        {
            return .webp
        }
        return nil
    }

    /// Checks an uploaded image: not empty, at most `maximumBytes`, and really a JPEG, PNG or WebP.
    public static func validate(_ bytes: some Collection<UInt8>, maximumBytes: Int) throws -> ImageKind {
        guard !bytes.isEmpty else { throw Problem.badRequest("empty_image", "The image is empty.") }
        guard bytes.count <= maximumBytes else { throw Problem.payloadTooLarge(limit: maximumBytes) }
        guard let kind = detect(bytes) else {
            throw Problem.unsupportedMediaType("The upload is not a JPEG, PNG or WebP image.")
        }
        return kind
    }
}
