internal import Foundation
internal import PasskeyApplication
internal import PasskeyOpenSSL

/// `android-safetynet` (WebAuthn L3 §8.5): a SafetyNet attestation JWS whose nonce binds the
/// credential, signed by Google for attest.android.com.
///
/// Policy (docs/webauthn.md): `basicIntegrity` must be true, `ctsProfileMatch` may be false
/// (as py_webauthn; uncertified but intact devices are common and the credential is still
/// bound); `timestampMs` must lie in [verification time − 60 s, verification time + 10 s].
enum AndroidSafetyNetAttestation {
    /// The hostname Google's attestation signing certificate is issued to.
    static let hostname = "attest.android.com"
    /// How old a response may be at verification (the JWS is fetched right after the user acts).
    static let maximumAge: TimeInterval = 60
    /// How far in the future a response may be dated (clock skew between Google and this server).
    static let maximumFutureSkew: TimeInterval = 10
    /// Longest `ver` accepted.
    static let maximumVersionLength = 64

    static func verify(_ input: AttestationInput) throws(CredentialVerificationFailure) -> AttestationResult {
        // Step 1: attStmt syntax; ver is the (non-empty) Google Play Services version.
        guard case .text(let version)? = input.statement[text: "ver"], !version.isEmpty,
            version.utf8.count <= maximumVersionLength,
            case .bytes(let response)? = input.statement[text: "response"],
            let jws = SafetyNetJWS(response)
        else { throw .invalidAttestation }
        // Step 2 (SafetyNet documentation): signed by the leaf of x5c, issued to attest.android.com.
        guard jws.signatureIsValid, let leaf = jws.certificates.first, isIssuedToAttestationHost(leaf) else {
            throw .invalidAttestation
        }
        // Step 3: nonce = base64(SHA-256(authenticatorData ‖ clientDataHash)), standard with padding.
        let expectedNonce = Data(Digest.sha256(input.signedBytes)).base64EncodedString()
        guard ConstantTime.equals(Array(jws.payload.nonce.utf8), Array(expectedNonce.utf8)) else {
            throw .invalidAttestation
        }
        // Policy: integrity and freshness.
        guard jws.payload.basicIntegrity == true,
            isFresh(timestampMs: jws.payload.timestampMs, at: input.verificationTime)
        else { throw .invalidAttestation }
        return AttestationResult(type: .basic, trustPath: jws.certificates)
    }

    /// RFC 6125 §6.4.4: the subjectAltName dNSNames when the extension is present, else the subject CN.
    static func isIssuedToAttestationHost(_ leaf: Certificate) -> Bool {
        if let value = leaf.extensionValue(oid: SubjectAlternativeName.extensionOID) {
            guard let san = SubjectAlternativeName(extensionValue: value) else { return false }
            return san.dnsNames.contains(hostname)
        }
        return leaf.subject(.commonName) == [hostname]
    }

    /// Whether `timestampMs` lies in [time − maximumAge, time + maximumFutureSkew].
    static func isFresh(timestampMs: Int64, at time: Date) -> Bool {
        let nowMs = (time.timeIntervalSince1970 * 1000).rounded()
        let timestamp = Double(timestampMs)
        return timestamp >= nowMs - maximumAge * 1000 && timestamp <= nowMs + maximumFutureSkew * 1000
    }
}
