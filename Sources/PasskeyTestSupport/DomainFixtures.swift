package import Foundation
package import PasskeyDomain

/// Valid domain values for tests; each parameter can be changed on its own.
package enum DomainFixtures {
    package static func account(
        id: AccountID = AccountID(), displayName: String = "Taro Yamada", createdAt: Date = now()
    ) -> Account {
        Account(id: id, displayName: DisplayName(displayName)!, createdAt: createdAt)
    }

    /// The current time at the microsecond precision PostgreSQL keeps, so stored values compare equal.
    package static func now() -> Date {
        let micros = (Date().timeIntervalSince1970 * 1_000_000).rounded()
        let seconds = (micros / 1_000_000).rounded(.down)
        return Date(timeIntervalSince1970: seconds + (micros - seconds * 1_000_000) / 1_000_000)
    }

    package static func email(
        _ address: String = "user-\(UUID().uuidString.prefix(8))@example.com", accountID: AccountID
    )
        -> AccountEmail
    {
        AccountEmail(accountID: accountID, email: EmailAddress(address)!)
    }

    package static func credentialID(_ bytes: [UInt8]? = nil) -> CredentialID {
        CredentialID(bytes: bytes ?? (0..<32).map { _ in UInt8.random(in: 0...255) })!
    }

    package static func passkey(
        id: CredentialID = credentialID(), accountID: AccountID, signCount: UInt32 = 0,
        backupEligible: Bool = true, backupState: Bool = true, transports: [String] = ["internal", "hybrid"],
        name: String = "iCloud Keychain", createdAt: Date = now(), lastUsedAt: Date? = nil
    ) -> PasskeyCredential {
        PasskeyCredential(
            id: id, accountID: accountID, publicKey: [0xA5, 0x01, 0x02, 0x03, 0x26], algorithm: -7,
            signCount: signCount, aaguid: AAGUID(string: "fbfc3007-154e-4ecc-8c0b-6e020557d7bd")!,
            transports: transports, backupEligible: backupEligible, backupState: backupState,
            attestationFormat: "none", attestationType: .none, residentKey: true, userVerified: true,
            name: PasskeyName(name)!, createdAt: createdAt, lastUsedAt: lastUsedAt)
    }

    package static func session(
        accountID: AccountID, method: AuthenticationMethod = .password, createdAt: Date = Date(),
        lifetime: TimeInterval = 3600
    ) -> AuthenticationSession {
        AuthenticationSession(
            accountID: accountID, tokenDigest: (0..<32).map { _ in UInt8.random(in: 0...255) }, method: method,
            createdAt: createdAt, expiresAt: createdAt.addingTimeInterval(lifetime))
    }

    package static func challenge() -> Challenge {
        Challenge(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) })
    }
}
