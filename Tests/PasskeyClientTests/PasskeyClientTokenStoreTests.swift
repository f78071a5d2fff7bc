import Foundation
import PasskeyClient
import Testing

/// The client's `PasskeyTokenStore`: loaded at init, written by every call that returns a
/// session, cleared when the held token's session ends; a failing store never costs a sign-in.
@Suite struct PasskeyClientTokenStoreTests {
    /// The `expiresAt` of `ContractAnswers.session()`.
    static let sessionExpiry = ISO8601DateFormatter().date(from: "2026-12-01T20:00:00Z")!

    static let unauthorized =
        #"{"code":"unauthorized","detail":"No session.","status":401,"title":"Unauthorized","type":"about:blank"}"#

    /// A store whose every call throws, as a locked Keychain may.
    final class FailingStore: PasskeyTokenStore {
        struct Failure: Error, CustomStringConvertible {
            var description: String { "the keychain is locked" }
        }

        func load() throws -> PasskeyStoredToken? { throw Failure() }
        func save(_ token: PasskeyStoredToken) throws { throw Failure() }
        func clear() throws { throw Failure() }
    }

    @Test func aStoredTokenIsLoadedAtInitAndSent() async throws {
        let store = InMemoryTokenStore(
            PasskeyStoredToken(accessToken: "stored", expiresAt: Date().addingTimeInterval(3600)))
        let stub = StubServer()
        let client = stub.client(tokenStore: store)
        #expect(client.accessToken == "stored")
        stub.respond(status: 200, ContractAnswers.account)
        _ = try await client.account()
        #expect(stub.requests.only?.headers["authorization"] == "Bearer stored")
    }

    @Test func anExpiredStoredTokenIsClearedNotUsed() async throws {
        let store = InMemoryTokenStore(
            PasskeyStoredToken(accessToken: "stale", expiresAt: Date().addingTimeInterval(-1)))
        let stub = StubServer()
        let client = stub.client(tokenStore: store)
        #expect(client.accessToken == nil)
        #expect(store.storedToken == nil)
        await #expect(throws: PasskeyClientError.notSignedIn) { try await client.account() }
        #expect(stub.requests.isEmpty)
    }

    static let signIns =
        PasskeyClientTokenTests.signIns + [
            PasskeyClientTokenTests.SignIn(
                testDescription: "email code", answer: (200, ContractAnswers.session(token: "new-token"))
            ) { try await $0.signInWithEmailCode(email: "taro@example.com", code: "123456") }
        ]

    @Test(arguments: signIns)
    func everySessionIsSavedWithItsExpiry(_ signIn: PasskeyClientTokenTests.SignIn) async throws {
        let store = InMemoryTokenStore(PasskeyStoredToken(accessToken: "old", expiresAt: .distantFuture))
        let stub = StubServer()
        let client = stub.client(tokenStore: store)
        stub.respond(status: signIn.answer.status, signIn.answer.body)
        try await signIn.call(client)
        #expect(store.storedToken == PasskeyStoredToken(accessToken: "new-token", expiresAt: Self.sessionExpiry))
        #expect(client.heldToken == store.storedToken)
    }

    @Test func aNewClientOnTheSameStoreIsSignedIn() async throws {
        let store = InMemoryTokenStore()
        let stub = StubServer()
        stub.respond(status: 200, ContractAnswers.session(token: "new-token"))
        try await stub.client(tokenStore: store).signIn(email: "taro@example.com", password: "correct horse")
        // The answer's expiry is in the past of this run's clock: a later launch would clear it.
        let relaunch = PasskeyClient(
            baseURL: URL(string: "https://example.com")!, tokenStore: store, now: Self.sessionExpiry - 60)
        #expect(relaunch.accessToken == "new-token")
    }

    @Test func signingOutClearsTheStore() async throws {
        let store = InMemoryTokenStore(PasskeyStoredToken(accessToken: "held", expiresAt: .distantFuture))
        let stub = StubServer()
        let client = stub.client(tokenStore: store)
        stub.respond(status: 204)
        try await client.signOut()
        #expect(store.storedToken == nil)
        #expect(client.accessToken == nil)
    }

    @Test func signingOutAnotherSessionKeepsTheStore() async throws {
        let held = PasskeyStoredToken(accessToken: "held", expiresAt: .distantFuture)
        let store = InMemoryTokenStore(held)
        let stub = StubServer()
        stub.respond(status: 204)
        try await stub.client(tokenStore: store).signOut(token: "other")
        #expect(store.storedToken == held)
    }

    @Test func deletingTheAccountClearsTheStore() async throws {
        let store = InMemoryTokenStore(PasskeyStoredToken(accessToken: "held", expiresAt: .distantFuture))
        let stub = StubServer()
        let client = stub.client(tokenStore: store)
        stub.respond(status: 204)
        try await client.deleteAccount()
        #expect(store.storedToken == nil)
        #expect(client.accessToken == nil)
    }

    @Test func anUnauthorizedAnswerToTheHeldTokenClearsIt() async throws {
        let store = InMemoryTokenStore(PasskeyStoredToken(accessToken: "held", expiresAt: .distantFuture))
        let stub = StubServer()
        let client = stub.client(tokenStore: store)
        stub.respond(status: 401, Self.unauthorized)
        let error = await #expect(throws: PasskeyClientError.self) { try await client.account() }
        #expect(error?.code == .unauthorized)
        #expect(store.storedToken == nil)
        #expect(client.accessToken == nil)
        await #expect(throws: PasskeyClientError.notSignedIn) { try await client.account() }
        #expect(stub.requests.count == 1)
    }

    @Test func anUnauthorizedAnswerToAGivenTokenKeepsTheHeldOne() async throws {
        let held = PasskeyStoredToken(accessToken: "held", expiresAt: .distantFuture)
        let store = InMemoryTokenStore(held)
        let stub = StubServer()
        let client = stub.client(tokenStore: store)
        stub.respond(status: 401, Self.unauthorized)
        await #expect(throws: PasskeyClientError.self) { try await client.account(token: "held") }
        #expect(store.storedToken == held)
        #expect(client.accessToken == "held")
    }

    @Test func anotherErrorToTheHeldTokenKeepsIt() async throws {
        let held = PasskeyStoredToken(accessToken: "held", expiresAt: .distantFuture)
        let store = InMemoryTokenStore(held)
        let stub = StubServer()
        stub.respond(
            status: 403,
            #"{"code":"reauthentication-required","detail":"Sign in again.","status":403,"title":"Forbidden","type":"about:blank"}"#
        )
        await #expect(throws: PasskeyClientError.self) { try await stub.client(tokenStore: store).deleteAccount() }
        #expect(store.storedToken == held)
    }

    @Test func aSetTokenIsWrittenThrough() {
        let store = InMemoryTokenStore()
        let client = StubServer().client(tokenStore: store)
        client.setAccessToken("restored")
        #expect(store.storedToken == PasskeyStoredToken(accessToken: "restored", expiresAt: .distantFuture))
        client.setAccessToken(nil)
        #expect(store.storedToken == nil)
    }

    @Test func aFailingStoreKeepsTheSignInInMemoryAndReportsEachFailure() async throws {
        let failures = Locked<[PasskeyTokenStoreFailure]>([])
        let stub = StubServer()
        let client = stub.client(tokenStore: FailingStore()) { failure in failures.withLock { $0.append(failure) } }
        #expect(client.accessToken == nil)
        stub.respond(status: 200, ContractAnswers.session(token: "new-token"))
        let session = try await client.signIn(email: "taro@example.com", password: "correct horse")
        #expect(session.accessToken == "new-token")
        #expect(client.accessToken == "new-token")
        stub.respond(status: 204)
        try await client.signOut()
        #expect(client.accessToken == nil)
        let reported = failures.withLock { $0 }
        #expect(reported.map(\.operation) == [.load, .save, .clear])
        #expect(reported.allSatisfy { $0.message == "the keychain is locked" })
    }
}
