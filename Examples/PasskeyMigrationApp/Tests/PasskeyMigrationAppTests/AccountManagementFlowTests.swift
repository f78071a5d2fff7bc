import Foundation
import PasskeyClient
import PasskeyClientTestSupport
import Testing

@testable import PasskeyMigrationApp

/// Slide 9: managing the account: passkeys, recovery codes, stage ③, signing out, deleting the
/// account. Against the real server.
@Suite struct AccountManagementFlowTests {
    /// Two phones of one password user, each upgraded at its password sign-in: the second one
    /// lists both passkeys, renames and deletes the first one's; it cannot add a second passkey of
    /// its own (the platform matches the excluded credential).
    @Test func passkeysAreListedRenamedAddedAndDeleted() async throws {
        try await TestApp.onServer { server in
            let phoneA = TestApp(server: server, controllers: TestApp.newDevice())
            let email = try await phoneA.passwordUser()
            let first = try #require(try await phoneA.signInWithPassword(email).summary?.passkeys.first)

            let phoneB = TestApp(server: server, controllers: TestApp.newDevice())
            let account = try await phoneB.signInWithPassword(email)
            let both = try #require(account.summary?.passkeys)
            #expect(both.count == 2)
            let second = try #require(both.first { $0.credentialID != first.credentialID })

            await account.rename(first, to: "  Old phone ")
            #expect(account.notice == nil)
            #expect(account.summary?.passkeys.first { $0.id == first.id }?.name == "Old phone")

            await account.addPasskey()
            #expect(account.notice == "This device already has a passkey for your account.")
            #expect(account.summary?.passkeys.count == 2)

            #expect(phoneB.signals.signals.isEmpty)
            let userHandle = try await phoneB.client.account().userHandle
            await account.delete(first)
            #expect(account.notice == nil)
            #expect(account.summary?.passkeys.map(\.credentialID) == [second.credentialID])
            // The credential manager hears which passkeys remain, so phone A stops offering its own.
            #expect(
                phoneB.signals.signals == [
                    .allAccepted(
                        relyingPartyID: "localhost", userHandle: userHandle, credentialIDs: [second.credentialID])
                ])
        }
    }

    /// A passkey-only account keeps its last way in: a notice, the list unchanged.
    @Test func theLastPasskeyOfAPasskeyOnlyAccountStays() async throws {
        try await TestApp.onServer { server in
            let test = TestApp(server: server, controllers: TestApp.newDevice())
            let account = try await test.createAccountWithForm(email: TestApp.newEmail(), displayName: "Only")
            let only = try #require(account.summary?.passkeys.first)
            await account.delete(only)
            #expect(account.notice == "This is the account's only way to sign in: add another passkey first.")
            #expect(account.summary?.passkeys.map(\.credentialID) == [only.credentialID])
        }
    }

    @Test func recoveryCodesAreShownOnce() async throws {
        try await TestApp.onServer { server in
            let test = TestApp(server: server, controllers: TestApp.newDevice())
            let account = try await test.createAccountWithForm(email: TestApp.newEmail(), displayName: "Codes")
            #expect(account.summary?.recoveryCodesRemaining == 0)
            #expect(account.recoveryCodes == nil)

            await account.createRecoveryCodes()
            let codes = try #require(account.recoveryCodes)
            #expect(codes.count == 10)
            #expect(Set(codes).count == 10)
            #expect(account.summary?.recoveryCodesRemaining == 10)

            account.recoveryCodesSaved()
            #expect(account.recoveryCodes == nil)
            await account.load()
            #expect(account.recoveryCodes == nil)
        }
    }

    /// Stage ③: offered only once a passkey has signed in and recovery is set up.
    @Test func thePasswordGoesAtStageThreeWhenTheAccountAllowsIt() async throws {
        try await TestApp.onServer { server in
            let test = TestApp(server: server, controllers: TestApp.newDevice())
            let email = try await test.passwordUser()
            var account = try await test.signInWithPassword(email)
            #expect(account.summary?.passwordRemoval == .needsPasskeySignIn)
            // Not offered: the Presenter does not even ask the server.
            await account.removePassword()
            #expect(account.summary?.hasPassword == true)

            await account.signOut()
            await test.app.passkeySignIn.signInWithPasskey()
            account = try await test.loadedAccount()
            #expect(account.summary?.passwordRemoval == .needsRecovery)

            await account.createRecoveryCodes()
            account.recoveryCodesSaved()
            #expect(account.summary?.passwordRemoval == .allowed)

            await account.removePassword()
            #expect(account.notice == nil)
            #expect(account.summary?.hasPassword == false)
            #expect(account.summary?.passwordRemoval == .noPassword)
        }
    }

    @Test func signingOutAndDeletingTheAccountGoBackToSignIn() async throws {
        try await TestApp.onServer { server in
            let test = TestApp(server: server, controllers: TestApp.newDevice())
            let email = try await test.passwordUser()
            var account = try await test.signInWithPassword(email)
            await account.signOut()
            #expect(account.state == .signedOut)
            #expect(test.app.screen == .signIn)
            #expect(test.app.account == nil)
            #expect(test.client.accessToken == nil)

            account = try await test.signInWithPassword(email)
            let passkey = try #require(account.summary?.passkeys.first)
            await account.deleteAccount()
            // Its passkey is unknown now, and its saved password unused (the Passwords app drops both).
            #expect(
                test.signals.signals.suffix(2) == [
                    .unknown(relyingPartyID: "localhost", credentialID: passkey.credentialID),
                    .unusedPassword(domain: "localhost", userName: email),
                ])
            #expect(account.state == .deleted)
            #expect(test.app.screen == .signIn)
            #expect(test.client.accessToken == nil)
            // The address is free again.
            _ = try await test.client.createPasswordAccount(
                email: email, displayName: "New", password: "another long one")
        }
    }
}
