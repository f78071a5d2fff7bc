internal import PasskeyDomain
internal import PasskeyOpenSSL

/// The outcome of a verification procedure: the attestation type and trust path (x5c, leaf first).
struct AttestationResult {
    let type: AttestationType
    let trustPath: [Certificate]
}
