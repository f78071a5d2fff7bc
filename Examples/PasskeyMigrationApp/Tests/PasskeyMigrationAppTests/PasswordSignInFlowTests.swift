import Foundation
import PasskeyClient
import PasskeyClientTestSupport
import Testing

@testable import PasskeyMigrationApp

/// Slide 7: an existing user signs in with the password, and Automatic Passkey Upgrade runs right
/// after it. Whatever the upgrade does, the user is signed in. Against the real server.
@Suite struct PasswordSignInFlowTests {
    /// Slide 7's other screen: a new password account, signed in at once, then upgraded; the
    /// Router shows the account, and the credential store records who signed in (no token).
    @Test func aPasswordSignUpSignsInAndIsUpgraded() async throws {
        try await TestApp.onServer { server in
            let credentials = TestCredentialStore()
            let test = TestApp(server: server, controllers: TestApp.newDevice(), credentials: credentials)
            test.app.show(.passwordSignUp)
            let screen = test.app.passwordSignUp
            screen.email = TestApp.newEmail()
            screen.displayName = "Hanako"
            screen.password = "short"
            #expect(!screen.canSubmit, "at least 8 characters")
            screen.password = TestApp.password
            await screen.signUp()
            guard case .signedIn(let user, let upgrade) = screen.state else {
                Issue.record("not signed in: \(screen.state)")
                return
            }
            #expect(user.displayName == "Hanako")
            #expect(upgrade == .upgraded)
            #expect(test.app.screen == .account)
            #expect(credentials.load()?.displayName == "Hanako")
            #expect(credentials.load()?.method == "password")
            let summary = try #require(try await test.loadedAccount().summary)
            #expect(summary.hasPassword)
            #expect(summary.passkeys.count == 1)
        }
    }

    /// The Router follows the client's signed-in state: a session ended elsewhere (here, signed
    /// out by another device) brings the sign-in screen back at the next 401, whichever screen
    /// made the call.
    @Test func aSessionEndedElsewhereReturnsTheRouterToSignIn() async throws {
        try await TestApp.onServer { server in
            let test = TestApp(server: server, controllers: TestApp.newDevice())
            let following = Task { await test.app.launch() }
            defer { following.cancel() }
            let email = try await test.passwordUser()
            _ = try await test.signInWithPassword(email)
            let token = try #require(test.client.accessToken)
            try await PasskeyClient(baseURL: server, accessToken: token).signOut()
            _ = try? await test.client.sessions()  // any screen's call: 401
            for _ in 0..<500 where test.app.screen != .signIn { try await Task.sleep(for: .milliseconds(10)) }
            #expect(test.app.screen == .signIn)
            #expect(test.app.account == nil)
        }
    }

    @Test func aPasswordSignInIsUpgradedAndTheAccountShowsOnePasskey() async throws {
        try await TestApp.onServer { server in
            let test = TestApp(server: server, controllers: TestApp.newDevice())
            let email = try await test.passwordUser(displayName: "Taro")
            let screen = test.app.passwordSignIn
            screen.email = " \(email) "
            #expect(!screen.canSubmit)
            screen.password = TestApp.password
            #expect(screen.canSubmit)

            await screen.signIn()
            guard case .signedIn(let user, let upgrade) = screen.state else {
                Issue.record("not signed in: \(screen.state)")
                return
            }
            #expect(user.displayName == "Taro")
            #expect(user.method == .password)
            #expect(upgrade == .upgraded)
            #expect(screen.password.isEmpty)
            #expect(test.app.upgrade == .upgraded)

            let account = try await test.loadedAccount()
            let summary = try #require(account.summary)
            #expect(summary.email == email)
            #expect(summary.hasPassword)
            #expect(summary.passkeys.count == 1)
            // The new passkey has not signed in yet: stage ③ is not offered.
            #expect(summary.passwordRemoval == .needsPasskeySignIn)
        }
    }

    @Test func aDeclinedUpgradeKeepsTheUserSignedIn() async throws {
        try await TestApp.onServer { server in
            let device = TestApp.newDevice()
            // The system creates no passkey (the user's choice, or no saved password to upgrade).
            device.refuseNext = .cancelled
            let test = TestApp(server: server, controllers: device)
            let email = try await test.passwordUser()
            let account = try await test.signInWithPassword(email)

            guard case .signedIn(let user, let upgrade) = test.app.passwordSignIn.state else {
                Issue.record("not signed in: \(test.app.passwordSignIn.state)")
                return
            }
            #expect(user.method == .password)
            #expect(upgrade == .declined)
            #expect(test.client.accessToken != nil)
            let summary = try #require(account.summary)
            #expect(summary.passkeys.isEmpty)
            #expect(summary.hasPassword)
        }
    }

    /// The server refuses the upgrade (here: the account holds the most passkeys allowed): still
    /// signed in, the account as it was.
    @Test func aRefusedUpgradeKeepsTheUserSignedIn() async throws {
        try await TestApp.onServer(environment: ["MAX_PASSKEYS_PER_ACCOUNT": "1"]) { server in
            let phone = TestApp(server: server, controllers: TestApp.newDevice())
            let email = try await phone.passwordUser()
            _ = try await phone.signInWithPassword(email)
            #expect(phone.app.upgrade == .upgraded)

            let laptop = TestApp(server: server, controllers: TestApp.newDevice())
            let account = try await laptop.signInWithPassword(email)
            guard case .signedIn(let user, let upgrade) = laptop.app.passwordSignIn.state else {
                Issue.record("not signed in: \(laptop.app.passwordSignIn.state)")
                return
            }
            #expect(user.method == .password)
            #expect(upgrade == .refused)
            #expect(laptop.client.accessToken != nil)
            #expect(account.summary?.passkeys.count == 1)
        }
    }

    @Test func aWrongPasswordStaysOnTheScreenWithAMessage() async throws {
        try await TestApp.onServer { server in
            let test = TestApp(server: server, controllers: TestApp.newDevice())
            let email = try await test.passwordUser()
            test.app.passwordSignIn.email = email
            test.app.passwordSignIn.password = "not the password"
            await test.app.passwordSignIn.signIn()
            #expect(test.app.passwordSignIn.state == .failed("The email address or the password is wrong."))
            #expect(test.app.screen == .signIn)
            #expect(test.client.accessToken == nil)
        }
    }
}
