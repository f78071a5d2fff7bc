/// The authenticator-data flags a test sets (WebAuthn L3 §6.1).
package struct SoftwareAuthenticatorFlags: Sendable {
    package var userPresent = true
    package var userVerified = true
    package var backupEligible = false
    package var backupState = false
    /// Nil: set exactly when attested credential data is included.
    package var attestedCredentialData: Bool?
    /// Nil: set exactly when extensions are included.
    package var extensionData: Bool?

    package init() {}

    func byte(hasAttestedCredentialData: Bool, hasExtensions: Bool) -> UInt8 {
        var value: UInt8 = 0
        if userPresent { value |= 0x01 }
        if userVerified { value |= 0x04 }
        if backupEligible { value |= 0x08 }
        if backupState { value |= 0x10 }
        if attestedCredentialData ?? hasAttestedCredentialData { value |= 0x40 }
        if extensionData ?? hasExtensions { value |= 0x80 }
        return value
    }
}
