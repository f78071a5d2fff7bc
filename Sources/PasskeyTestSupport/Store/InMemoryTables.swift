package import Foundation
package import PasskeyApplication
package import PasskeyDomain

/// What `InMemoryStore` holds: plain rows, as the tables of the migrations hold them, with their
/// uniqueness and reference rules (a taken address, a registered credential ID, a row of an
/// account that is gone) and nothing else. The rules of the product live in the use cases.
package struct InMemoryTables: Sendable {
    package var accounts: [AccountID: Account] = [:]
    package var emails: [AccountID: AccountEmail] = [:]
    package var passwords: [AccountID: PasswordCredential] = [:]
    /// In insertion order; `passkeys(of:)` orders them as the SQL does.
    package var passkeys: [PasskeyCredential] = []
    package var sessions: [SessionID: AuthenticationSession] = [:]
    package var recoveryCodes: [RecoveryCodeRow] = []
    package var emailCodes: [EmailCodeRow] = []
    package var accountRegistrations: [RegistrationID: AccountRegistrationRow] = [:]
    package var outbox: [OutgoingMail] = []
    package var events: [AccountEvent] = []
    package var signingKeys: [SigningKey] = []
    /// (v4) `accounts.locked_at` and `lock_reason`.
    package var locks: [AccountID: AccountLock] = [:]

    package init() {}

    package struct RecoveryCodeRow: Hashable, Sendable {
        package var code: StoredRecoveryCode
        package var usedAt: Date?
    }

    package struct EmailCodeRow: Hashable, Sendable {
        package var draft: EmailCodeDraft
        package var accountID: AccountID
        package var email: EmailAddress
        package var failedTries = 0
        package var usedAt: Date?
        package var voidedAt: Date?
    }

    package struct AccountRegistrationRow: Hashable, Sendable {
        package var registration: PasskeyAccountRegistration
        package var completedAt: Date?
        package var failedFinishes = 0
    }

    /// The account whose address is `normalizedEmail`.
    package func accountID(normalizedEmail: String) -> AccountID? {
        emails.values.first { $0.email.normalized == normalizedEmail }?.accountID
    }

    /// The account's passkeys, oldest first (then by ID, as `ORDER BY created_at, credential_id`).
    package func passkeys(of accountID: AccountID) -> [PasskeyCredential] {
        passkeys.filter { $0.accountID == accountID }.sorted { a, b in
            a.createdAt != b.createdAt ? a.createdAt < b.createdAt : a.id.bytes.lexicographicallyPrecedes(b.id.bytes)
        }
    }

    /// The account with what a lock reads about it.
    package func locked(_ id: AccountID) -> AccountSnapshot? {
        guard let account = accounts[id], let email = emails[id] else { return nil }
        return AccountSnapshot(
            account: account, email: email.email, emailVerified: email.verifiedAt != nil, language: email.language,
            hasPassword: passwords[id] != nil, lock: locks[id])
    }

    /// Deletes the account and every row that references it (the foreign keys' ON DELETE CASCADE).
    package mutating func cascadeDelete(_ id: AccountID) {
        accounts[id] = nil
        locks[id] = nil
        emails[id] = nil
        passwords[id] = nil
        passkeys.removeAll { $0.accountID == id }
        sessions = sessions.filter { $0.value.accountID != id }
        recoveryCodes.removeAll { $0.code.accountID == id }
        emailCodes.removeAll { $0.accountID == id }
        events.removeAll { $0.accountID == id }
    }
}
