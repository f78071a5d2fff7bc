package import PasskeyDomain

/// `PATCH /v1/passkeys/{credentialID}`: renames one of the signed-in account's passkeys.
package struct PasskeyRenameUseCase: Sendable {
    let passkeys: any PasskeyCredentialRepository
    let clock: any WallClock
    let events: AccountEventMaker

    package init(
        passkeys: any PasskeyCredentialRepository, clock: any WallClock = SystemClock(),
        events: AccountEventMaker = AccountEventMaker()
    ) {
        self.passkeys = passkeys
        self.clock = clock
        self.events = events
    }

    package func execute(
        session: ActiveSession, credentialID: CredentialID, name: PasskeyName,
        origin: RequestOrigin = .commandLine
    )
        async throws(AccountManagementError) -> PasskeyCredential
    {
        let event = events.event(
            .passkeyRenamed(credentialID: credentialID), accountID: session.account.id, sessionID: session.session.id,
            at: clock.now, from: origin)
        let renamed: PasskeyCredential?
        do {
            renamed = try await passkeys.renameCredential(
                id: credentialID, accountID: session.account.id, to: name, event: event)
        } catch {
            throw AccountManagementError(error)
        }
        guard let renamed else { throw .notFound }
        return renamed
    }
}
