import Foundation
import PasskeyClient
import PasskeyClientTestSupport
import Testing

@testable import PasskeyMigrationApp

/// Slide 9: a user who lost the passkey signs in with a recovery code and adds a new passkey at
/// once. Against the real server.
@Suite struct RecoveryFlowTests {
    @Test func aRecoveryCodeSignsInAndANewPasskeyIsAddedAtOnce() async throws {
        try await TestApp.onServer { server in
            let email = TestApp.newEmail()
            let old = TestApp(server: server, controllers: TestApp.newDevice())
            let account = try await old.createAccountWithForm(email: email, displayName: "Lost")
            await account.createRecoveryCodes()
            let code = try #require(account.recoveryCodes?.first)
            account.recoveryCodesSaved()

            // A new phone, without the passkey.
            let phone = TestApp(server: server, controllers: TestApp.newDevice())
            phone.app.show(.recovery)
            let screen = phone.app.recoverySignIn
            screen.email = email
            screen.code = "AAAA-BBBB-CCCC-DDDD"
            await screen.signIn()
            #expect(screen.state == .failed("The email address or the recovery code is wrong."))

            screen.code = code.lowercased()
            await screen.signIn()
            guard case .signedIn(let user) = screen.state else {
                Issue.record("not signed in: \(screen.state)")
                return
            }
            #expect(user.method == .recovery)
            #expect(screen.code.isEmpty)
            #expect(phone.app.suggestsNewPasskey)

            let recovered = try await phone.loadedAccount()
            #expect(recovered.summary?.recoveryCodesRemaining == 9)
            await recovered.addPasskey()
            #expect(recovered.notice == nil)
            #expect(recovered.summary?.passkeys.count == 2)
        }
    }

    /// A recovery sign-in sends the signals of every sign-in (Apple's guidance): the passkeys the
    /// server accepts and the user's current details.
    @Test func aRecoverySignInReportsTheAcceptedPasskeysAndTheUser() async throws {
        try await TestApp.onServer { server in
            let email = TestApp.newEmail()
            let test = TestApp(server: server, controllers: TestApp.newDevice())
            let account = try await test.createAccountWithForm(email: email, displayName: "Signals")
            await account.createRecoveryCodes()
            let code = try #require(account.recoveryCodes?.first)
            account.recoveryCodesSaved()
            let summary = try await test.client.account()
            await account.signOut()
            let before = test.signals.signals.count

            test.app.show(.recovery)
            test.app.recoverySignIn.email = email
            test.app.recoverySignIn.code = code
            await test.app.recoverySignIn.signIn()
            #expect(test.app.screen == .account)
            #expect(
                Array(test.signals.signals.dropFirst(before)) == [
                    .allAccepted(
                        relyingPartyID: "localhost", userHandle: summary.userHandle,
                        credentialIDs: summary.passkeys.map(\.credentialID)),
                    .currentUser(
                        relyingPartyID: "localhost", userHandle: summary.userHandle, name: summary.email,
                        displayName: "Signals"),
                ])
        }
    }
}
