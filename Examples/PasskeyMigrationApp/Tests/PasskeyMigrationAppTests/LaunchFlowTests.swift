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

    /// Signed out, on a device that holds a passkey for the service: the launch offers it at once
    /// (`preferImmediatelyAvailableCredentials`), before the email field's AutoFill (held here,
    /// so only the launch's request can sign in).
    @Test func aPasskeyOnThisDeviceIsOfferedAtLaunch() async throws {
        try await TestApp.onServer { server in
            let device = TestApp.newDevice()
            let first = TestApp(server: server, controllers: device)
            let account = try await first.createAccountWithForm(email: TestApp.newEmail(), displayName: "Launch")
            await account.signOut()

            device.holdAutoFill = true
            let relaunched = TestApp(server: server, controllers: device)
            // The sign-in screen shows first and its email field starts AutoFill (the view's task).
            let view = Task { await relaunched.app.passkeySignIn.emailFieldAppeared() }
            try await TestApp.until { device.isHoldingAutoFill }
            #expect(device.isHoldingAutoFill)
            let launch = Task { await relaunched.app.launch() }
            defer { launch.cancel() }
            try await TestApp.until { relaunched.app.screen == .account }
            #expect(relaunched.app.screen == .account)
            #expect(relaunched.app.user?.method == .passkey)
            await view.value
            #expect(!device.isHoldingAutoFill)
        }
    }

    /// Signed out, on a device without a passkey: nothing shows at launch (the request ends
    /// `.notInteractive`, no error for the user) and the email field's AutoFill offer follows.
    @Test func withoutAPasskeyTheLaunchShowsNothingAndAutoFillFollows() async throws {
        try await TestApp.onServer { server in
            let device = TestApp.newDevice()
            device.holdAutoFill = true
            let test = TestApp(server: server, controllers: device)
            let launch = Task { await test.app.launch() }
            defer { launch.cancel() }
            try await TestApp.until { device.isHoldingAutoFill }
            #expect(device.isHoldingAutoFill, "AutoFill offered after the silent launch request")
            #expect(test.app.passkeySignIn.state == .offeringAutoFill)
            #expect(test.app.screen == .signIn)
            test.app.show(.createAccount)
            try await TestApp.until { !device.isHoldingAutoFill }
            #expect(!device.isHoldingAutoFill, "withdrawn with the screen")
        }
    }

    /// The launch's sheet is up and the user goes to another screen: the request is withdrawn
    /// quietly (no error, not left "signing in"), and back on sign-in the email field offers
    /// AutoFill again.
    @Test func leavingTheScreenWithdrawsTheLaunchOfferQuietly() async throws {
        try await TestApp.onServer { server in
            let device = TestApp.newDevice()
            let first = TestApp(server: server, controllers: device)
            let account = try await first.createAccountWithForm(email: TestApp.newEmail(), displayName: "Leave")
            await account.signOut()

            device.holdImmediate = true
            device.holdAutoFill = true
            let relaunched = TestApp(server: server, controllers: device)
            let screen = relaunched.app.passkeySignIn
            let launch = Task { await relaunched.app.launch() }
            defer { launch.cancel() }
            try await TestApp.until { device.isHoldingSheet }
            #expect(device.isHoldingSheet)
            #expect(screen.state == .signingIn)
            relaunched.app.show(.createAccount)
            #expect(screen.state == .idle, "not left signing in")
            try await TestApp.until { !device.isHoldingSheet }
            #expect(!device.isHoldingSheet, "the sheet was withdrawn")
            try await Task.sleep(for: .milliseconds(100))
            #expect(screen.state == .idle, "no error after the withdrawal")
            #expect(!device.isHoldingAutoFill, "nothing offered on the other screen")

            relaunched.app.show(.signIn)
            let view = Task { await screen.emailFieldAppeared() }
            try await TestApp.until { device.isHoldingAutoFill }
            #expect(device.isHoldingAutoFill, "AutoFill offered again on the sign-in screen")
            device.pickAutoFill()
            await view.value
            #expect(relaunched.app.screen == .account)
        }
    }
}
