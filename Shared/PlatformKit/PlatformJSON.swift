import Foundation

/// The platform's JSON coders: camelCase keys as declared, RFC 3339 UTC dates, sorted keys.
public enum PlatformJSON {
    /// The shared decoder.
    public static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    /// The shared encoder.
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        // Byte-identical answers for identical content (the forgot-password answer must not differ).
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()
}
