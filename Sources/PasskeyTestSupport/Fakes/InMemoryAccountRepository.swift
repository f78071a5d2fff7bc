package import Foundation
package import PasskeyApplication
package import PasskeyDomain
internal import Synchronization

/// `AccountRepository` in memory for unit tests of use cases: accounts with email and password,
/// unique normalised emails, password hashes. Passkeys and recovery codes are not modelled (the
/// summary lists the passkeys `setPasskeys` gave it; password removal answers from `passkeyUsed`
/// and `recoverySetUp`), which the tests on PostgreSQL cover. `failNext` makes the next call throw.
package final class InMemoryAccountRepository: AccountRepository {
    private struct Entry {
        var account: Account
        var email: EmailAddress
        var password: PasswordCredential?
        var passkeys: [PasskeyCredential] = []
    }

    private struct State {
        var entries: [AccountID: Entry] = [:]
        var failNext: RepositoryError?
        var passkeyUsed = true
        var recoverySetUp = true
        var notices: [QueuedNotice] = []
        var signUpMails: [AccountID: EmailCodeMail] = [:]
        var languages: [AccountID: MailLanguage] = [:]
        var verifiedEmails: Set<AccountID> = []
        /// Rendered notices of `setPassword` (it takes a compose closure, not a `PendingNotice`).
        var renderedNotices: [AccountID: [OutgoingMail]] = [:]
        var events: [AccountEvent] = []
    }

    private let state = Mutex(State())

    package init() {}

    package func failNext(_ error: RepositoryError) { state.withLock { $0.failNext = error } }

    /// The activity-log entries written with changes that went through, in order (a failed
    /// sign-in of an unknown address writes none, as in PostgreSQL).
    package var events: [AccountEvent] { state.withLock { $0.events } }

    /// The notices queued with changes that went through, in order.
    package var queuedNotices: [QueuedNotice] { state.withLock { $0.notices } }

    /// What `removePassword` finds about passkeys and recovery codes.
    package func setRemovalPreconditions(passkeyUsed: Bool, recoverySetUp: Bool) {
        state.withLock {
            $0.passkeyUsed = passkeyUsed
            $0.recoverySetUp = recoverySetUp
        }
    }

    /// The passkeys the account's summary lists.
    package func setPasskeys(_ passkeys: [PasskeyCredential], for id: AccountID) {
        state.withLock { $0.entries[id]?.passkeys = passkeys }
    }

    /// The stored password hash of an account, for assertions.
    package func passwordHash(of id: AccountID) -> String? { state.withLock { $0.entries[id]?.password?.passwordHash } }

    private func checkFailure(_ state: inout State) throws(RepositoryError) {
        if let error = state.failNext {
            state.failNext = nil
            throw error
        }
    }

    package func createPasswordAccount(
        _ account: Account, email: AccountEmail, password: PasswordCredential, verification: EmailCodeMail?,
        event: AccountEvent
    ) async throws(RepositoryError) {
        try state.withLock { (state) throws(RepositoryError) in
            try checkFailure(&state)
            guard !state.entries.values.contains(where: { $0.email == email.email }) else {
                throw .conflict(.emailTaken)
            }
            state.entries[account.id] = Entry(account: account, email: email.email, password: password)
            state.signUpMails[account.id] = verification
            state.languages[account.id] = email.language
            state.events.append(event)
        }
    }

    /// The verification code and mail the sign-up of `id` stored with the account (mail on).
    package func signUpMail(of id: AccountID) -> EmailCodeMail? { state.withLock { $0.signUpMails[id] } }

    /// The language the sign-up of `id` stored.
    package func language(of id: AccountID) -> MailLanguage? { state.withLock { $0.languages[id] } }

    package func importPasswordAccounts(
        _ accounts: [ImportedPasswordAccount], progress: @escaping @Sendable (Int) -> Void
    ) async throws(RepositoryError) {
        try state.withLock { (state) throws(RepositoryError) in
            try checkFailure(&state)
            var copy = state.entries
            for imported in accounts {
                guard !copy.values.contains(where: { $0.email == imported.email.email }) else {
                    throw .conflict(.emailTaken)
                }
                copy[imported.account.id] = Entry(
                    account: imported.account, email: imported.email.email, password: imported.password)
            }
            state.entries = copy
            state.events += accounts.map(\.event)
        }
        progress(accounts.count)
    }

    package func passwordAccount(normalizedEmail: String) async throws(RepositoryError) -> PasswordAccount? {
        try state.withLock { (state) throws(RepositoryError) -> PasswordAccount? in
            try checkFailure(&state)
            guard let entry = state.entries.values.first(where: { $0.email.normalized == normalizedEmail }),
                let password = entry.password
            else { return nil }
            return PasswordAccount(account: entry.account, credential: password)
        }
    }

    package func updatePasswordHash(accountID: AccountID, from expectedHash: String, to newHash: String, at date: Date)
        async throws(RepositoryError)
    {
        try state.withLock { (state) throws(RepositoryError) in
            try checkFailure(&state)
            guard let old = state.entries[accountID]?.password, old.passwordHash == expectedHash else { return }
            state.entries[accountID]?.password = PasswordCredential(
                accountID: accountID, passwordHash: newHash, createdAt: old.createdAt, updatedAt: date)
        }
    }

    package func accountSummary(id: AccountID) async throws(RepositoryError) -> AccountSummary? {
        try state.withLock { (state) throws(RepositoryError) -> AccountSummary? in
            try checkFailure(&state)
            guard let entry = state.entries[id] else { return nil }
            return AccountSummary(
                account: entry.account, email: entry.email, hasPassword: entry.password != nil, passkeys: entry.passkeys
            )
        }
    }

    package func deleteAccount(id: AccountID, notice: PendingNotice?) async throws(RepositoryError) -> Bool {
        try state.withLock { (state) throws(RepositoryError) -> Bool in
            try checkFailure(&state)
            guard state.entries.removeValue(forKey: id) != nil else { return false }
            if let notice { state.notices.append(QueuedNotice(accountID: id, pending: notice)) }
            return true
        }
    }

    package func removePassword(
        accountID: AccountID, keepingSession: SessionID, verifiedEmailCounts: Bool, notice: PendingNotice?,
        event: AccountEvent
    )
        async throws(RepositoryError) -> PasswordRemovalOutcome
    {
        try state.withLock { (state) throws(RepositoryError) -> PasswordRemovalOutcome in
            try checkFailure(&state)
            guard state.entries[accountID]?.password != nil else { return .noPassword }
            guard state.passkeyUsed else { return .noPasskeyUsedYet }
            let verifiedEmail = verifiedEmailCounts && state.verifiedEmails.contains(accountID)
            guard state.recoverySetUp || verifiedEmail else { return .noRecoverySetUp }
            state.entries[accountID]?.password = nil
            if let notice { state.notices.append(QueuedNotice(accountID: accountID, pending: notice)) }
            state.events.append(event)
            return .removed
        }
    }

    package func setPassword(
        accountID: AccountID, passwordHash: String, now: Date, keepingSession: SessionID,
        notice: PendingNotice?, event: AccountEvent
    ) async throws(RepositoryError) -> Bool {
        try state.withLock { (state) throws(RepositoryError) -> Bool in
            try checkFailure(&state)
            guard let entry = state.entries[accountID] else { return false }
            let createdAt = entry.password?.createdAt ?? now
            state.entries[accountID]?.password = PasswordCredential(
                accountID: accountID, passwordHash: passwordHash, createdAt: createdAt, updatedAt: now)
            if let notice, state.verifiedEmails.contains(accountID) {
                state.renderedNotices[accountID, default: []].append(
                    notice.mail(to: entry.email, language: state.languages[accountID] ?? .english))
            }
            state.events.append(event)
            return true
        }
    }

    package func recordFailedSignIn(_ event: PendingAccountEvent, normalizedEmail: String)
        async throws(RepositoryError)
    {
        try state.withLock { (state) throws(RepositoryError) in
            try checkFailure(&state)
            guard let entry = state.entries.values.first(where: { $0.email.normalized == normalizedEmail }) else {
                return
            }
            state.events.append(event.event(accountID: entry.account.id))
        }
    }

    /// Marks the account's address verified (what a confirmed code does in PostgreSQL).
    package func markEmailVerified(_ id: AccountID) { state.withLock { _ = $0.verifiedEmails.insert(id) } }

    /// The notices queued for the account, oldest first.
    package func notices(of id: AccountID) -> [OutgoingMail] { state.withLock { $0.renderedNotices[id] ?? [] } }
}
