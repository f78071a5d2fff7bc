/// Where an account is in the move to passkeys (the talk's ① → ② → ③), as tokens and
/// introspection report it (spec v4, "Tokens for the product's other services").
package enum MigrationStage: String, Hashable, Sendable, CaseIterable {
    case passwordOnly = "password-only"
    case passwordAndPasskey = "password-and-passkey"
    case passkeyOnly = "passkey-only"
    /// Neither a password nor a passkey (an account signed up by email and not yet past its
    /// first way in).
    case none

    package init(hasPassword: Bool, hasPasskey: Bool) {
        switch (hasPassword, hasPasskey) {
        case (true, false): self = .passwordOnly
        case (true, true): self = .passwordAndPasskey
        case (false, true): self = .passkeyOnly
        case (false, false): self = .none
        }
    }
}
