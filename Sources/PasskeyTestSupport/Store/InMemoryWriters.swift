internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain

/// The writers of an `InMemoryTransaction`: each does to the copied tables what its SQL does to
/// the database, with the database's uniqueness and reference rules, and nothing more.
struct InMemoryAccountWriter: AccountWriter {
    let transaction: InMemoryTransaction

    func lock(_ id: AccountID) async throws(RepositoryError) -> AccountSnapshot? {
        try transaction.change { tables throws(RepositoryError) in tables.locked(id) }
    }

    func read(_ id: AccountID) async throws(RepositoryError) -> AccountSnapshot? {
        try transaction.change { tables throws(RepositoryError) in tables.locked(id) }
    }

    func lockAgainstSignIns(_ id: AccountID) async throws(RepositoryError) -> AccountSnapshot? {
        try transaction.change { tables throws(RepositoryError) in tables.locked(id) }
    }

    func setLock(_ id: AccountID, to lock: AccountLock?) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in tables.locks[id] = lock }
    }

    func isLockedForSignIn(_ id: AccountID) async throws(RepositoryError) -> Bool {
        try transaction.change { tables throws(RepositoryError) in tables.locks[id] != nil }
    }

    func lock(normalizedEmail: String) async throws(RepositoryError) -> AccountSnapshot? {
        try transaction.change { tables throws(RepositoryError) in
            tables.accountID(normalizedEmail: normalizedEmail).flatMap { tables.locked($0) }
        }
    }

    func find(normalizedEmail: String) async throws(RepositoryError) -> AccountID? {
        try transaction.change { tables throws(RepositoryError) in tables.accountID(normalizedEmail: normalizedEmail) }
    }

    func isTaken(_ email: EmailAddress, byOtherThan accountID: AccountID) async throws(RepositoryError) -> Bool {
        try transaction.change { tables throws(RepositoryError) in
            tables.accountID(normalizedEmail: email.normalized).map { $0 != accountID } ?? false
        }
    }

    func insert(_ account: Account) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in
            guard tables.accounts[account.id] == nil else { throw .conflict(.other("accounts_pkey")) }
            tables.accounts[account.id] = account
        }
    }

    func insert(_ email: AccountEmail) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in
            guard tables.accounts[email.accountID] != nil else { throw .accountGone }
            guard tables.accountID(normalizedEmail: email.email.normalized) == nil else {
                throw .conflict(.emailTaken)
            }
            tables.emails[email.accountID] = email
        }
    }

    func markEmailVerified(_ id: AccountID, at date: Date) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in
            guard let email = tables.emails[id], email.verifiedAt == nil else { return }
            tables.emails[id] = AccountEmail(
                id: email.id, accountID: id, email: email.email, language: email.language, verifiedAt: date)
        }
    }

    func changeEmail(_ id: AccountID, to email: EmailAddress, verifiedAt date: Date) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in
            guard let current = tables.emails[id] else { return }
            if let holder = tables.accountID(normalizedEmail: email.normalized), holder != id {
                throw .conflict(.emailTaken)
            }
            tables.emails[id] = AccountEmail(
                id: current.id, accountID: id, email: email, language: current.language, verifiedAt: date)
        }
    }

    func setPassword(_ id: AccountID, hash: String, at date: Date) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in
            guard tables.accounts[id] != nil else { throw .accountGone }
            let createdAt = tables.passwords[id]?.createdAt ?? date
            tables.passwords[id] = PasswordCredential(
                accountID: id, passwordHash: hash, createdAt: createdAt, updatedAt: date)
        }
    }

    func deletePassword(_ id: AccountID) async throws(RepositoryError) -> Bool {
        try transaction.change { tables throws(RepositoryError) in tables.passwords.removeValue(forKey: id) != nil }
    }

    func delete(_ id: AccountID) async throws(RepositoryError) -> AccountSnapshot? {
        try transaction.change { tables throws(RepositoryError) in
            guard let locked = tables.locked(id) else { return nil }
            tables.cascadeDelete(id)
            tables.accountRegistrations = tables.accountRegistrations.filter {
                $0.value.registration.prospectiveAccountID != id
            }
            return locked
        }
    }
}

struct InMemoryPasskeyWriter: PasskeyWriter {
    let transaction: InMemoryTransaction

    func list(_ accountID: AccountID) async throws(RepositoryError) -> [PasskeyCredential] {
        try transaction.change { tables throws(RepositoryError) in tables.passkeys(of: accountID) }
    }

    func insert(_ credential: PasskeyCredential) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in
            guard !tables.passkeys.contains(where: { $0.id == credential.id }) else {
                throw .conflict(.credentialExists)
            }
            guard tables.accounts[credential.accountID] != nil else { throw .accountGone }
            tables.passkeys.append(credential)
        }
    }

    func rename(_ id: CredentialID, of accountID: AccountID, to name: PasskeyName)
        async throws(RepositoryError) -> PasskeyCredential?
    {
        try transaction.change { tables throws(RepositoryError) in
            guard let index = tables.passkeys.firstIndex(where: { $0.id == id && $0.accountID == accountID }) else {
                return nil
            }
            tables.passkeys[index].name = name
            return tables.passkeys[index]
        }
    }

    func delete(_ id: CredentialID, of accountID: AccountID) async throws(RepositoryError) -> Bool {
        try transaction.change { tables throws(RepositoryError) in
            let before = tables.passkeys.count
            tables.passkeys.removeAll { $0.id == id && $0.accountID == accountID }
            return tables.passkeys.count < before
        }
    }

    func deleteAll(of accountID: AccountID) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in
            tables.passkeys.removeAll { $0.accountID == accountID }
        }
    }
}

struct InMemorySessionWriter: SessionWriter {
    let transaction: InMemoryTransaction

    func insert(_ session: AuthenticationSession) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in
            guard tables.accounts[session.accountID] != nil else { throw .accountGone }
            tables.sessions[session.id] = session
        }
    }

    func countLive(of accountID: AccountID, at date: Date) async throws(RepositoryError) -> Int {
        try transaction.change { tables throws(RepositoryError) in
            tables.sessions.values.filter { $0.accountID == accountID && $0.revokedAt == nil && $0.expiresAt > date }
                .count
        }
    }

    func lockLive(_ id: SessionID, at date: Date) async throws(RepositoryError) -> Bool {
        try transaction.change { tables throws(RepositoryError) in
            guard let session = tables.sessions[id] else { return false }
            return session.revokedAt == nil && session.expiresAt > date
        }
    }

    func revoke(_ id: SessionID, of accountID: AccountID, at date: Date) async throws(RepositoryError) -> Bool {
        try transaction.change { tables throws(RepositoryError) in
            guard let session = tables.sessions[id], session.accountID == accountID, session.revokedAt == nil,
                session.expiresAt > date
            else { return false }
            tables.sessions[id]?.revokedAt = date
            return true
        }
    }

    func revoke(_ selection: SessionSelection, of accountID: AccountID, except keeping: SessionID?, at date: Date)
        async throws(RepositoryError) -> Int
    {
        try transaction.change { tables throws(RepositoryError) in
            var ended = 0
            for (id, session) in tables.sessions
            where session.accountID == accountID && session.revokedAt == nil && session.expiresAt > date
                && id != keeping
            {
                switch selection {
                case .all: break
                case .password: guard session.method == .password else { continue }
                case .signedIn(let credentialID): guard session.credentialID == credentialID else { continue }
                }
                tables.sessions[id]?.revokedAt = date
                ended += 1
            }
            return ended
        }
    }
}

struct InMemoryRecoveryCodeWriter: RecoveryCodeWriter {
    let transaction: InMemoryTransaction

    func unusedUserCodes(of accountID: AccountID) async throws(RepositoryError) -> Int {
        try transaction.change { tables throws(RepositoryError) in
            tables.recoveryCodes.filter {
                $0.code.accountID == accountID && $0.code.source == .user && $0.usedAt == nil
            }
            .count
        }
    }

    func deleteAll(of accountID: AccountID) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in
            tables.recoveryCodes.removeAll { $0.code.accountID == accountID }
        }
    }

    func deleteUnusedOperatorCodes(of accountID: AccountID) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in
            tables.recoveryCodes.removeAll {
                $0.code.accountID == accountID && $0.code.source == .operator && $0.usedAt == nil
            }
        }
    }

    func insert(_ codes: [StoredRecoveryCode]) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in
            for code in codes {
                guard tables.accounts[code.accountID] != nil else { throw .accountGone }
                tables.recoveryCodes.append(.init(code: code))
            }
        }
    }

    func lock(digest: [UInt8], normalizedEmail: String, now: Date) async throws(RepositoryError)
        -> LockedRecoveryCode?
    {
        try transaction.change { tables throws(RepositoryError) in
            guard let accountID = tables.accountID(normalizedEmail: normalizedEmail),
                let account = tables.accounts[accountID],
                let row = tables.recoveryCodes.first(where: {
                    $0.code.accountID == accountID && $0.code.digest == digest
                        && ($0.code.expiresAt.map { $0 > now } ?? true)
                })
            else { return nil }
            return LockedRecoveryCode(id: row.code.id, account: account, source: row.code.source, usedAt: row.usedAt)
        }
    }

    func markUsed(_ id: UUID, at date: Date) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in
            if let index = tables.recoveryCodes.firstIndex(where: { $0.code.id == id }) {
                tables.recoveryCodes[index].usedAt = date
            }
        }
    }
}

struct InMemoryEmailCodeWriter: EmailCodeWriter {
    let transaction: InMemoryTransaction

    func lockRecipient(_ normalizedEmail: String) async throws(RepositoryError) {
        try transaction.change { _ throws(RepositoryError) in }
    }

    func sends(to normalizedEmail: String, since: Date) async throws(RepositoryError) -> (count: Int, oldest: Date?) {
        try transaction.change { tables throws(RepositoryError) in
            let sent = tables.emailCodes.filter { $0.email.normalized == normalizedEmail && $0.draft.createdAt > since }
            return (sent.count, sent.map(\.draft.createdAt).min())
        }
    }

    func sends(of accountID: AccountID, since: Date) async throws(RepositoryError) -> (count: Int, oldest: Date?) {
        try transaction.change { tables throws(RepositoryError) in
            let sent = tables.emailCodes.filter { $0.accountID == accountID && $0.draft.createdAt > since }
            return (sent.count, sent.map(\.draft.createdAt).min())
        }
    }

    func voidUnused(_ purpose: EmailCodePurpose, of accountID: AccountID, at date: Date) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in
            for index in tables.emailCodes.indices
            where tables.emailCodes[index].accountID == accountID && tables.emailCodes[index].draft.purpose == purpose
                && tables.emailCodes[index].usedAt == nil && tables.emailCodes[index].voidedAt == nil
            {
                tables.emailCodes[index].voidedAt = date
            }
        }
    }

    func insert(_ draft: EmailCodeDraft, of accountID: AccountID, sentTo recipient: EmailAddress)
        async throws(RepositoryError)
    {
        try transaction.change { tables throws(RepositoryError) in
            guard tables.accounts[accountID] != nil else { throw .accountGone }
            tables.emailCodes.append(.init(draft: draft, accountID: accountID, email: recipient))
        }
    }

    func lockLive(_ purpose: EmailCodePurpose, of accountID: AccountID, now: Date)
        async throws(RepositoryError) -> LockedEmailCode?
    {
        try transaction.change { tables throws(RepositoryError) in
            tables.emailCodes.last {
                $0.accountID == accountID && $0.draft.purpose == purpose && $0.usedAt == nil && $0.voidedAt == nil
                    && $0.draft.expiresAt > now
            }.map {
                LockedEmailCode(
                    id: $0.draft.id, digest: $0.draft.digest, email: $0.email.value, failedTries: $0.failedTries)
            }
        }
    }

    func latestUsed(_ purpose: EmailCodePurpose, of accountID: AccountID, since: Date)
        async throws(RepositoryError) -> LockedEmailCode?
    {
        try transaction.change { tables throws(RepositoryError) in
            tables.emailCodes.filter {
                $0.accountID == accountID && $0.draft.purpose == purpose && ($0.usedAt.map { $0 > since } ?? false)
            }.max { ($0.usedAt ?? .distantPast) < ($1.usedAt ?? .distantPast) }.map {
                LockedEmailCode(
                    id: $0.draft.id, digest: $0.draft.digest, email: $0.email.value, failedTries: $0.failedTries)
            }
        }
    }

    func countWrongTry(_ id: UUID, void: Bool, at date: Date) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in
            guard let index = tables.emailCodes.firstIndex(where: { $0.draft.id == id }) else { return }
            tables.emailCodes[index].failedTries += 1
            if void { tables.emailCodes[index].voidedAt = date }
        }
    }

    func markUsed(_ id: UUID, at date: Date) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in
            if let index = tables.emailCodes.firstIndex(where: { $0.draft.id == id }) {
                tables.emailCodes[index].usedAt = date
            }
        }
    }
}

struct InMemoryAccountRegistrationWriter: AccountRegistrationWriter {
    let transaction: InMemoryTransaction

    func complete(_ id: RegistrationID, at date: Date) async throws(RepositoryError) -> Bool {
        try transaction.change { tables throws(RepositoryError) in
            guard let row = tables.accountRegistrations[id], row.completedAt == nil,
                row.registration.expiresAt > date,
                row.failedFinishes < PasskeyAccountRegistration.maximumFailedFinishes
            else { return false }
            tables.accountRegistrations[id]?.completedAt = date
            return true
        }
    }
}

struct InMemoryOutboxWriter: MailOutboxWriter {
    let transaction: InMemoryTransaction

    func enqueue(_ mail: OutgoingMail) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in tables.outbox.append(mail) }
    }

    func notices(to recipient: EmailAddress, subject: String, since: Date) async throws(RepositoryError) -> Int {
        try transaction.change { tables throws(RepositoryError) in
            tables.outbox.filter {
                $0.recipient == recipient && $0.subject == subject && $0.notAfter == nil && $0.createdAt > since
            }.count
        }
    }
}

struct InMemoryEventWriter: AccountEventWriter {
    let transaction: InMemoryTransaction

    func record(_ event: AccountEvent) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in
            // (v4) The webhook-only kinds have no foreign key (account.deleted follows the account).
            guard event.kind.isWebhookOnly || tables.accounts[event.accountID] != nil else { throw .accountGone }
            tables.events.append(event)
        }
    }
}

struct InMemorySigningKeyWriter: SigningKeyWriter {
    let transaction: InMemoryTransaction

    /// The store runs one transaction at a time: the lock is held already.
    func lockKeySet() async throws(RepositoryError) {
        try transaction.change { _ throws(RepositoryError) in }
    }

    func all() async throws(RepositoryError) -> [SigningKey] {
        try transaction.change { tables throws(RepositoryError) in tables.signingKeys }
    }

    func insert(_ key: SigningKey) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in
            guard !tables.signingKeys.contains(where: { $0.id == key.id }) else {
                throw .conflict(.other("signing_keys_pkey"))
            }
            tables.signingKeys.append(key)
        }
    }

    func retire(_ id: SigningKeyID, at date: Date) async throws(RepositoryError) {
        try transaction.change { tables throws(RepositoryError) in
            for index in tables.signingKeys.indices
            where tables.signingKeys[index].id == id && tables.signingKeys[index].retiredAt == nil {
                tables.signingKeys[index].retiredAt = date
            }
        }
    }

    func revoke(_ id: SigningKeyID, at date: Date) async throws(RepositoryError) -> Bool {
        try transaction.change { tables throws(RepositoryError) in
            guard let index = tables.signingKeys.firstIndex(where: { $0.id == id && $0.revokedAt == nil }) else {
                return false
            }
            tables.signingKeys[index].revokedAt = date
            return true
        }
    }
}
