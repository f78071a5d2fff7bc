package import Foundation

/// The primary key of an account. Its 16 raw bytes are the WebAuthn user handle.
package struct AccountID: Hashable, Sendable, CustomStringConvertible {
    package let uuid: UUID
    package init(_ uuid: UUID = UUID()) { self.uuid = uuid }
    /// Parses a lowercase or uppercase UUID string.
    package init?(string: String) {
        guard let uuid = UUID(uuidString: string) else { return nil }
        self.uuid = uuid
    }
    /// Lowercase UUID string, as the wire format wants it.
    package var description: String { uuid.uuidString.lowercased() }
    /// The WebAuthn user handle for this account.
    package var userHandle: UserHandle { UserHandle(accountID: self) }
}

/// Identifies a passkey registration or authentication challenge.
package struct ChallengeID: Hashable, Sendable, CustomStringConvertible {
    package let uuid: UUID
    package init(_ uuid: UUID = UUID()) { self.uuid = uuid }
    package var description: String { uuid.uuidString.lowercased() }
}

/// Identifies an in-flight "new account with a passkey" ceremony.
package struct RegistrationID: Hashable, Sendable, CustomStringConvertible {
    package let uuid: UUID
    package init(_ uuid: UUID = UUID()) { self.uuid = uuid }
    package var description: String { uuid.uuidString.lowercased() }
}

/// Identifies an authentication session (not the bearer token, which is never stored).
package struct SessionID: Hashable, Sendable, CustomStringConvertible {
    package let uuid: UUID
    package init(_ uuid: UUID = UUID()) { self.uuid = uuid }
    package var description: String { uuid.uuidString.lowercased() }
}
