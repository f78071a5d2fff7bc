import Foundation
import PasskeyClient
import PasskeyClientTestSupport
import Testing

@testable import PasskeyMigrationApp

/// The app's start: a token kept from an earlier launch opens the account; one the server no
/// longer knows goes back to sign-in. Against the real server.
@Suite struct LaunchFlowTests {
    @Test func aKeptTokenOpensTheAccount() async throws {
        try await TestApp.onServer { server in
            let first = TestApp(server: server, controllers: TestApp.newDevice())
            let email = try await first.passwordUser()
            let token = try await first.client.signIn(email: email, password: TestApp.password).accessToken

            let relaunched = TestApp(server: server, controllers: TestApp.newDevice(), keptToken: token)
            #expect(relaunched.app.screen == .account)
            let account = try await relaunched.loadedAccount()
            #expect(account.summary?.email == email)
        }
    }

    @Test func aTokenTheServerNoLongerKnowsGoesBackToSignIn() async throws {
        try await TestApp.onServer { server in
            let relaunched = TestApp(server: server, controllers: TestApp.newDevice(), keptToken: "ended-long-ago")
            #expect(relaunched.app.screen == .account)
            let account = try #require(relaunched.app.account)
            await account.load()
            #expect(account.state == .signedOut)
            #expect(relaunched.app.screen == .signIn)
            #expect(relaunched.client.accessToken == nil)
        }
    }
}
