/// What the creation options ask the authenticator to convey (WebAuthn L3 §5.4.7): `none`
/// unless the policy checks attestation chains (`PASSKEY_ATTESTATION_POLICY=trusted`), which
/// needs the statement, so `direct`.
package enum AttestationConveyance: String, Hashable, Sendable {
    case none
    case direct
}
