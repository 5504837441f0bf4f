import NIOCore
import NIOHTTP1

/// The HTTP/1.1 bytes the gateway writes itself: request heads to services, its own responses, chunk framing.
///
/// Every field written comes from a head NIO's parser accepted (the client's request), from a service's answer
/// the gateway read (`UpstreamResponseHead`), or from the gateway's own constants and ids: none holds CR or LF.
enum WireFormat {
    static let crlf = ByteBuffer(string: "\r\n")
    /// The end of a chunked body (no trailer fields).
    static let lastChunk = ByteBuffer(string: "0\r\n\r\n")

    /// The size line before a chunk of `length` bytes.
    static func chunkSizeLine(_ length: Int) -> ByteBuffer {
        ByteBuffer(string: String(length, radix: 16) + "\r\n")
    }

    /// Writes `name: value` and its CRLF.
    static func writeField(_ name: String, _ value: String, into buffer: inout ByteBuffer) {
        buffer.writeString(name)
        buffer.writeStaticString(": ")
        buffer.writeString(value)
        buffer.writeStaticString("\r\n")
    }

    /// Writes `name: value` and its CRLF, the value given as bytes.
    static func writeField(_ name: String, _ value: UnsafeRawBufferPointer, into buffer: inout ByteBuffer) {
        buffer.writeString(name)
        buffer.writeStaticString(": ")
        buffer.writeBytes(value)
        buffer.writeStaticString("\r\n")
    }

    /// A request line, `HTTP/1.1`.
    static func writeRequestLine(_ method: HTTPMethod, _ uri: String, into buffer: inout ByteBuffer) {
        buffer.writeString(method.rawValue)
        buffer.writeStaticString(" ")
        buffer.writeString(uri)
        buffer.writeStaticString(" HTTP/1.1\r\n")
    }

    /// A status line in the client's HTTP version.
    static func writeStatusLine(_ status: HTTPResponseStatus, version: HTTPVersion, into buffer: inout ByteBuffer) {
        buffer.writeStaticString(version.minor == 0 ? "HTTP/1.0 " : "HTTP/1.1 ")
        buffer.writeString(String(status.code))
        buffer.writeStaticString(" ")
        buffer.writeString(status.reasonPhrase)
        buffer.writeStaticString("\r\n")
    }

    /// A whole response head of the gateway's own: status line, `headers`, empty line.
    static func responseHead(_ status: HTTPResponseStatus, version: HTTPVersion, headers: HTTPHeaders) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(256)
        writeStatusLine(status, version: version, into: &buffer)
        for (name, value) in headers { writeField(name, value, into: &buffer) }
        buffer.writeStaticString("\r\n")
        return buffer
    }
}
