package import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyOpenSSL

/// Builds a registration response from a real key; every field can be changed before `makeResponse()`.
package struct SoftwareAuthenticatorRegistration: Sendable {
    /// How the attestation statement is made.
    package enum Attestation: Sendable {
        case none
        /// `packed` self attestation; `algorithm` overrides attStmt.alg.
        case packedSelf(algorithm: Int? = nil)
        /// Any `fmt` and attStmt, verbatim.
        case custom(format: String, statement: SoftwareAuthenticatorCBOR)
        /// `fmt` with an attStmt built from the signed bytes (authData ‖ clientDataHash).
        case signed(format: String, statement: @Sendable ([UInt8]) throws -> SoftwareAuthenticatorCBOR)
    }

    package var key: SoftwareAuthenticatorKey
    package var clientData: SoftwareAuthenticatorClientData
    /// Replaces the serialised client data entirely when set.
    package var clientDataJSON: [UInt8]?
    package var relyingPartyID: String
    /// Replaces SHA-256(relyingPartyID) when set.
    package var relyingPartyIDHash: [UInt8]?
    package var flags = SoftwareAuthenticatorFlags()
    package var signCount: UInt32 = 0
    package var aaguid = [UInt8](repeating: 0, count: 16)
    package var credentialID = SecureRandom.bytes(count: 32)
    /// The credential ID the client reports (defaults to `credentialID`).
    package var reportedCredentialID: [UInt8]?
    package var includeAttestedCredentialData = true
    /// Replaces the encoded COSE key when set.
    package var coseKeyBytes: [UInt8]?
    package var extensions: SoftwareAuthenticatorCBOR?
    /// Appended after the authenticator data (trailing bytes).
    package var trailingBytes: [UInt8] = []
    package var attestation: Attestation = .none
    /// Flips a bit of the attestation signature (packed self).
    package var corruptAttestationSignature = false

    package init(key: SoftwareAuthenticatorKey, relyingPartyID: String, origin: String, challenge: [UInt8]) {
        self.key = key
        self.relyingPartyID = relyingPartyID
        self.clientData = SoftwareAuthenticatorClientData(type: "webauthn.create", challenge: challenge, origin: origin)
    }

    /// The encoded credential public key.
    package func credentialPublicKey() throws -> [UInt8] { try coseKeyBytes ?? key.coseKey().encoded }

    /// The authenticator data bytes.
    package func authenticatorData() throws -> [UInt8] {
        var bytes = relyingPartyIDHash ?? Digest.sha256(Array(relyingPartyID.utf8))
        bytes.append(
            flags.byte(hasAttestedCredentialData: includeAttestedCredentialData, hasExtensions: extensions != nil))
        bytes += withUnsafeBytes(of: signCount.bigEndian, Array.init)
        if includeAttestedCredentialData {
            bytes += aaguid
            bytes += [
                UInt8(truncatingIfNeeded: credentialID.count >> 8), UInt8(truncatingIfNeeded: credentialID.count),
            ]
            bytes += credentialID
            bytes += try credentialPublicKey()
        }
        if let extensions { bytes += extensions.encoded }
        return bytes + trailingBytes
    }

    /// The response as the client would send it.
    package func makeResponse() throws -> RegistrationResponse {
        let clientDataJSON = self.clientDataJSON ?? clientData.json
        let authData = try authenticatorData()
        let signed = authData + Digest.sha256(clientDataJSON)
        let format: String
        let statement: SoftwareAuthenticatorCBOR
        switch attestation {
        case .none:
            (format, statement) = ("none", .map([]))
        case .packedSelf(let algorithm):
            var signature = try key.sign(signed)
            if corruptAttestationSignature, !signature.isEmpty { signature[signature.count / 2] ^= 0x01 }
            format = "packed"
            statement = .map([
                (.text("alg"), .int(algorithm ?? key.algorithm.rawValue)), (.text("sig"), .bytes(signature)),
            ])
        case .custom(let customFormat, let customStatement):
            (format, statement) = (customFormat, customStatement)
        case .signed(let customFormat, let build):
            (format, statement) = (customFormat, try build(signed))
        }
        let object = SoftwareAuthenticatorCBOR.map([
            (.text("fmt"), .text(format)), (.text("attStmt"), statement), (.text("authData"), .bytes(authData)),
        ])
        return RegistrationResponse(
            credentialID: reportedCredentialID ?? credentialID, clientDataJSON: clientDataJSON,
            attestationObject: object.encoded)
    }
}
