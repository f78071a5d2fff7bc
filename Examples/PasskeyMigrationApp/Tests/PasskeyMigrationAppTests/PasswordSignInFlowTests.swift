import Foundation
import PasskeyClient
import PasskeyClientTestSupport
import Testing

@testable import PasskeyMigrationApp

/// Slide 7: an existing user signs in with the password, and Automatic Passkey Upgrade runs right
/// after it. Whatever the upgrade does, the user is signed in. Against the real server.
@Suite struct PasswordSignInFlowTests {
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
