/// The JSON payload of a SafetyNet attestation response (Google SafetyNet Attestation API,
/// "Response format"), as far as WebAuthn L3 §8.5 and this server's policy read it.
struct SafetyNetPayload: Decodable {
    /// base64 (standard, padded) of the nonce the app passed: SHA-256(authenticatorData ‖ clientDataHash).
    let nonce: String
    /// When Google's servers produced the response, milliseconds since the Unix epoch.
    let timestampMs: Int64
    /// Whether the device passed Android compatibility testing (not required, see docs/webauthn.md).
    let ctsProfileMatch: Bool?
    /// Whether the device and OS passed the basic integrity check (required).
    let basicIntegrity: Bool?
}
