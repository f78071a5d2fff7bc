public import Foundation

/// The credential-manager signals: telling the device's passkey provider what the server holds,
/// so it stops offering deleted passkeys and shows the current user name
/// (`ASCredentialDataManager` / `ASCredentialUpdater` on Apple systems from iOS 26).
///
/// Signals are best effort: an implementation swallows its platform's errors, and the flows
/// that send them succeed or fail on the server's answer alone.
public protocol PasskeyCredentialSignals: Sendable {
    /// The passkeys of `userHandle` at `relyingPartyID` are exactly `acceptedCredentialIDs`
    /// (after a passkey was deleted).
    func reportAllAcceptedCredentials(relyingPartyID: String, userHandle: Data, acceptedCredentialIDs: [Data]) async
    /// The server does not know this passkey (deleted, or its account deleted).
    func reportUnknownCredential(relyingPartyID: String, credentialID: Data) async
    /// The user's name (the email address) and display name, after a sign-in or a change.
    func reportCurrentUserDetails(relyingPartyID: String, userHandle: Data, name: String, displayName: String) async
    /// The account's saved password for `domain` is no longer used (removed at stage ③, or the
    /// account deleted): password managers may hide or remove it.
    func reportUnusedPassword(domain: String, userName: String) async
}

extension PasskeyCredentialSignals {
    /// Sends nothing: an app's own signals written before this signal existed keep compiling.
    public func reportUnusedPassword(domain: String, userName: String) async {}
}

/// Sends no signal (systems before iOS 26, and programs without a credential manager).
public struct NoCredentialSignals: PasskeyCredentialSignals {
    /// The signals that go nowhere.
    public init() {}

    public func reportAllAcceptedCredentials(relyingPartyID: String, userHandle: Data, acceptedCredentialIDs: [Data])
        async
    {}

    public func reportUnknownCredential(relyingPartyID: String, credentialID: Data) async {}

    public func reportCurrentUserDetails(relyingPartyID: String, userHandle: Data, name: String, displayName: String)
        async
    {}
}
