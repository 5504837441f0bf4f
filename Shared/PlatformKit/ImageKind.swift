import Foundation
import NIOPosix

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

    /// Checks an uploaded image (not empty, at most `maximumBytes`, a well-formed JPEG, PNG or WebP) and returns it
    /// without metadata that could tell where it was taken or on what; `field` names the upload in problems.
    ///
    /// Parsing a few MiB is real work, so it runs on the thread pool, off the event loop.
    public static func clean(_ bytes: some Collection<UInt8>, maximumBytes: Int, field: String = "body") async throws
        -> CleanImage
    {
        guard !bytes.isEmpty else { throw Problem.badRequest("empty_image", "The image is empty.") }
        guard bytes.count <= maximumBytes else { throw Problem.payloadTooLarge(limit: maximumBytes) }
        guard let kind = detect(bytes) else {
            throw Problem.unsupportedMediaType("The upload is not a JPEG, PNG or WebP image.")
        }
        let raw = Array(bytes)
        do {
            let (clean, size) = try await NIOThreadPool.singleton.runIfActive {
                let clean = try ImageSanitizer.sanitize(raw, as: kind)
                return (clean, ImageSize.read(clean, as: kind))
            }
            return CleanImage(kind: kind, bytes: Data(clean), size: size)
        } catch let malformed as ImageSanitizer.Malformed {
            throw Problem(
                status: 400, code: "invalid_image", title: "Invalid image",
                detail: "\(field): the \(kind.name) is malformed (\(malformed.reason)).",
                errors: [.init(field: field, reason: "is not a well-formed \(kind.name) (\(malformed.reason)).")])
        }
    }

    /// How people call the format.
    var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .webp: "WebP"
        }
    }
}

/// An uploaded image that passed ``ImageKind/clean(_:maximumBytes:field:)``: its format and metadata-free bytes.
public struct CleanImage: Sendable {
    /// The container format.
    public let kind: ImageKind
    /// The image as it is stored and served.
    public let bytes: Data
    /// Its size as shown, from its header; `nil` when the header does not say (``ImageSize/read(_:as:)``).
    public let size: ImageSize?

    /// The media type to serve it with.
    public var mediaType: String { kind.mediaType }
}
