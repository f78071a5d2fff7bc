// The credential-manager signals on Apple systems: ASCredentialDataManager from iOS 26.2 /
// macOS 26.2, ASCredentialUpdater on 26.0–26.1, nothing before.
#if canImport(AuthenticationServices)
    internal import AuthenticationServices
    public import Foundation
    #if PASSKEY_CLIENT_GLUE
        public import PasskeyClient
    #endif

    /// Sends the signals through the system (best effort: the system's errors are ignored, and
    /// it does not tell whether a credential manager acted on them).
    public struct AuthenticationServicesCredentialSignals: PasskeyCredentialSignals {
        /// The system's signals (none before iOS 26 / macOS 26).
        public init() {}

        public func reportAllAcceptedCredentials(
            relyingPartyID: String, userHandle: Data, acceptedCredentialIDs: [Data]
        ) async {
            if #available(iOS 26.2, macOS 26.2, *) {
                try? await ASCredentialDataManager().reportAllAcceptedPublicKeyCredentials(
                    relyingPartyIdentifier: relyingPartyID, userHandle: userHandle,
                    acceptedCredentialIDs: acceptedCredentialIDs)
            } else if #available(iOS 26.0, macOS 26.0, *) {
                try? await ASCredentialUpdater().reportAllAcceptedPublicKeyCredentials(
                    relyingPartyIdentifier: relyingPartyID, userHandle: userHandle,
                    acceptedCredentialIDs: acceptedCredentialIDs)
            }
        }

        public func reportUnknownCredential(relyingPartyID: String, credentialID: Data) async {
            if #available(iOS 26.2, macOS 26.2, *) {
                try? await ASCredentialDataManager().reportUnknownPublicKeyCredential(
                    relyingPartyIdentifier: relyingPartyID, credentialID: credentialID)
            } else if #available(iOS 26.0, macOS 26.0, *) {
                try? await ASCredentialUpdater().reportUnknownPublicKeyCredential(
                    relyingPartyIdentifier: relyingPartyID, credentialID: credentialID)
            }
        }

        public func reportUnusedPassword(domain: String, userName: String) async {
            if #available(iOS 26.2, macOS 26.2, *) {
                try? await ASCredentialDataManager().reportUnusedPasswordCredential(domain: domain, userName: userName)
            } else if #available(iOS 26.0, macOS 26.0, *) {
                try? await ASCredentialUpdater().reportUnusedPasswordCredential(domain: domain, userName: userName)
            }
        }

        /// `reportPublicKeyCredentialUpdate(newName:)` with `name`; the platform takes no display name.
        public func reportCurrentUserDetails(
            relyingPartyID: String, userHandle: Data, name: String, displayName: String
        )
            async
        {
            if #available(iOS 26.2, macOS 26.2, *) {
                try? await ASCredentialDataManager().reportPublicKeyCredentialUpdate(
                    relyingPartyIdentifier: relyingPartyID, userHandle: userHandle, newName: name)
            } else if #available(iOS 26.0, macOS 26.0, *) {
                try? await ASCredentialUpdater().reportPublicKeyCredentialUpdate(
                    relyingPartyIdentifier: relyingPartyID, userHandle: userHandle, newName: name)
            }
        }
    }
#endif
