public import Foundation
public import PasskeyClient
internal import Synchronization

/// The credential-manager signals a flow sent, in order (for the end-to-end tests of the bridge
/// and of the example app; the client's unit tests, which build without this target, keep their
/// own copy in ScriptedControllers.swift).
public final class RecordingSignals: PasskeyCredentialSignals {
    public enum Signal: Hashable, Sendable {
        case allAccepted(relyingPartyID: String, userHandle: Data, credentialIDs: [Data])
        case unknown(relyingPartyID: String, credentialID: Data)
        case currentUser(relyingPartyID: String, userHandle: Data, name: String, displayName: String)
        case unusedPassword(domain: String, userName: String)
    }

    private let recorded = Mutex<[Signal]>([])

    public init() {}

    public var signals: [Signal] { recorded.withLock { $0 } }

    public func reportAllAcceptedCredentials(relyingPartyID: String, userHandle: Data, acceptedCredentialIDs: [Data])
        async
    {
        recorded.withLock {
            $0.append(
                .allAccepted(
                    relyingPartyID: relyingPartyID, userHandle: userHandle, credentialIDs: acceptedCredentialIDs))
        }
    }

    public func reportUnknownCredential(relyingPartyID: String, credentialID: Data) async {
        recorded.withLock { $0.append(.unknown(relyingPartyID: relyingPartyID, credentialID: credentialID)) }
    }

    public func reportCurrentUserDetails(relyingPartyID: String, userHandle: Data, name: String, displayName: String)
        async
    {
        recorded.withLock {
            $0.append(
                .currentUser(
                    relyingPartyID: relyingPartyID, userHandle: userHandle, name: name, displayName: displayName))
        }
    }

    public func reportUnusedPassword(domain: String, userName: String) async {
        recorded.withLock { $0.append(.unusedPassword(domain: domain, userName: userName)) }
    }
}
