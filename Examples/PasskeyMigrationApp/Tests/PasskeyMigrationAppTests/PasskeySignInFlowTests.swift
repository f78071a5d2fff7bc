import Foundation
import PasskeyClient
import PasskeyClientTestSupport
import Testing

@testable import PasskeyMigrationApp

/// Slide 8: signing in with a passkey, by the button and by AutoFill on the email field, on a
/// device that holds one. Against the real server.
@Suite struct PasskeySignInFlowTests {
    /// A device with a passkey for a new account, signed out again.
    @MainActor private static func deviceWithAPasskey(_ test: TestApp) async throws {
        let account = try await test.createAccountWithForm(email: TestApp.newEmail(), displayName: "Device")
        await account.signOut()
        #expect(test.app.screen == .signIn)
        #expect(test.client.accessToken == nil)
    }

    @Test func theButtonSignsIn() async throws {
        try await TestApp.onServer { server in
            let test = TestApp(server: server, controllers: TestApp.newDevice())
            try await Self.deviceWithAPasskey(test)
            let screen = test.app.passkeySignIn

            await screen.signInWithPasskey()
            guard case .signedIn(let user) = screen.state else {
                Issue.record("not signed in: \(screen.state)")
                return
            }
            #expect(user.method == .passkey)
            #expect(user.displayName == "Device")
            let summary = try #require(try await test.loadedAccount().summary)
            #expect(summary.passkeys.first?.lastUsedAt != nil)
        }
    }

    @Test func autoFillOnTheEmailFieldSignsIn() async throws {
        try await TestApp.onServer { server in
            let test = TestApp(server: server, controllers: TestApp.newDevice())
            try await Self.deviceWithAPasskey(test)
            let screen = test.app.passkeySignIn

            await screen.emailFieldAppeared()
            guard case .signedIn(let user) = screen.state else {
                Issue.record("not signed in: \(screen.state)")
                return
            }
            #expect(user.method == .passkey)
            #expect(test.app.screen == .account)
        }
    }

    /// The user focuses the password field and signs in with a wrong password: the passkeys stay
    /// offered all along (AutoFill is never withdrawn on password focus, as in Apple's sample).
    @Test func aFailedPasswordKeepsAutoFillOffered() async throws {
        try await TestApp.onServer { server in
            let device = TestApp.newDevice()
            device.holdAutoFill = true
            let test = TestApp(server: server, controllers: device)
            try await Self.deviceWithAPasskey(test)
            let screen = test.app.passkeySignIn

            let autoFill = Task { await screen.emailFieldAppeared() }
            try await Self.untilAutoFillIsOffered(device)
            let email = try await test.passwordUser()
            test.app.passwordSignIn.email = email
            test.app.passwordSignIn.password = "not the password"
            await test.app.passwordSignIn.signIn()
            #expect(test.app.passwordSignIn.state == .failed("The email address or the password is wrong."))
            #expect(screen.state == .offeringAutoFill)
            #expect(device.isHoldingAutoFill, "still offered")
            // The user picks the passkey after all.
            device.pickAutoFill()
            await autoFill.value
            guard case .signedIn = screen.state else {
                Issue.record("not signed in: \(screen.state)")
                return
            }
            #expect(test.app.screen == .account)
        }
    }

    /// No offer is running (the user closed an earlier one, or it was never started) and a
    /// password sign-in fails: the passkeys are offered again (the Router's `onFailed`).
    @Test func aFailedPasswordBringsAutoFillBack() async throws {
        try await TestApp.onServer { server in
            let device = TestApp.newDevice()
            device.holdAutoFill = true
            let test = TestApp(server: server, controllers: device)
            try await Self.deviceWithAPasskey(test)
            let screen = test.app.passkeySignIn
            #expect(screen.state == .idle)
            #expect(!device.isHoldingAutoFill)

            test.app.passwordSignIn.email = try await test.passwordUser()
            test.app.passwordSignIn.password = "not the password"
            await test.app.passwordSignIn.signIn()
            #expect(test.app.passwordSignIn.state == .failed("The email address or the password is wrong."))
            try await Self.untilAutoFillIsOffered(device)
            #expect(screen.state == .offeringAutoFill)
            device.pickAutoFill()
            await screen.autoFillTask()?.value
            #expect(test.app.screen == .account)
        }
    }

    /// The offer the presenter brought back (after a cancelled sheet) is withdrawn when the Router
    /// shows another screen: the next screen's fields get no passkey suggestion.
    @Test func anotherScreenWithdrawsTheOffer() async throws {
        try await TestApp.onServer { server in
            let device = TestApp.newDevice()
            device.holdAutoFill = true
            let test = TestApp(server: server, controllers: device)
            try await Self.deviceWithAPasskey(test)
            let screen = test.app.passkeySignIn

            device.refuseNext = .cancelled
            await screen.signInWithPasskey()
            try await Self.untilAutoFillIsOffered(device)
            test.app.show(.passwordSignUp)
            #expect(test.app.screen == .passwordSignUp)
            try await TestApp.until { !device.isHoldingAutoFill }
            #expect(!device.isHoldingAutoFill, "withdrawn with the screen")
            #expect(screen.state == .idle)
            #expect(screen.autoFillTask() == nil)
        }
    }

    /// The button's sheet offers the saved password too: the user picks it, is signed in with it
    /// and upgraded to a passkey at once (stage ① → ② in one tap).
    @Test func aSavedPasswordPickedInTheSheetSignsInAndIsUpgraded() async throws {
        try await TestApp.onServer { server in
            let device = TestApp.newDevice()
            let test = TestApp(server: server, controllers: device)
            let email = try await test.passwordUser(displayName: "Saved")
            device.pickSavedPassword = PasskeySavedPassword(user: email, password: TestApp.password)
            await test.app.passkeySignIn.signInWithPasskeyOrPassword()
            guard case .signedIn(let user) = test.app.passkeySignIn.state else {
                Issue.record("not signed in: \(test.app.passkeySignIn.state)")
                return
            }
            #expect(user.method == .password)
            let summary = try #require(try await test.loadedAccount().summary)
            #expect(summary.passkeys.count == 1, "upgraded right after the saved password")
        }
    }

    /// The user closes the passkey sheet: the QuickType offer comes back at once.
    @Test func aCancelledSheetBringsAutoFillBack() async throws {
        try await TestApp.onServer { server in
            let device = TestApp.newDevice()
            device.holdAutoFill = true
            let test = TestApp(server: server, controllers: device)
            try await Self.deviceWithAPasskey(test)
            let screen = test.app.passkeySignIn

            device.refuseNext = .cancelled
            await screen.signInWithPasskey()
            #expect(screen.state == .offeringAutoFill || screen.state == .idle)
            try await Self.untilAutoFillIsOffered(device)
            #expect(screen.state == .offeringAutoFill)
            device.pickAutoFill()
            await screen.autoFillTask()?.value
            #expect(test.app.screen == .account)
        }
    }

    /// The email field regains focus after the offer was withdrawn (the screen went and came
    /// back): the offer comes back; while it runs, focusing again leaves it alone.
    @Test func focusingTheEmailFieldBringsAutoFillBack() async throws {
        try await TestApp.onServer { server in
            let device = TestApp.newDevice()
            device.holdAutoFill = true
            let test = TestApp(server: server, controllers: device)
            try await Self.deviceWithAPasskey(test)
            let screen = test.app.passkeySignIn

            await screen.emailFieldFocused()
            try await Self.untilAutoFillIsOffered(device)
            #expect(screen.state == .offeringAutoFill)
            await screen.emailFieldFocused()
            #expect(screen.state == .offeringAutoFill, "a fresh offer is left as it is")
            device.pickAutoFill()
            await screen.autoFillTask()?.value
            #expect(test.app.screen == .account)
        }
    }

    /// The button while AutoFill waits: the bridge withdraws the offer and the sheet signs in.
    @Test func theButtonReplacesAWaitingAutoFill() async throws {
        try await TestApp.onServer { server in
            let device = TestApp.newDevice()
            device.holdAutoFill = true
            let test = TestApp(server: server, controllers: device)
            try await Self.deviceWithAPasskey(test)
            let screen = test.app.passkeySignIn

            let autoFill = Task { await screen.emailFieldAppeared() }
            try await Self.untilAutoFillIsOffered(device)
            await screen.signInWithPasskey()
            await autoFill.value
            guard case .signedIn(let user) = screen.state else {
                Issue.record("not signed in: \(screen.state)")
                return
            }
            #expect(user.method == .passkey)
            #expect(test.app.screen == .account)
        }
    }

    /// Waits (at most 10 s) until the device shows an AutoFill request.
    @MainActor private static func untilAutoFillIsOffered(_ device: SoftwareAuthenticatorControllers) async throws {
        try await TestApp.until { device.isHoldingAutoFill }
        #expect(device.isHoldingAutoFill)
    }

    @Test func aPasskeyOfADeletedAccountIsAFailedStateWithAMessage() async throws {
        try await TestApp.onServer { server in
            let test = TestApp(server: server, controllers: TestApp.newDevice())
            let account = try await test.createAccountWithForm(email: TestApp.newEmail(), displayName: "Gone")
            await account.deleteAccount()
            #expect(account.state == .deleted)
            #expect(test.app.screen == .signIn)

            // The device still offers the passkey (the software one has no credential manager).
            await test.app.passkeySignIn.signInWithPasskey()
            #expect(
                test.app.passkeySignIn.state
                    == .failed("This passkey was removed from your account. Sign in another way and add a new one."))
            #expect(test.app.screen == .signIn)
        }
    }
}
