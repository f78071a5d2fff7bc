import Foundation
import PasskeyClient
import Testing

/// How the stored token is loaded and who hears of changes: not at init, off the main thread,
/// again after a failed load (a locked device must not sign the user out for the whole
/// process), the signed-in state published to a router, and the opt-in clearing of a token a
/// reinstalled app finds in the Keychain.
@Suite struct PasskeyClientTokenLoadingTests {
    /// A store that records where it was read, and can fail its first loads.
    final class RecordingStore: PasskeyTokenStore, @unchecked Sendable {
        struct Locked: Error {}
        private let lock = NSLock()
        private var token: PasskeyStoredToken?
        private var failures: Int
        private(set) var loads: [Bool] = []  // whether each load ran on the main thread

        init(_ token: PasskeyStoredToken?, failingLoads: Int = 0) {
            self.token = token
            self.failures = failingLoads
        }

        var loadsOnMainThread: [Bool] { lock.withLock { loads } }

        func load() throws -> PasskeyStoredToken? {
            try lock.withLock {
                loads.append(Thread.isMainThread)
                if failures > 0 {
                    failures -= 1
                    throw Locked()
                }
                return token
            }
        }
        func save(_ token: PasskeyStoredToken) { lock.withLock { self.token = token } }
        func clear() { lock.withLock { token = nil } }
    }

    static let stored = PasskeyStoredToken(accessToken: "stored", expiresAt: Date().addingTimeInterval(3600))

    @MainActor
    @Test func nothingIsReadAtInitAndTheLoadRunsOffTheMainThread() async throws {
        let store = RecordingStore(Self.stored)
        let client = StubServer().client(tokenStore: store)
        #expect(store.loadsOnMainThread.isEmpty, "init reads nothing")
        #expect(await client.loadStoredToken())
        #expect(store.loadsOnMainThread == [false], "read on a background thread")
        #expect(client.accessToken == "stored")
        #expect(await client.loadStoredToken())
        #expect(store.loadsOnMainThread.count == 1, "read once")
    }

    @Test func aFailedLoadIsTriedAgainInsteadOfSigningOut() async throws {
        let store = RecordingStore(Self.stored, failingLoads: 1)
        let failures = Locked<[PasskeyTokenStoreFailure]>([])
        let stub = StubServer()
        let client = stub.client(
            tokenStore: store, onStoreFailure: { failure in failures.withLock { $0.append(failure) } })
        #expect(await client.loadStoredToken() == false, "the device is locked: not loaded")
        #expect(failures.withLock { $0.map(\.operation) } == [.load])
        stub.respond(status: 200, ContractAnswers.account)
        _ = try await client.account()
        #expect(stub.requests.first?.headers["authorization"] == "Bearer stored", "loaded by the next call")
        #expect(store.loadsOnMainThread.count == 2)
    }

    @Test func theSignedInStateReachesAListener() async throws {
        let stub = StubServer()
        let client = stub.client(tokenStore: InMemoryTokenStore())
        let states = client.signedInStates()
        var iterator = states.makeAsyncIterator()
        #expect(await client.loadStoredToken() == false)
        #expect(await iterator.next() == false)
        stub.respond(status: 200, ContractAnswers.session())
        try await client.signIn(email: "taro@example.com", password: "correct horse")
        #expect(await iterator.next() == true)
        stub.respond(status: 401, PasskeyClientTokenStoreTests.unauthorized)
        _ = try? await client.account()
        #expect(await iterator.next() == false, "a 401 anywhere reaches the router")
    }

    @Test func aReinstalledAppClearsTheTokenItFindsOnlyWhenAskedTo() async throws {
        let defaults = try #require(UserDefaults(suiteName: "first-launch-\(UUID())"))
        let keychain = InMemoryTokenStore(Self.stored)  // survives the app's deletion, like the Keychain
        let first = FirstLaunchClearingTokenStore(keychain, defaults: defaults)
        #expect(try first.load() == nil, "first launch: cleared")
        #expect(keychain.storedToken == nil)
        try first.save(Self.stored)
        let relaunch = FirstLaunchClearingTokenStore(keychain, defaults: defaults)
        #expect(try relaunch.load() == Self.stored, "later launches keep it")
    }
}
