public import Foundation

/// The account changes that the device's credential manager must hear about.
extension PasskeyAuthorization {
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
    /// reports each of its passkeys as unknown (`reportUnknownPublicKeyCredential`).
    public func deleteAccount() async throws(PasskeyClientError) {
        let account = try await client.account()
        try await client.deleteAccount()
        guard let relyingPartyID else { return }
        for credentialID in account.credentialIDs {
            await signals.reportUnknownCredential(relyingPartyID: relyingPartyID, credentialID: credentialID)
        }
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
