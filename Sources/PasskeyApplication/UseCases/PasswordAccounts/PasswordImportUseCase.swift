internal import Foundation
internal import PasskeyDomain

/// One line of an import file, as read.
package struct PasswordImportRecord: Sendable {
    package let email: String
    package let displayName: String
    package let passwordHash: String
    /// (v3) The line's optional `emailVerified`: the old system proved the address already.
    package let emailVerified: Bool

    package init(email: String, displayName: String, passwordHash: String, emailVerified: Bool = false) {
        self.email = email
        self.displayName = displayName
        self.passwordHash = passwordHash
        self.emailVerified = emailVerified
    }
}

/// Why an import was refused; nothing was written.
package enum PasswordImportError: Error, Hashable, Sendable {
    /// Line `line` (1-based) is invalid; names the field.
    case invalidRecord(line: Int, field: String)
    /// Two lines, or a line and an existing account, have the same email.
    case duplicateEmail(line: Int?)
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}

/// One user of an existing system being moved in, with its `account.created` event (method `import`).
struct ImportedPasswordAccount: Sendable {
    let account: Account
    let email: AccountEmail
    let password: PasswordCredential
    let event: AccountEvent
}

/// `passkey-server import-passwords`: brings existing password users in, all or nothing.
/// Legacy hashes are kept as they are and upgraded to Argon2id at each user's next sign-in.
package struct PasswordImportUseCase: Sendable {
    let store: any UnitOfWork
    let clock: any WallClock
    let events: AccountEventMaker

    /// Hash formats accepted on import (verified later by the password hasher).
    static let acceptedPrefixes = ["$argon2id$", "$argon2i$", "$2a$", "$2b$", "$2y$", "$pbkdf2-sha256$"]

    package init(store: any UnitOfWork, clock: any WallClock, events: AccountEventMaker = AccountEventMaker()) {
        self.events = events
        self.store = store
        self.clock = clock
    }

    package func execute(_ records: [PasswordImportRecord], progress: @escaping @Sendable (Int) -> Void)
        async throws(PasswordImportError) -> Int
    {
        let now = clock.now
        var seen: [String: Int] = [:]
        var items: [ImportedPasswordAccount] = []
        items.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            let line = index + 1
            guard let email = EmailAddress(record.email) else { throw .invalidRecord(line: line, field: "email") }
            guard let name = DisplayName(record.displayName) else {
                throw .invalidRecord(line: line, field: "displayName")
            }
            guard Self.acceptedPrefixes.contains(where: record.passwordHash.hasPrefix),
                record.passwordHash.utf8.count <= 512
            else { throw .invalidRecord(line: line, field: "passwordHash") }
            if seen[email.normalized] != nil { throw .duplicateEmail(line: line) }
            seen[email.normalized] = line
            let account = Account(id: AccountID(), displayName: name, createdAt: now)
            items.append(
                ImportedPasswordAccount(
                    account: account,
                    email: AccountEmail(
                        accountID: account.id, email: email, verifiedAt: record.emailVerified ? now : nil),
                    password: PasswordCredential(
                        accountID: account.id, passwordHash: record.passwordHash, createdAt: now, updatedAt: now),
                    event: events.event(
                        .accountCreated(.import), accountID: account.id, sessionID: nil, at: now, from: .commandLine)))
        }
        do {
            // One transaction: all or nothing.
            try await store.transaction { [items] tx async throws(RepositoryError) in
                for (index, item) in items.enumerated() {
                    try await tx.accounts.insert(item.account)
                    try await tx.accounts.insert(item.email)
                    try await tx.accounts.setPassword(
                        item.account.id, hash: item.password.passwordHash, at: item.password.createdAt)
                    try await tx.events.record(item.event)
                    if (index + 1) % 1000 == 0 || index + 1 == items.count { progress(index + 1) }
                }
            }
        } catch {
            switch error {
            case .conflict(.emailTaken):
                throw .duplicateEmail(line: nil)
            case .unavailable: throw .unavailable
            case .conflict, .accountGone, .sessionEnded, .failure: throw .internalFailure(cause: FailureCause(error))
            }
        }
        return items.count
    }
}
