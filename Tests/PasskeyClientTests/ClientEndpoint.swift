import Foundation
import PasskeyClient
import Testing

/// One call of `PasskeyClient` with the request the contract expects of it and an answer the
/// server could give: the arguments of `PasskeyClientRequestTests`.
struct ClientEndpoint: Sendable, CustomTestStringConvertible {
    let name: String
    let method: String
    /// As sent (percent-encoded).
    let path: String
    /// Whether it carries `Authorization: Bearer` (the held token).
    let authenticated: Bool
    /// The JSON body expected, nil for none.
    let body: String?
    let answer: (status: Int, body: String)
    let call: @Sendable (PasskeyClient) async throws -> Void

    var testDescription: String { name }

    /// The bytes whose standard base64 is `+/+/`: base64url turns them into `-_-_`.
    static let credentialID = Data([0xfb, 0xff, 0xbf])
    static let registration = PasskeyRegistrationCredential(
        credentialID: credentialID, rawClientDataJSON: Data([1, 2, 3]), rawAttestationObject: Data([4, 5, 6]),
        transports: ["internal"])
    static let assertion = PasskeyAssertionCredential(
        credentialID: credentialID, rawClientDataJSON: Data([1, 2, 3]), rawAuthenticatorData: Data([7, 8, 9]),
        signature: Data([10, 11, 12]), userID: Data([4, 5, 6]))

    /// Every endpoint of the contract the client covers.
    static let all: [ClientEndpoint] = [
        ClientEndpoint(
            name: "createPasswordAccount", method: "POST", path: "/v1/accounts", authenticated: false,
            body: #"{"displayName":"Taro","email":"taro@example.com","password":"correct horse"}"#,
            answer: (201, ContractAnswers.accountCreated)
        ) {
            _ = try await $0.createPasswordAccount(
                email: "taro@example.com", displayName: "Taro", password: "correct horse")
        },
        ClientEndpoint(
            name: "signIn(password)", method: "POST", path: "/v1/sessions", authenticated: false,
            body: #"{"email":"taro@example.com","password":"correct horse"}"#, answer: (200, ContractAnswers.session())
        ) { try await $0.signIn(email: "taro@example.com", password: "correct horse") },
        ClientEndpoint(
            name: "signIn(recoveryCode)", method: "POST", path: "/v1/recovery/sessions", authenticated: false,
            body: #"{"code":"AAAA-BBBB-CCCC","email":"taro@example.com"}"#,
            answer: (200, ContractAnswers.session(method: "recovery"))
        ) { try await $0.signIn(email: "taro@example.com", recoveryCode: "AAAA-BBBB-CCCC") },
        ClientEndpoint(
            name: "signOut", method: "DELETE", path: "/v1/sessions/current", authenticated: true, body: nil,
            answer: (204, "")
        ) { try await $0.signOut() },
        ClientEndpoint(
            name: "startPasskeyRegistration", method: "POST", path: "/v1/passkeys/registrations",
            authenticated: true, body: #"{"mode":"conditional"}"#, answer: (200, ContractAnswers.registrationOptions)
        ) { _ = try await $0.startPasskeyRegistration(mode: .conditional) },
        ClientEndpoint(
            name: "finishPasskeyRegistration", method: "POST", path: "/v1/passkeys/registrations/finish",
            authenticated: true,
            body: """
                {"attestationObject":"BAUG","challengeID":"ch-1","clientDataJSON":"AQID","credentialID":"-_-_",\
                "name":"Laptop","transports":["internal"]}
                """, answer: (204, "")
        ) { try await $0.finishPasskeyRegistration(challengeID: "ch-1", credential: registration, name: "Laptop") },
        ClientEndpoint(
            name: "startPasskeyAccountRegistration", method: "POST", path: "/v1/passkey-accounts/registrations",
            authenticated: false, body: #"{"displayName":"Taro","email":"taro@example.com"}"#,
            answer: (200, ContractAnswers.accountRegistrationOptions)
        ) { _ = try await $0.startPasskeyAccountRegistration(email: "taro@example.com", displayName: "Taro") },
        ClientEndpoint(
            name: "finishPasskeyAccountRegistration", method: "POST",
            path: "/v1/passkey-accounts/registrations/finish", authenticated: false,
            body: """
                {"attestationObject":"BAUG","clientDataJSON":"AQID","credentialID":"-_-_","displayName":"Taro",\
                "email":"taro@example.com","registrationID":"reg-1","transports":["internal"]}
                """, answer: (201, ContractAnswers.session(method: "passkey"))
        ) {
            try await $0.finishPasskeyAccountRegistration(
                registrationID: "reg-1", email: "taro@example.com", displayName: "Taro", credential: registration)
        },
        ClientEndpoint(
            name: "startPasskeySignIn", method: "POST", path: "/v1/passkeys/authentications", authenticated: false,
            body: nil, answer: (200, ContractAnswers.authenticationOptions)
        ) { _ = try await $0.startPasskeySignIn() },
        ClientEndpoint(
            name: "finishPasskeySignIn", method: "POST", path: "/v1/passkeys/authentications/finish",
            authenticated: false,
            body: """
                {"authenticatorData":"BwgJ","challengeID":"ch-2","clientDataJSON":"AQID","credentialID":"-_-_",\
                "signature":"CgsM","userHandle":"BAUG"}
                """, answer: (200, ContractAnswers.session(method: "passkey"))
        ) { try await $0.finishPasskeySignIn(challengeID: "ch-2", assertion: assertion) },
        ClientEndpoint(
            name: "account", method: "GET", path: "/v1/account", authenticated: true, body: nil,
            answer: (200, ContractAnswers.account)
        ) {
            let account = try await $0.account()
            #expect(!account.emailVerified && account.userHandle == Data([4, 5, 6]))
            #expect(account.passkeys.map(\.credentialID) == [credentialID])
        },
        ClientEndpoint(
            name: "passkeys", method: "GET", path: "/v1/passkeys", authenticated: true, body: nil,
            answer: (200, "[\(ContractAnswers.passkey)]")
        ) {
            let passkeys = try await $0.passkeys()
            #expect(passkeys.map(\.credentialID) == [credentialID])
        },
        ClientEndpoint(
            name: "renamePasskey", method: "PATCH", path: "/v1/passkeys/-_-_", authenticated: true,
            body: #"{"name":"Work phone"}"#, answer: (200, ContractAnswers.passkey)
        ) {
            let renamed = try await $0.renamePasskey(credentialID: credentialID, to: "Work phone")
            #expect(renamed.credentialID == credentialID)
        },
        ClientEndpoint(
            name: "deletePasskey", method: "DELETE", path: "/v1/passkeys/-_-_", authenticated: true, body: nil,
            answer: (204, "")
        ) { try await $0.deletePasskey(credentialID: credentialID) },
        ClientEndpoint(
            name: "removePassword", method: "DELETE", path: "/v1/account/password", authenticated: true, body: nil,
            answer: (204, "")
        ) { try await $0.removePassword() },
        ClientEndpoint(
            name: "createRecoveryCodes", method: "POST", path: "/v1/account/recovery-codes", authenticated: true,
            body: nil, answer: (200, ContractAnswers.recoveryCodes)
        ) { _ = try await $0.createRecoveryCodes() },
        ClientEndpoint(
            name: "sessions", method: "GET", path: "/v1/account/sessions", authenticated: true, body: nil,
            answer: (200, ContractAnswers.sessions)
        ) { _ = try await $0.sessions() },
        ClientEndpoint(
            name: "activity", method: "GET", path: "/v1/account/activity", authenticated: true, body: nil,
            answer: (200, ContractAnswers.activityPage)
        ) { _ = try await $0.activity() },
        ClientEndpoint(
            name: "endSession", method: "DELETE", path: "/v1/account/sessions/s%201%2F2", authenticated: true,
            body: nil, answer: (204, "")
        ) { try await $0.endSession(id: "s 1/2") },
        ClientEndpoint(
            name: "endOtherSessions", method: "DELETE", path: "/v1/account/sessions", authenticated: true,
            body: nil, answer: (204, "")
        ) { try await $0.endOtherSessions() },
        ClientEndpoint(
            name: "deleteAccount", method: "DELETE", path: "/v1/account", authenticated: true, body: nil,
            answer: (204, "")
        ) { try await $0.deleteAccount() },
        ClientEndpoint(
            name: "setPassword", method: "PUT", path: "/v1/account/password", authenticated: true,
            body: #"{"password":"correct horse battery"}"#, answer: (204, "")
        ) { try await $0.setPassword("correct horse battery") },
        ClientEndpoint(
            name: "requestEmailVerification", method: "POST", path: "/v1/account/email/verification",
            authenticated: true, body: nil, answer: (202, "")
        ) { try await $0.requestEmailVerification() },
        ClientEndpoint(
            name: "confirmEmailVerification", method: "POST", path: "/v1/account/email/verification/confirm",
            authenticated: true, body: #"{"code":"012345"}"#, answer: (200, ContractAnswers.verifiedAccount)
        ) {
            let account = try await $0.confirmEmailVerification(code: "012345")
            #expect(account.emailVerified)
        },
        ClientEndpoint(
            name: "changeEmail", method: "PUT", path: "/v1/account/email", authenticated: true,
            body: #"{"email":"new@example.com"}"#, answer: (202, "")
        ) { try await $0.changeEmail(to: "new@example.com") },
        ClientEndpoint(
            name: "confirmEmailChange", method: "POST", path: "/v1/account/email/confirm", authenticated: true,
            body: #"{"code":"987654"}"#, answer: (200, ContractAnswers.verifiedAccount)
        ) {
            let account = try await $0.confirmEmailChange(code: "987654")
            #expect(account.email == "new@example.com" && account.emailVerified)
        },
        ClientEndpoint(
            name: "requestEmailSignInCode", method: "POST", path: "/v1/recovery/email", authenticated: false,
            body: #"{"email":"taro@example.com"}"#, answer: (202, "{}")
        ) { try await $0.requestEmailSignInCode(email: "taro@example.com") },
        ClientEndpoint(
            name: "signInWithEmailCode", method: "POST", path: "/v1/recovery/email/sessions", authenticated: false,
            body: #"{"code":"000111","email":"taro@example.com"}"#,
            answer: (200, ContractAnswers.session(token: "email-token", method: "email"))
        ) {
            let session = try await $0.signInWithEmailCode(email: "taro@example.com", code: "000111")
            #expect(session.method == "email")
            #expect($0.accessToken == "email-token")
        },
    ]
}
