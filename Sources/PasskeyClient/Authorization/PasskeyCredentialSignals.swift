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
    /// The user's name (the email address) and display name changed.
    func reportCurrentUserDetails(relyingPartyID: String, userHandle: Data, name: String, displayName: String) async
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
