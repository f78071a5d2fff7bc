package import PasskeyDomain

/// `DELETE /v1/passkeys/{credentialID}`: needs a recent sign-in (it takes a `RecentSession`),
/// refuses to remove the account's last way in, and signs out every other session that signed
/// in with the passkey. A deletion that went through queues the `passkeyDeleted` notice with it.
package struct PasskeyDeletionUseCase: Sendable {
    let passkeys: any PasskeyCredentialRepository
    let notifier: SecurityNotifier
    let clock: any WallClock
    let events: AccountEventMaker

    package init(
        passkeys: any PasskeyCredentialRepository, notifier: SecurityNotifier = .off, clock: any WallClock,
        events: AccountEventMaker = AccountEventMaker()
    ) {
        self.events = events
        self.passkeys = passkeys
        self.notifier = notifier
        self.clock = clock
    }

    package func execute(session: RecentSession, credentialID: CredentialID, origin: RequestOrigin)
        async throws(AccountManagementError)
    {
        let now = clock.now
        let notice = notifier.notice(.passkeyDeleted, at: now, from: origin)
        let event = events.event(
            .passkeyDeleted(credentialID: credentialID), accountID: session.account.id,
            sessionID: session.session.id, at: now, from: origin)
        let outcome = try await AccountManagementError.catching { () async throws(RepositoryError) in
            try await passkeys.deleteCredential(
                id: credentialID, accountID: session.account.id, keepingSession: session.session.id, notice: notice,
                event: event)
        }
        switch outcome {
        case .deleted: return
        case .notFound: throw .notFound
        case .lastCredential: throw .lastCredential
        }
    }
}
