import Foundation
import PasskeyClient
import PasskeyClientTestSupport
import Testing

@testable import PasskeyMigrationApp

/// The app's start: a token stored by an earlier launch opens the account; one the server no
/// longer knows goes back to sign-in. The store stands for the app's Keychain. Against the real
/// server.
@Suite struct LaunchFlowTests {
    @Test func aTokenStoredByAnEarlierLaunchOpensTheAccountUntilSignOut() async throws {
        try await TestApp.onServer { server in
            let keychain = InMemoryTokenStore()
            let credentials = TestCredentialStore()
            let first = TestApp(
                server: server, controllers: TestApp.newDevice(), tokenStore: keychain, credentials: credentials)
            let email = try await first.passwordUser()
            _ = try await first.signInWithPassword(email)
            #expect(keychain.load() != nil)

            let relaunched = TestApp(
                server: server, controllers: TestApp.newDevice(), tokenStore: keychain, credentials: credentials)
            // Straight to the account (no spinner): the app's record says someone signed in.
            #expect(relaunched.app.screen == .account)
            await relaunched.app.loadSession()
            #expect(relaunched.app.screen == .account)
            let account = try await relaunched.loadedAccount()
            #expect(account.summary?.email == email)

            await account.signOut()
            #expect(relaunched.app.screen == .signIn)
            #expect(keychain.load() == nil)
            #expect(credentials.load() == nil)
            let again = TestApp(
                server: server, controllers: TestApp.newDevice(), tokenStore: keychain, credentials: credentials)
            await again.app.loadSession()
            #expect(again.app.screen == .signIn)
        }
    }

    @Test func aTokenTheServerNoLongerKnowsGoesBackToSignIn() async throws {
        try await TestApp.onServer { server in
            let keychain = InMemoryTokenStore(
                PasskeyStoredToken(accessToken: "ended-long-ago", expiresAt: Date().addingTimeInterval(3600)))
            let relaunched = TestApp(server: server, controllers: TestApp.newDevice(), tokenStore: keychain)
            await relaunched.app.loadSession()
            #expect(relaunched.app.screen == .account)
            let account = try #require(relaunched.app.account)
            await account.load()
            #expect(account.state == .signedOut)
            #expect(relaunched.app.screen == .signIn)
            #expect(relaunched.client.accessToken == nil)
            #expect(keychain.load() == nil)
        }
    }
}
