/// The flags byte of authenticator data (WebAuthn L3 §6.1).
package struct AuthenticatorFlags: Hashable, Sendable {
    package let rawValue: UInt8

    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0: user present.
    package var userPresent: Bool { rawValue & 0x01 != 0 }
    /// Bit 2: user verified.
    package var userVerified: Bool { rawValue & 0x04 != 0 }
    /// Bit 3: backup eligible.
    package var backupEligible: Bool { rawValue & 0x08 != 0 }
    /// Bit 4: backup state.
    package var backupState: Bool { rawValue & 0x10 != 0 }
    /// Bit 6: attested credential data included.
    package var attestedCredentialData: Bool { rawValue & 0x40 != 0 }
    /// Bit 7: extension data included.
    package var extensionData: Bool { rawValue & 0x80 != 0 }
}
