// TEST-ONLY STAND-IN (see ASAuthorizationController.swift): the credential-manager signals.
public import Foundation

/// `final class ASCredentialUpdater` (iOS 26.0, deprecated in 26.2 for `ASCredentialDataManager`).
@available(iOS, introduced: 26.0, deprecated: 26.2)
@available(macOS, introduced: 26.0, deprecated: 26.2)
public final class ASCredentialUpdater: Sendable {
    /// `init()`
    public init() {}

    /// `final func reportUnknownPublicKeyCredential(relyingPartyIdentifier: String, credentialID: Data) async throws`
    public final func reportUnknownPublicKeyCredential(relyingPartyIdentifier: String, credentialID: Data) async throws
    {
        StandInRecorder.signal("updater.unknown", relyingPartyIdentifier, credentialID.base64EncodedString())
    }

    /// `final func reportAllAcceptedPublicKeyCredentials(relyingPartyIdentifier: String, userHandle: Data, acceptedCredentialIDs: [Data]) async throws`
    public final func reportAllAcceptedPublicKeyCredentials(
        relyingPartyIdentifier: String, userHandle: Data, acceptedCredentialIDs: [Data]
    ) async throws {
        StandInRecorder.signal(
            "updater.allAccepted", relyingPartyIdentifier, userHandle.base64EncodedString(),
            acceptedCredentialIDs.map { $0.base64EncodedString() }.joined(separator: ","))
    }

    /// `final func reportPublicKeyCredentialUpdate(relyingPartyIdentifier: String, userHandle: Data, newName: String) async throws`
    public final func reportPublicKeyCredentialUpdate(relyingPartyIdentifier: String, userHandle: Data, newName: String)
        async throws
    {
        StandInRecorder.signal("updater.update", relyingPartyIdentifier, userHandle.base64EncodedString(), newName)
    }

    /// `final func reportUnusedPasswordCredential(domain: String, userName: String) async throws`
    public final func reportUnusedPasswordCredential(domain: String, userName: String) async throws {
        StandInRecorder.signal("updater.unusedPassword", domain, userName)
    }
}

/// `final class ASCredentialDataManager` (iOS 26.2, macOS 26.2).
@available(iOS 26.2, macOS 26.2, *)
public final class ASCredentialDataManager: Sendable {
    /// `init()`
    public init() {}

    /// `final func reportUnknownPublicKeyCredential(relyingPartyIdentifier: String, credentialID: Data) async throws`
    public final func reportUnknownPublicKeyCredential(relyingPartyIdentifier: String, credentialID: Data) async throws
    {
        StandInRecorder.signal("dataManager.unknown", relyingPartyIdentifier, credentialID.base64EncodedString())
    }

    /// `final func reportAllAcceptedPublicKeyCredentials(relyingPartyIdentifier: String, userHandle: Data, acceptedCredentialIDs: [Data]) async throws`
    public final func reportAllAcceptedPublicKeyCredentials(
        relyingPartyIdentifier: String, userHandle: Data, acceptedCredentialIDs: [Data]
    ) async throws {
        StandInRecorder.signal(
            "dataManager.allAccepted", relyingPartyIdentifier, userHandle.base64EncodedString(),
            acceptedCredentialIDs.map { $0.base64EncodedString() }.joined(separator: ","))
    }

    /// `final func reportPublicKeyCredentialUpdate(relyingPartyIdentifier: String, userHandle: Data, newName: String) async throws`
    public final func reportPublicKeyCredentialUpdate(relyingPartyIdentifier: String, userHandle: Data, newName: String)
        async throws
    {
        StandInRecorder.signal("dataManager.update", relyingPartyIdentifier, userHandle.base64EncodedString(), newName)
    }

    /// `final func reportUnusedPasswordCredential(domain: String, userName: String) async throws`
    public final func reportUnusedPasswordCredential(domain: String, userName: String) async throws {
        StandInRecorder.signal("dataManager.unusedPassword", domain, userName)
    }
}
