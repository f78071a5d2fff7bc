public import Foundation

/// The account changes that the device's credential manager must hear about, as Apple suggests:
/// after every sign-in, the passkeys the server accepts and the current user name; when the
/// password goes (stage ③) or the account is deleted, that the saved password is unused.
extension PasskeyAuthorization {
    /// A password sign-in (`PasskeyClient.signIn(email:password:)`), then the signals every
    /// sign-in sends (`reportAfterSignIn`). The session's token is held by the client.
    @discardableResult
    public func signIn(email: String, password: String) async throws(PasskeyClientError) -> PasskeySession {
        let session = try await client.signIn(email: email, password: password)
        await reportAfterSignIn(relyingPartyID: relyingPartyID)
        return session
    }

    /// Removes the account's password on the server (stage ③: a passkey that has signed in and
    /// recovery codes are needed), then tells the password managers the saved password is unused
    /// (`reportUnusedPasswordCredential(domain:userName:)`, the relying party ID as the domain).
    public func removePassword() async throws(PasskeyClientError) {
        let account = try? await client.account()
        try await client.removePassword()
        guard let relyingPartyID, let account else { return }
        await signals.reportUnusedPassword(domain: relyingPartyID, userName: account.email)
    }

    /// The signals of a sign-in an app coordinated itself (start → `perform` → finish, as the
    /// talk's Interactors do): what `reportAfterSignIn` sends after the bridge's own flows.
    public func reportSignIn() async { await reportAfterSignIn(relyingPartyID: relyingPartyID) }

    /// The server answered `unknown-credential` for this passkey (deleted, or its account
    /// deleted): the credential manager stops offering it. No signal without a relying party ID.
    public func reportUnknownCredential(_ credentialID: Data) async {
        guard let relyingPartyID else { return }
        await signals.reportUnknownCredential(relyingPartyID: relyingPartyID, credentialID: credentialID)
    }

    /// After a sign-in: the passkeys the server accepts for the account (the credential manager
    /// may hide the others) and the current user name and display name. Best effort, like every
    /// signal: skipped when the account cannot be read or no relying party ID is known. It costs
    /// the sign-in one `GET /v1/account`.
    func reportAfterSignIn(relyingPartyID: String?) async {
        guard let relyingPartyID, let account = try? await client.account() else { return }
        await signals.reportAllAcceptedCredentials(
            relyingPartyID: relyingPartyID, userHandle: account.userHandle, acceptedCredentialIDs: account.credentialIDs
        )
        await signals.reportCurrentUserDetails(
            relyingPartyID: relyingPartyID, userHandle: account.userHandle, name: account.email,
            displayName: account.displayName)
    }

    /// Deletes one of the account's passkeys on the server (needs a recent sign-in), then tells
    /// the credential manager which passkeys remain (`reportAllAcceptedPublicKeyCredentials`),
    /// so the device stops offering the deleted one. The signal is skipped when the remaining
    /// passkeys cannot be read or no relying party ID is known.
    public func deletePasskey(credentialID: Data) async throws(PasskeyClientError) {
        try await client.deletePasskey(credentialID: credentialID)
        guard let relyingPartyID, let account = try? await client.account() else { return }
        await signals.reportAllAcceptedCredentials(
            relyingPartyID: relyingPartyID, userHandle: account.userHandle, acceptedCredentialIDs: account.credentialIDs
        )
    }

    /// Deletes the signed-in account (needs a recent sign-in; the held token is forgotten), then
    /// reports each of its passkeys as unknown (`reportUnknownPublicKeyCredential`) and its
    /// password, if it had one, as unused.
    public func deleteAccount() async throws(PasskeyClientError) {
        let account = try await client.account()
        try await client.deleteAccount()
        guard let relyingPartyID else { return }
        for credentialID in account.credentialIDs {
            await signals.reportUnknownCredential(relyingPartyID: relyingPartyID, credentialID: credentialID)
        }
        if account.hasPassword { await signals.reportUnusedPassword(domain: relyingPartyID, userName: account.email) }
    }

    /// (v3) Confirms a change of the email address with the code mailed to the new one
    /// (`PasskeyClient.confirmEmailChange(code:)`), then gives the credential manager the new
    /// address as the passkeys' user name (`reportPublicKeyCredentialUpdate`, or the current user
    /// details on iOS 26.2). Returns the account with the new address.
    @discardableResult
    public func confirmEmailChange(code: String) async throws(PasskeyClientError) -> PasskeyAccount {
        let account = try await client.confirmEmailChange(code: code)
        if let relyingPartyID {
            await signals.reportCurrentUserDetails(
                relyingPartyID: relyingPartyID, userHandle: account.userHandle, name: account.email,
                displayName: account.displayName)
        }
        return account
    }
}

extension PasskeyAccount {
    /// The IDs of the account's passkeys as the platform holds them.
    var credentialIDs: [Data] { passkeys.map(\.credentialID) }
}
