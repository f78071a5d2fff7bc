extension PasskeyUserVerification {
    /// The option's value; one WebAuthn does not define counts as its default, `preferred`.
    init(wire: String) { self = Self(rawValue: wire) ?? .preferred }
}

extension PasskeyAttestationPreference {
    /// The option's value; one WebAuthn does not define counts as its default, `none`.
    init(wire: String) { self = Self(rawValue: wire) ?? .none }
}
