import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A throwaway certificate for `localhost`, for tests of TLS clients (STARTTLS, HTTP/2 fakes).
public struct SelfSignedCertificate: Sendable {
    /// The certificate in PEM, for a client's trust roots.
    public let certificatePEM: String
    /// A server-side TLS context presenting the certificate.
    public let serverContext: NIOSSLContext
    /// The same as a configuration, for servers that build their own context (HTTP/2 with ALPN).
    public let serverConfiguration: TLSConfiguration
    /// The private key in PEM, for servers in other processes (the real SMTP server of the mail tests).
    public let privateKeyPEM: String

    public static func make(commonName: String = "localhost") throws -> SelfSignedCertificate {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName(commonName) }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(86_400),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                SubjectAlternativeNames([.dnsName(commonName)])
            },
            issuerPrivateKey: .init(key))
        let pem = try certificate.serializeAsPEM().pemString
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(pem.utf8), format: .pem))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem)))
        return SelfSignedCertificate(
            certificatePEM: pem, serverContext: try NIOSSLContext(configuration: configuration),
            serverConfiguration: configuration, privateKeyPEM: key.pemRepresentation)
    }
}
