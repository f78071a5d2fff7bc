package import PasskeyDomain

/// (v4) The support desk's everyday actions on an account (role `support`): end every session
/// (a stolen laptop), and delete one passkey (a lost phone), even the last one: the user then
/// recovers by a recovery code or by email. Each writes its event with the operator as actor
/// (and so its webhook) and queues its notice, in the transaction of the change.
package struct SupportAccountActionsUseCase: Sendable {
    let store: any UnitOfWork
    let notifier: SecurityNotifier
    let clock: any WallClock
    let events: AccountEventMaker

    package init(
        store: any UnitOfWork, notifier: SecurityNotifier = .off, clock: any WallClock,
        events: AccountEventMaker = AccountEventMaker()
    ) {
        self.store = store
        self.notifier = notifier
        self.clock = clock
        self.events = events
    }

    /// Ends every live session of the account. With none live, nothing is recorded or mailed.
    package func endSessions(of id: AccountID?, by actor: SupportAgentName) async throws(SupportDeskError) {
        guard let id else { throw .notFound }
        let now = clock.now
        let event = events.event(.sessionsEnded(.support), accountID: id, at: now, by: actor)
        let notifier = notifier
        let found = try await store.transaction(as: SupportDeskError.self) { tx async throws(RepositoryError) in
            guard let account = try await tx.accounts.lock(id) else { return false }
            guard try await tx.sessions.revoke(.all, of: id, except: nil, at: now) > 0 else { return true }
            try await tx.events.record(event)
            try await tx.queue(notifier.supportMail(.sessionsEndedBySupport, for: account, at: now))
            return true
        }
        guard found else { throw .notFound }
    }

    /// Deletes the passkey and ends the sessions it signed in; `.notFound` when the account has
    /// no such passkey (a malformed ID names none).
    package func deletePasskey(_ credentialID: CredentialID?, of id: AccountID?, by actor: SupportAgentName)
        async throws(SupportDeskError)
    {
        guard let id, let credentialID else { throw .notFound }
        let now = clock.now
        let event = events.event(.passkeyDeleted(credentialID: credentialID), accountID: id, at: now, by: actor)
        let notifier = notifier
        let deleted = try await store.transaction(as: SupportDeskError.self) { tx async throws(RepositoryError) in
            guard let account = try await tx.accounts.lock(id) else { return false }
            guard try await tx.passkeys.delete(credentialID, of: id) else { return false }
            try await tx.sessions.revoke(.signedIn(with: credentialID), of: id, except: nil, at: now)
            try await tx.events.record(event)
            try await tx.queue(notifier.supportMail(.passkeyDeletedBySupport, for: account, at: now))
            return true
        }
        guard deleted else { throw .notFound }
    }
}
