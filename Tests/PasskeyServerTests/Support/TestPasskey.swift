import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

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

    /// The base64url field `name` of `options`, decoded; a failure names the answer.
    private static func bytes(_ options: [String: Any], _ name: String) throws -> [UInt8] {
        let text = try #require(options[name] as? String, "no \(name) in \(options)")
        return try #require(Base64URL.decode(text), "\(name) is not base64url")
    }

    /// A registration finish body for `options` (RegistrationOptions or AccountRegistrationOptions);
    /// `adjust` may change any field of the authenticator before it signs.
    mutating func registrationBody(
        options: [String: Any], adjust: (inout SoftwareAuthenticatorRegistration) -> Void = { _ in }
    ) throws -> [String: Any] {
        let challenge = try Self.bytes(options, "challenge")
        userHandle = try Self.bytes(options, "userID")
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
        let challenge = try Self.bytes(options, "challenge")
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
            "challengeID": try #require(options["challengeID"] as? String),
            "credentialID": Base64URL.encode(response.credentialID.bytes),
            "clientDataJSON": Base64URL.encode(response.clientDataJSON),
            "authenticatorData": Base64URL.encode(response.authenticatorData),
            "signature": Base64URL.encode(response.signature),
        ]
        if let handle = response.userHandle { body["userHandle"] = Base64URL.encode(handle) }
        return body
    }
}
