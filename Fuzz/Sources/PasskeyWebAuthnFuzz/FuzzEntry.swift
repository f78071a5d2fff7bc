internal import PasskeyJSON
internal import PasskeyWebAuthn

/// The fuzz callback (passed to libFuzzer's driver in main.swift): feeds the same bytes to every strict parser of the verifier
/// (CBOR, attestation object, authenticator data, COSE key, client data, TPM structures, the
/// Android key attestation extension, the SafetyNet JWS, the flat JSON reader). Parsers must
/// never trap or allocate without bound; outcomes are ignored, except for the client data, whose
/// fast reader must agree with JSONDecoder on every input (it traps when they differ).
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let decoder = CBORDecoder()
    _ = try? decoder.decode(bytes)
    _ = try? decoder.decodePrefix(bytes[...])
    if let object = AttestationObject(bytes: bytes, decoder: decoder) {
        if let authenticatorData = try? AuthenticatorData(bytes: object.authenticatorDataBytes, decoder: decoder),
            let credential = authenticatorData.attestedCredentialData
        {
            _ = try? COSEKey(credential.publicKey)
        }
    }
    _ = try? AuthenticatorData(bytes: bytes, decoder: decoder)
    _ = try? COSEKey(bytes: bytes)
    _ = FlatJSONObject(bytes)
    let clientData = CollectedClientData(bytes: bytes)
    let decoded = CollectedClientData.decodedByFoundation(bytes)
    if let clientData, let decoded {
        precondition(
            clientData.type == decoded.type && clientData.challenge == decoded.challenge
                && clientData.origin == decoded.origin && clientData.crossOrigin == decoded.crossOrigin
                && clientData.topOrigin == decoded.topOrigin, "the fast client data reader disagrees with JSONDecoder")
    } else {
        precondition((clientData == nil) == (decoded == nil), "the fast client data reader disagrees with JSONDecoder")
    }
    _ = TPMSAttest(bytes: bytes)
    _ = TPMTPublic(bytes: bytes)
    _ = AndroidKeyDescription(extensionValue: bytes)
    _ = SafetyNetJWS(bytes)
    return 0
}
