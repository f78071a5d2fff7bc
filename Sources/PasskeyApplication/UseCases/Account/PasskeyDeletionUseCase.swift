package import PasskeyDomain

/// `DELETE /v1/passkeys/{credentialID}`: needs a recent sign-in (it takes a `RecentSession`),
/// refuses to remove the account's last way in, and signs out every other session that signed
/// in with the passkey. A deletion queues the `passkeyDeleted` notice with it.
///
/// The rule is decided here, under the account's lock (which password removal and other
/// deletions take too): a passkey may go when the account keeps a password or another passkey.
package struct PasskeyDeletionUseCase: Sendable {
    let store: any UnitOfWork
    let notifier: SecurityNotifier
    let clock: any WallClock
    let events: AccountEventMaker

    package init(
        store: any UnitOfWork, notifier: SecurityNotifier = .off, clock: any WallClock,
        events: AccountEventMaker = AccountEventMaker()
    ) {
        self.events = events
        self.store = store
        self.notifier = notifier
        self.clock = clock
    }

    package func execute(session: RecentSession, credentialID: CredentialID, origin: RequestOrigin)
        async throws(AccountManagementError)
    {
        let now = clock.now
        let accountID = session.account.id
        let event = events.event(
            .passkeyDeleted(credentialID: credentialID), accountID: accountID, sessionID: session.session.id, at: now,
            from: origin)
        try await store.transaction(as: AccountManagementError.self) {
            tx async throws(RepositoryError) -> Result<Void, AccountManagementError> in
            guard let account = try await tx.accounts.lock(accountID) else { return .failure(.notFound) }
            try await tx.requireLive(session.session, at: now)
            let passkeys = try await tx.passkeys.list(accountID)
            guard passkeys.contains(where: { $0.id == credentialID }) else { return .failure(.notFound) }
            guard account.hasPassword || passkeys.count > 1 else { return .failure(.lastCredential) }
            try await tx.passkeys.delete(credentialID, of: accountID)
            // Whoever signed in with this passkey is signed out with it, except the caller.
            try await tx.sessions.revoke(
                .signedIn(with: credentialID), of: accountID, except: session.session.id, at: now)
            try await tx.queue(notifier.mail(.passkeyDeleted, for: account, at: now, from: origin))
            try await tx.events.record(event)
            return .success(())
        }.get()
    }
}
