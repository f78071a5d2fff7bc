import Foundation
import PasskeyClient

/// The credential-manager signals the app sent, in order.
actor RecordingSignals: PasskeyCredentialSignals {
    enum Signal: Equatable {
        case allAccepted(relyingPartyID: String, acceptedCredentialIDs: [Data])
        case unknown(relyingPartyID: String, credentialID: Data)
        case userDetails(relyingPartyID: String, name: String)
    }

    private(set) var sent: [Signal] = []

    func reportAllAcceptedCredentials(relyingPartyID: String, userHandle: Data, acceptedCredentialIDs: [Data]) {
        sent.append(.allAccepted(relyingPartyID: relyingPartyID, acceptedCredentialIDs: acceptedCredentialIDs))
    }

    func reportUnknownCredential(relyingPartyID: String, credentialID: Data) {
        sent.append(.unknown(relyingPartyID: relyingPartyID, credentialID: credentialID))
    }

    func reportCurrentUserDetails(relyingPartyID: String, userHandle: Data, name: String, displayName: String) {
        sent.append(.userDetails(relyingPartyID: relyingPartyID, name: name))
    }
}
