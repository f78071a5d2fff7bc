import Foundation
import PasskeyClient
import PasskeyDatabaseTestSupport
import PasskeyTestSupport
import Testing

/// Every flow of the contract through `PasskeyClient`, against the real server and database,
/// with the software authenticator giving the `Data` an app would get from AuthenticationServices.
/// Without `PASSKEY_TEST_DATABASE_URL` these fail loudly (they never skip); the unit suites beside
/// them need no database.
@Suite struct PasskeyClientFlowTests {
    private static func client(_ baseURL: URL) -> PasskeyClient { PasskeyClient(baseURL: baseURL) }

    /// The talk's migration: password sign-in, Automatic Passkey Upgrade, passkey sign-in, stage ③.
    @Test func aPasswordUserUpgradesSignsInWithThePasskeyAndDropsThePassword() async throws {
        try await ServedServer.with { server in
            let client = Self.client(server)
            let email = "taro-\(UUID().uuidString.prefix(8))@example.com"
            let created = try await client.createPasswordAccount(
                email: email, displayName: "Taro", password: "correct horse battery")
            #expect(created.displayName == "Taro")
            let session = try await client.signIn(email: email, password: "correct horse battery")
            #expect(session.method == "password")
            #expect(client.accessToken == session.accessToken)

            // Automatic Passkey Upgrade right after the password sign-in: UP = 0, UV = 0.
            let options = try await client.startPasskeyRegistration(mode: .conditional)
            #expect(options.mode == .conditional)
            #expect(options.userName == email)
            #expect(options.relyingPartyID == "localhost")
            #expect(options.challenge.count == 32)
            #expect(options.userID.count == 16)
            var phone = try ClientDevice()
            let credential = try phone.register(
                challenge: options.challenge, userID: options.userID, relyingPartyID: options.relyingPartyID,
                conditional: true)
            try await client.finishPasskeyRegistration(challengeID: options.challengeID, credential: credential)

            // A second registration excludes the passkey the account has.
            let again = try await client.startPasskeyRegistration(mode: .modal)
            #expect(again.excludedCredentialIDs == [phone.credentialID])

            // The one discoverable sign-in.
            let signInOptions = try await client.startPasskeySignIn()
            let passkeySession = try await client.finishPasskeySignIn(
                challengeID: signInOptions.challengeID, assertion: try phone.assert(signInOptions))
            #expect(passkeySession.method == "passkey")
            #expect(passkeySession.accountID == created.accountID)
            #expect(client.accessToken == passkeySession.accessToken)

            // Management with the held token, and with a token given per call.
            let account = try await client.account()
            #expect(account.hasPassword)
            #expect(account.passkeys.map(\.credentialID) == [phone.credentialID])
            let renamed = try await client.renamePasskey(credentialID: phone.credentialID, to: "Work phone")
            #expect(renamed.name == "Work phone")
            #expect(try await client.passkeys(token: session.accessToken).map(\.name) == ["Work phone"])

            // Stage ③: recovery codes, then the password goes.
            let codes = try await client.createRecoveryCodes()
            #expect(codes.codes.count == 10)
            try await client.removePassword()
            #expect(try await client.account().hasPassword == false)
            let sessions = try await client.sessions()
            #expect(sessions.first?.current == true)
            #expect(sessions.first?.credentialID == phone.credentialID)

            // Recovery, then ending the other sessions, signing out and deleting the account.
            let recovery = try await client.signIn(email: email, recoveryCode: codes.codes[0].lowercased())
            #expect(recovery.method == "recovery")
            try await client.endOtherSessions()
            #expect(try await client.sessions().count == 1)
            try await client.deleteAccount()
            #expect(client.accessToken == nil)
            await #expect(throws: PasskeyClientError.notSignedIn) { try await client.account() }
        }
    }

    /// A new user with the form, and one with the iOS 26 sheet (name and email only at the end).
    @Test func passkeyOnlyAccountsByFormAndBySystemSheet() async throws {
        try await ServedServer.with { server in
            let client = Self.client(server)
            let form = try await client.startPasskeyAccountRegistration(email: "form@example.com", displayName: "Form")
            #expect(form.userName == "form@example.com")
            var device = try ClientDevice()
            let session = try await client.finishPasskeyAccountRegistration(
                registrationID: form.registrationID, email: "form@example.com", displayName: "Form",
                credential: try device.register(
                    challenge: form.challenge, userID: form.userID, relyingPartyID: form.relyingPartyID))
            #expect(session.method == "passkey")
            #expect(try await client.account().hasPassword == false)
            // A second device by a button (modal: user present and verified).
            let modal = try await client.startPasskeyRegistration(mode: .modal)
            var laptop = try ClientDevice()
            try await client.finishPasskeyRegistration(
                challengeID: modal.challengeID,
                credential: try laptop.register(
                    challenge: modal.challenge, userID: modal.userID, relyingPartyID: modal.relyingPartyID),
                name: "Laptop")
            #expect(try await client.passkeys().map(\.name).contains("Laptop"))

            let sheet = try await client.startPasskeyAccountRegistration()
            #expect(sheet.userName.isEmpty && sheet.displayName.isEmpty)
            var other = try ClientDevice()
            let sheetSession = try await client.finishPasskeyAccountRegistration(
                registrationID: sheet.registrationID, email: "sheet@example.com", displayName: "Sheet",
                credential: try other.register(
                    challenge: sheet.challenge, userID: sheet.userID, relyingPartyID: sheet.relyingPartyID))
            #expect(sheetSession.displayName == "Sheet")
            let options = try await client.startPasskeySignIn()
            let signedIn = try await client.finishPasskeySignIn(
                challengeID: options.challengeID, assertion: try other.assert(options))
            #expect(signedIn.accountID == sheetSession.accountID)
        }
    }

    @Test func errorsSurfaceAsTypedValues() async throws {
        try await ServedServer.with(environment: ["RATE_LIMIT_PASSWORD_PER_EMAIL": "1"]) { server in
            let client = Self.client(server)
            // A replayed challenge.
            var device = try ClientDevice()
            let form = try await client.startPasskeyAccountRegistration(email: "e@example.com", displayName: "E")
            _ = try await client.finishPasskeyAccountRegistration(
                registrationID: form.registrationID, email: "e@example.com", displayName: "E",
                credential: try device.register(
                    challenge: form.challenge, userID: form.userID, relyingPartyID: form.relyingPartyID))
            let options = try await client.startPasskeySignIn()
            let assertion = try device.assert(options)
            _ = try await client.finishPasskeySignIn(challengeID: options.challengeID, assertion: assertion)
            do throws(PasskeyClientError) {
                _ = try await client.finishPasskeySignIn(challengeID: options.challengeID, assertion: assertion)
                Issue.record("a replayed sign-in succeeded")
            } catch {
                #expect(error.code == .challengeUnavailable)
                guard case .server(let problem) = error else { throw error }
                #expect(problem.status == 400)
            }
            // A deleted passkey: unknown-credential (for the signal API).
            let stranger = try ClientDevice()
            var unknown = stranger
            unknown.userID = Data(repeating: 1, count: 16)
            let fresh = try await client.startPasskeySignIn()
            await #expect(
                throws: PasskeyClientError.server(
                    PasskeyServerError(
                        code: .unknownCredential, status: 401, detail: "This passkey is not registered here."))
            ) {
                try await client.finishPasskeySignIn(
                    challengeID: fresh.challengeID, assertion: try unknown.assert(fresh))
            }
            // Rate limited, with Retry-After as a number.
            _ = try? await client.signIn(email: "nobody@example.com", password: "wrong password")
            do throws(PasskeyClientError) {
                _ = try await client.signIn(email: "nobody@example.com", password: "wrong password")
                Issue.record("the second failure was not limited")
            } catch {
                guard case .server(let problem) = error else { throw error }
                #expect(problem.code == .rateLimited)
                #expect((problem.retryAfter ?? 0) >= 1)
            }
            // Registration verification failures carry their reason.
            let token = try #require(client.accessToken)
            let start = try await client.startPasskeyRegistration(mode: .modal, token: token)
            var wrongSite = try ClientDevice()
            let credential = try wrongSite.register(
                challenge: start.challenge, userID: start.userID, relyingPartyID: "evil.example")
            do throws(PasskeyClientError) {
                try await client.finishPasskeyRegistration(challengeID: start.challengeID, credential: credential)
                Issue.record("a registration for another RP ID was accepted")
            } catch {
                guard case .server(let problem) = error else { throw error }
                #expect(problem.code == .registrationVerificationFailed)
                #expect(problem.reason == "rpIdHashMismatch")
            }
            // A server that is not there.
            let nowhere = PasskeyClient(baseURL: URL(string: "http://127.0.0.1:1")!)
            do throws(PasskeyClientError) {
                _ = try await nowhere.startPasskeySignIn()
                Issue.record("a request to a closed port succeeded")
            } catch {
                guard case .transport = error else { throw error }
            }
        }
    }
}
