package import Foundation
package import PasskeyApplication
package import PasskeyDomain

/// The read side of the ports, and the two sign-in statements of the hot path, over the same
/// tables the transactions write: a test sets up rows once and every port sees them.
extension InMemoryStore: AccountRepository, SessionRepository, PasskeyCredentialRepository,
    AccountRegistrationRepository
{
    // MARK: AccountRepository

    package func passwordAccount(normalizedEmail: String) async throws(RepositoryError) -> PasswordAccount? {
        try read { tables in
            guard let id = tables.accountID(normalizedEmail: normalizedEmail), let account = tables.accounts[id],
                let password = tables.passwords[id]
            else { return nil }
            return PasswordAccount(account: account, credential: password, isLocked: tables.locks[account.id] != nil)
        }
    }

    package func updatePasswordHash(accountID: AccountID, from expectedHash: String, to newHash: String, at date: Date)
        async throws(RepositoryError)
    {
        try write { tables in
            guard let password = tables.passwords[accountID], password.passwordHash == expectedHash else { return }
            tables.passwords[accountID] = PasswordCredential(
                accountID: accountID, passwordHash: newHash, createdAt: password.createdAt, updatedAt: date)
        }
    }

    package func accountSummary(id: AccountID) async throws(RepositoryError) -> AccountSummary? {
        try read { tables in
            guard let account = tables.accounts[id], let email = tables.emails[id] else { return nil }
            return AccountSummary(
                account: account, email: email.email, hasPassword: tables.passwords[id] != nil,
                passkeys: tables.passkeys(of: id),
                recoveryCodesRemaining: tables.recoveryCodes.filter {
                    $0.code.accountID == id && $0.code.source == .user && $0.usedAt == nil
                }.count,
                emailVerified: email.verifiedAt != nil)
        }
    }

    // MARK: SessionRepository

    package func createSession(_ session: AuthenticationSession) async throws(RepositoryError) {
        try write { tables throws(RepositoryError) in
            guard tables.accounts[session.accountID] != nil else { throw .accountGone }
            tables.sessions[session.id] = session
        }
    }

    package func createSession(
        _ session: AuthenticationSession, event: AccountEvent, whilePasswordHashIs passwordHash: String
    ) async throws(RepositoryError) -> PasswordSessionCreation {
        try write { tables throws(RepositoryError) in
            guard tables.passwords[session.accountID]?.passwordHash == passwordHash else { return .passwordChanged }
            guard tables.locks[session.accountID] == nil else { return .accountLocked }
            tables.sessions[session.id] = session
            tables.events.append(event)
            return .created
        }
    }

    package func activeSession(tokenDigest: [UInt8], now: Date) async throws(RepositoryError) -> ActiveSession? {
        try read { tables in
            guard
                let session = tables.sessions.values.first(where: {
                    $0.tokenDigest == tokenDigest && $0.revokedAt == nil && $0.expiresAt > now
                }), let account = tables.accounts[session.accountID]
            else { return nil }
            return ActiveSession(session: session, account: account)
        }
    }

    package func activeSessions(accountID: AccountID, now: Date) async throws(RepositoryError)
        -> [AuthenticationSession]
    {
        try read { tables in
            tables.sessions.values.filter { $0.accountID == accountID && $0.revokedAt == nil && $0.expiresAt > now }
                .sorted { $0.createdAt > $1.createdAt }
        }
    }

    // MARK: PasskeyCredentialRepository

    package func credentials(accountID: AccountID) async throws(RepositoryError) -> [PasskeyCredential] {
        try read { tables in tables.passkeys(of: accountID) }
    }

    // MARK: AccountRegistrationRepository

    package func saveAccountRegistration(_ registration: PasskeyAccountRegistration) async throws(RepositoryError) {
        try write { tables in tables.accountRegistrations[registration.id] = .init(registration: registration) }
    }

    package func usableAccountRegistration(id: RegistrationID, now: Date) async throws(RepositoryError)
        -> PasskeyAccountRegistration?
    {
        try read { tables in
            guard let row = tables.accountRegistrations[id], Self.isUsable(row, now: now) else { return nil }
            return row.registration
        }
    }

    package func recordFailedFinish(id: RegistrationID, now: Date) async throws(RepositoryError) -> Bool {
        try write { tables in
            guard let row = tables.accountRegistrations[id], Self.isUsable(row, now: now) else { return false }
            tables.accountRegistrations[id]?.failedFinishes += 1
            return true
        }
    }

    static func isUsable(_ row: InMemoryTables.AccountRegistrationRow, now: Date) -> Bool {
        row.completedAt == nil && row.registration.expiresAt > now
            && row.failedFinishes < PasskeyAccountRegistration.maximumFailedFinishes
    }
}
