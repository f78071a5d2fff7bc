import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport

/// A passkey on a software authenticator: real keys, real signatures.
struct TestPasskey: Sendable {
    var key: SoftwareAuthenticatorKey
    var credentialID = [UInt8]((0..<32).map { _ in UInt8.random(in: 0...255) })
    var userHandle: [UInt8] = []
    var signCount: UInt32 = 0
    var backupEligible = false
    var origin = TestServer.origin
    var relyingPartyID = "localhost"

    init(algorithm: COSEAlgorithm = .es256, backupEligible: Bool = false) throws {
        key = try SoftwareAuthenticatorKey.generate(algorithm)
        self.backupEligible = backupEligible
    }

    /// A registration finish body for `options` (RegistrationOptions or AccountRegistrationOptions);
    /// `adjust` may change any field of the authenticator before it signs.
    mutating func registrationBody(
        options: [String: Any], adjust: (inout SoftwareAuthenticatorRegistration) -> Void = { _ in }
    ) throws -> [String: Any] {
        let challenge = Base64URL.decode(options["challenge"] as! String)!
        userHandle = Base64URL.decode(options["userID"] as! String)!
        var registration = SoftwareAuthenticatorRegistration(
            key: key, relyingPartyID: relyingPartyID, origin: origin, challenge: challenge)
        registration.credentialID = credentialID
        registration.flags.backupEligible = backupEligible
        registration.flags.backupState = backupEligible
        registration.signCount = signCount
        adjust(&registration)
        let response = try registration.makeResponse()
        var body: [String: Any] = [
            "credentialID": Base64URL.encode(response.credentialID),
            "clientDataJSON": Base64URL.encode(response.clientDataJSON),
            "attestationObject": Base64URL.encode(response.attestationObject),
            "transports": ["internal", "hybrid"],
        ]
        if let id = options["challengeID"] { body["challengeID"] = id }
        if let id = options["registrationID"] { body["registrationID"] = id }
        return body
    }

    /// An authentication finish body for AuthenticationOptions; the counter moves by `counterStep`.
    mutating func assertionBody(
        options: [String: Any], counterStep: UInt32 = 1,
        adjust: (inout SoftwareAuthenticatorAssertion) -> Void = { _ in }
    ) throws -> [String: Any] {
        let challenge = Base64URL.decode(options["challenge"] as! String)!
        var assertion = SoftwareAuthenticatorAssertion(
            key: key, relyingPartyID: relyingPartyID, origin: origin, challenge: challenge)
        assertion.credentialID = credentialID
        assertion.userHandle = userHandle
        assertion.flags.backupEligible = backupEligible
        assertion.flags.backupState = backupEligible
        signCount = signCount &+ counterStep
        assertion.signCount = signCount
        adjust(&assertion)
        let response = try assertion.makeResponse()
        var body: [String: Any] = [
            "challengeID": options["challengeID"] as! String,
            "credentialID": Base64URL.encode(response.credentialID.bytes),
            "clientDataJSON": Base64URL.encode(response.clientDataJSON),
            "authenticatorData": Base64URL.encode(response.authenticatorData),
            "signature": Base64URL.encode(response.signature),
        ]
        if let handle = response.userHandle { body["userHandle"] = Base64URL.encode(handle) }
        return body
    }
}
