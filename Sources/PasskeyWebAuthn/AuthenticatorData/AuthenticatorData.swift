internal import PasskeyDomain

/// Authenticator data (WebAuthn L3 §6.1): rpIdHash ‖ flags ‖ signCount ‖ [attested credential data] ‖ [extensions].
package struct AuthenticatorData: Sendable {
    package let relyingPartyIDHash: [UInt8]
    package let flags: AuthenticatorFlags
    package let signCount: UInt32
    package let attestedCredentialData: AttestedCredentialData?
    /// The authenticator extension outputs (a CBOR map) when ED is set.
    package let extensions: CBORValue?
    /// The bytes parsed (hashed and signed as they are).
    package let rawBytes: [UInt8]

    /// Parses authenticator data strictly: lengths checked, flags consistent with content,
    /// no trailing bytes.
    package init(bytes: [UInt8], decoder: CBORDecoder = CBORDecoder()) throws(AuthenticatorDataError) {
        var cursor = ByteCursor(bytes)
        guard let hash = cursor.take(32), let flagByte = cursor.take(1).flatMap(\.first),
            let counter = cursor.take(4)
        else { throw .truncated }
        relyingPartyIDHash = hash
        flags = AuthenticatorFlags(rawValue: flagByte)
        signCount = counter.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        rawBytes = bytes

        if flags.attestedCredentialData {
            guard let aaguidBytes = cursor.take(16), let aaguid = AAGUID(bytes: aaguidBytes),
                let lengthBytes = cursor.take(2)
            else { throw .truncated }
            let length = Int(lengthBytes[0]) << 8 | Int(lengthBytes[1])
            guard let credentialID = cursor.take(length) else { throw .truncated }
            let (key, used): (CBORValue, Int)
            do {
                (key, used) = try decoder.decodePrefix(cursor.rest)
            } catch {
                throw .invalidCredentialPublicKey
            }
            guard case .map = key, let keyBytes = cursor.take(used) else { throw .invalidCredentialPublicKey }
            attestedCredentialData = AttestedCredentialData(
                aaguid: aaguid, credentialID: credentialID, publicKeyBytes: keyBytes, publicKey: key)
        } else {
            attestedCredentialData = nil
        }

        if flags.extensionData {
            let (value, used): (CBORValue, Int)
            do {
                (value, used) = try decoder.decodePrefix(cursor.rest)
            } catch {
                throw .invalidExtensions
            }
            guard case .map = value, cursor.take(used) != nil else { throw .invalidExtensions }
            extensions = value
        } else {
            extensions = nil
        }
        guard cursor.isAtEnd else { throw .trailingBytes }
    }
}
