/// Whether attestation must chain to a configured trust anchor (WebAuthn L3 §7.1 steps 24–25).
package enum AttestationPolicy: String, Sendable, Hashable {
    /// Signatures and certificate requirements are verified; an unknown CA is accepted and
    /// the attestation type recorded (the server default).
    case any
    /// Additionally, the x5c chain must verify to a configured anchor at the verification time;
    /// `none` and self attestation are refused as `untrustedAttestation`.
    case trusted
}
