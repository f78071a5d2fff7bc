/// What kind of attestation a registration carried (WebAuthn L3 §6.5.4).
package enum AttestationType: String, Hashable, Sendable {
    case none
    case `self`
    case basic
    case attCA = "attca"
    case anonCA = "anonca"
}
