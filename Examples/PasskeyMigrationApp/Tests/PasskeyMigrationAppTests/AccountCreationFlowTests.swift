import Foundation
import PasskeyClient
import PasskeyClientTestSupport
import Testing

@testable import PasskeyMigrationApp

/// Slide 8: a new user creates an account whose only credential is a passkey, with the form or
/// with the iOS 26 system sheet. Against the real server.
@Suite struct AccountCreationFlowTests {
    @Test func theFormCreatesAPasskeyOnlyAccount() async throws {
        try await TestApp.onServer { server in
            let test = TestApp(server: server, controllers: TestApp.newDevice())
            let email = TestApp.newEmail("form")
            let screen = test.app.accountCreation
            screen.email = email
            #expect(!screen.canSubmit)
            screen.displayName = " Hanako "
            #expect(screen.canSubmit)

            let account = try await test.createAccountWithForm(email: email, displayName: " Hanako ")
            guard case .created(let user) = screen.state else {
                Issue.record("not created: \(screen.state)")
                return
            }
            #expect(user.displayName == "Hanako")
            #expect(user.method == .passkey)
            let summary = try #require(account.summary)
            #expect(summary.email == email)
            #expect(!summary.hasPassword)
            #expect(summary.passkeys.count == 1)
            #expect(summary.passwordRemoval == .noPassword)
        }
    }

    @Test func theSystemSheetCreatesAnAccountWithTheNameAndAddressItAskedFor() async throws {
        try await TestApp.onServer { server in
            let email = TestApp.newEmail("sheet")
            let device = TestApp.newDevice()
            device.sheetEmail = email
            device.sheetDisplayName = "Sheet User"
            let test = TestApp(server: server, controllers: device)
            let screen = test.app.accountCreation
            #expect(screen.offersSystemSheet)

            await screen.createWithSystemSheet()
            guard case .created(let user) = screen.state else {
                Issue.record("not created: \(screen.state)")
                return
            }
            #expect(user.displayName == "Sheet User")
            let summary = try #require(try await test.loadedAccount().summary)
            #expect(summary.email == email)
            #expect(summary.passkeys.count == 1)
            #expect(!summary.hasPassword)
        }
    }

    @Test func anAddressWithAnAccountIsRefusedOnTheForm() async throws {
        try await TestApp.onServer { server in
            let test = TestApp(server: server, controllers: TestApp.newDevice())
            let email = try await test.passwordUser()
            let screen = test.app.accountCreation
            screen.email = email
            screen.displayName = "Again"
            await screen.createWithForm()
            #expect(screen.state == .failed("An account with this email address exists. Sign in instead."))
            #expect(test.app.screen != .account)
        }
    }
}
