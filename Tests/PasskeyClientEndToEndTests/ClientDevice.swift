import Foundation
import PasskeyClient
import PasskeyDatabaseTestSupport
import PasskeyTestSupport

/// A device with one passkey on the software authenticator, answering `PasskeyClient`'s options
/// with the `Data` values AuthenticationServices would hand an app.
struct ClientDevice {
    let key: SoftwareAuthenticatorKey
    let credentialID = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
    var userID = Data()
    var signCount: UInt32 = 0

    init() throws { key = try SoftwareAuthenticatorKey.generate(.es256) }

    /// Creates the passkey (conditional create: no user presence or verification, as the
    /// platform does for Automatic Passkey Upgrade).
    mutating func register(challenge: Data, userID: Data, relyingPartyID: String, conditional: Bool = false) throws
        -> PasskeyRegistrationCredential
    {
        self.userID = userID
        var registration = SoftwareAuthenticatorRegistration(
            key: key, relyingPartyID: relyingPartyID, origin: ServedServer.origin, challenge: Array(challenge))
        registration.credentialID = Array(credentialID)
        if conditional {
            registration.flags.userPresent = false
            registration.flags.userVerified = false
        }
        let response = try registration.makeResponse()
        return PasskeyRegistrationCredential(
            credentialID: Data(response.credentialID), rawClientDataJSON: Data(response.clientDataJSON),
            rawAttestationObject: Data(response.attestationObject), transports: ["internal", "hybrid"])
    }

    mutating func assert(_ options: PasskeySignInOptions) throws -> PasskeyAssertionCredential {
        var assertion = SoftwareAuthenticatorAssertion(
            key: key, relyingPartyID: options.relyingPartyID, origin: ServedServer.origin,
            challenge: Array(options.challenge))
        assertion.credentialID = Array(credentialID)
        assertion.userHandle = Array(userID)
        signCount += 1
        assertion.signCount = signCount
        let response = try assertion.makeResponse()
        return PasskeyAssertionCredential(
            credentialID: Data(response.credentialID.bytes), rawClientDataJSON: Data(response.clientDataJSON),
            rawAuthenticatorData: Data(response.authenticatorData), signature: Data(response.signature),
            userID: response.userHandle.map { Data($0) })
    }
}
