import Foundation
import PasskeyClient
import Testing

/// The session token the client holds: set by every sign-in, sent by the calls after it, and
/// forgotten when its session ends.
@Suite struct PasskeyClientTokenTests {
    /// Each way of signing in, with the answer that carries the new token.
    struct SignIn: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let answer: (status: Int, body: String)
        let call: @Sendable (PasskeyClient) async throws -> Void
    }

    static let signIns: [SignIn] = [
        SignIn(testDescription: "password", answer: (200, ContractAnswers.session(token: "new-token"))) {
            try await $0.signIn(email: "taro@example.com", password: "correct horse")
        },
        SignIn(testDescription: "passkey", answer: (200, ContractAnswers.session(token: "new-token"))) {
            try await $0.finishPasskeySignIn(challengeID: "ch-2", assertion: ClientEndpoint.assertion)
        },
        SignIn(testDescription: "new passkey account", answer: (201, ContractAnswers.session(token: "new-token"))) {
            try await $0.finishPasskeyAccountRegistration(
                registrationID: "reg-1", email: "taro@example.com", displayName: "Taro",
                credential: ClientEndpoint.registration)
        },
        SignIn(testDescription: "recovery code", answer: (200, ContractAnswers.session(token: "new-token"))) {
            try await $0.signIn(email: "taro@example.com", recoveryCode: "AAAA-BBBB-CCCC")
        },
    ]

    @Test(arguments: signIns)
    func theTokenOfASignInIsUsedByTheNextCall(_ signIn: SignIn) async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "old-token")
        stub.respond(status: signIn.answer.status, signIn.answer.body)
        stub.respond(status: 200, ContractAnswers.account)
        try await signIn.call(client)
        #expect(client.accessToken == "new-token")
        _ = try await client.account()
        #expect(stub.requests.last?.headers["authorization"] == "Bearer new-token")
    }

    @Test func aFailedSignInKeepsTheHeldToken() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "old-token")
        stub.respond(
            status: 401,
            #"{"code":"invalid-credentials","detail":"No.","status":401,"title":"Unauthorized","type":"about:blank"}"#)
        await #expect(throws: PasskeyClientError.self) {
            try await client.signIn(email: "taro@example.com", password: "wrong password")
        }
        #expect(client.accessToken == "old-token")
    }

    @Test func signingOutForgetsTheToken() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "held-token")
        stub.respond(status: 204)
        try await client.signOut()
        #expect(stub.requests.only?.headers["authorization"] == "Bearer held-token")
        #expect(client.accessToken == nil)
        await #expect(throws: PasskeyClientError.notSignedIn) { try await client.account() }
        #expect(stub.requests.count == 1)
    }

    @Test func signingOutAnotherSessionKeepsTheHeldToken() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "held-token")
        stub.respond(status: 204)
        try await client.signOut(token: "other-token")
        #expect(stub.requests.only?.headers["authorization"] == "Bearer other-token")
        #expect(client.accessToken == "held-token")
    }

    @Test func deletingTheAccountForgetsTheToken() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "held-token")
        stub.respond(status: 204)
        try await client.deleteAccount()
        #expect(client.accessToken == nil)
    }

    @Test func aRestoredTokenIsSentAndAForgottenOneIsNot() async throws {
        let stub = StubServer()
        let client = stub.client()
        client.setAccessToken("from-keychain")
        stub.respond(status: 200, ContractAnswers.account)
        _ = try await client.account()
        #expect(stub.requests.only?.headers["authorization"] == "Bearer from-keychain")
        client.setAccessToken(nil)
        await #expect(throws: PasskeyClientError.notSignedIn) { try await client.account() }
        #expect(stub.requests.count == 1)
    }
}
