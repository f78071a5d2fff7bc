package import PasskeyDomain

/// `PATCH /v1/passkeys/{credentialID}`: renames one of the signed-in account's passkeys.
package struct PasskeyRenameUseCase: Sendable {
    let store: any UnitOfWork
    let clock: any WallClock
    let events: AccountEventMaker

    package init(
        store: any UnitOfWork, clock: any WallClock = SystemClock(), events: AccountEventMaker = AccountEventMaker()
    ) {
        self.store = store
        self.clock = clock
        self.events = events
    }

    package func execute(
        session: ActiveSession, credentialID: CredentialID, name: PasskeyName,
        origin: RequestOrigin = .commandLine
    )
        async throws(AccountManagementError) -> PasskeyCredential
    {
        let now = clock.now
        let event = events.event(
            .passkeyRenamed(credentialID: credentialID), accountID: session.account.id, sessionID: session.session.id,
            at: now, from: origin)
        let renamed = try await store.transaction(as: AccountManagementError.self) {
            tx async throws(RepositoryError) -> PasskeyCredential? in
            guard try await tx.accounts.lock(session.account.id) != nil else { return nil }
            try await tx.requireLive(session.session, at: now)
            guard let renamed = try await tx.passkeys.rename(credentialID, of: session.account.id, to: name) else {
                return nil
            }
            try await tx.events.record(event)
            return renamed
        }
        guard let renamed else { throw .notFound }
        return renamed
    }
}
