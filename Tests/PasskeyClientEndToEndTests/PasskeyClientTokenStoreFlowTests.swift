import Foundation
import PasskeyClient
import PasskeyDatabaseTestSupport
import Testing

/// The token store against the served server: what one launch signs in, the next launch uses;
/// a sign-out ends it for both.
@Suite struct PasskeyClientTokenStoreFlowTests {
    @Test func aSignInOutlivesTheClientAndASignOutClearsIt() async throws {
        try await ServedServer.with { server in
            let store = InMemoryTokenStore()
            let first = PasskeyClient(baseURL: server, tokenStore: store)
            let email = "store-\(UUID().uuidString.prefix(8))@example.com"
            _ = try await first.createPasswordAccount(
                email: email, displayName: "Store", password: "correct horse battery")
            let session = try await first.signIn(email: email, password: "correct horse battery")
            #expect(
                store.storedToken == PasskeyStoredToken(accessToken: session.accessToken, expiresAt: session.expiresAt))

            // The next launch: a new client on the same store is signed in.
            let relaunched = PasskeyClient(baseURL: server, tokenStore: store)
            #expect(relaunched.accessToken == session.accessToken)
            let account = try await relaunched.account()
            #expect(account.email == email)

            try await relaunched.signOut()
            #expect(store.storedToken == nil)
            #expect(PasskeyClient(baseURL: server, tokenStore: store).accessToken == nil)
            // The first client still holds the ended session's token: the server's 401 clears it.
            let error = await #expect(throws: PasskeyClientError.self) { try await first.account() }
            #expect(error?.code == .unauthorized)
            #expect(first.accessToken == nil)
        }
    }
}
