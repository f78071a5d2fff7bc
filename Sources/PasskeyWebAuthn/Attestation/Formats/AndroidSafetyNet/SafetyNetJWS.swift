internal import Foundation
internal import PasskeyDomain
internal import PasskeyOpenSSL

/// A SafetyNet attestation response: a JWS in compact serialization (RFC 7515 §7.1),
/// `BASE64URL(header) . BASE64URL(payload) . BASE64URL(signature)`, parsed with limits.
package struct SafetyNetJWS {
    /// Largest response accepted (real ones are 5–9 KiB).
    static let maximumLength = 32 * 1024
    /// Largest single x5c entry (base64 text).
    static let maximumCertificateLength = 8 * 1024

    let header: SafetyNetJWSHeader
    let algorithm: JWSAlgorithm
    /// The header's x5c, leaf first.
    let certificates: [Certificate]
    let payload: SafetyNetPayload
    /// The ASCII bytes `header.payload` the signature covers.
    let signingInput: [UInt8]
    let signature: [UInt8]

    /// Parses the compact JWS; nil when anything is malformed, over a limit or of an unknown `alg`.
    package init?(_ bytes: [UInt8]) {
        guard bytes.count <= Self.maximumLength else { return nil }
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 3, let headerPart = parts.first, let payloadPart = parts.dropFirst().first,
            let signaturePart = parts.last,
            let headerJSON = Self.decode(headerPart), let payloadJSON = Self.decode(payloadPart),
            let signature = Self.decode(signaturePart), !signature.isEmpty
        else { return nil }
        let decoder = JSONDecoder()
        guard let header = try? decoder.decode(SafetyNetJWSHeader.self, from: Data(headerJSON)),
            let algorithm = JWSAlgorithm(rawValue: header.alg),
            let payload = try? decoder.decode(SafetyNetPayload.self, from: Data(payloadJSON)),
            !header.x5c.isEmpty, header.x5c.count <= X5CChain.maximumLength
        else { return nil }
        var certificates: [Certificate] = []
        for encoded in header.x5c {
            // x5c entries are standard base64 (RFC 7515 §4.1.6), not base64url.
            guard encoded.utf8.count <= Self.maximumCertificateLength,
                let der = Data(base64Encoded: encoded), let certificate = try? Certificate(der: [UInt8](der))
            else { return nil }
            certificates.append(certificate)
        }
        self.header = header
        self.algorithm = algorithm
        self.certificates = certificates
        self.payload = payload
        self.signingInput = Array(headerPart) + [UInt8(ascii: ".")] + Array(payloadPart)
        self.signature = signature
    }

    /// Whether the leaf certificate's key signed `header.payload` with the header's `alg`.
    var signatureIsValid: Bool {
        // An RSA key outside the contract's bounds is refused before it computes anything.
        guard let leaf = certificates.first, let key = try? leaf.publicKey(), AttestationKeyBounds.allow(key),
            let signature = algorithm.opensslSignature(signature)
        else { return false }
        return key.verify(signature: signature, message: signingInput, scheme: algorithm.scheme)
    }

    /// One base64url part (no padding, RFC 7515 §2), or nil.
    private static func decode(_ part: ArraySlice<UInt8>) -> [UInt8]? {
        guard !part.isEmpty, let text = String(validating: part, as: UTF8.self) else { return nil }
        return Base64URL.decode(text)
    }
}
