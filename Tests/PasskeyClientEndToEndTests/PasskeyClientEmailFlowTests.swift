import Foundation
import PasskeyClient
import PasskeyDatabaseTestSupport
import PasskeyTestSupport
import Testing

/// (v3) The email flows through `PasskeyClient` against the real server, which writes its mails
/// to a folder (`MAIL_URL=file:///…`); the codes are read from there. They need the server side
/// of issue 21 (the email endpoints, the background sender): until it is in, they fail.
@Suite struct PasskeyClientEmailFlowTests {
    /// A code one digit off the real one (never the real one).
    private static func wrong(_ code: String) -> String {
        let first = code.first?.wholeNumberValue ?? 0
        return "\((first + 1) % 10)" + code.dropFirst()
    }

    /// Verify the address, lose everything, recover by email, set a password.
    @Test func emailVerifyThenLoseEverythingAndRecoverByEmail() async throws {
        var mail = try MailFolder()
        defer { mail.remove() }
        try await ServedServer.with(environment: ["MAIL_URL": mail.mailURL]) { server in
            let client = PasskeyClient(baseURL: server)
            let email = "mail-\(UUID().uuidString.prefix(8))@example.com"
            _ = try await client.createPasswordAccount(
                email: email, displayName: "Mail", password: "correct horse battery")
            try await client.signIn(email: email, password: "correct horse battery")
            let before = try await client.account()
            #expect(!before.emailVerified)
            #expect(before.userHandle.count == 16)

            // The sign-up mailed a code; a new request voids it and mails another.
            _ = try await mail.nextCode(to: email)
            try await client.requestEmailVerification()
            let code = try await mail.nextCode(to: email)
            do throws(PasskeyClientError) {
                _ = try await client.confirmEmailVerification(code: Self.wrong(code))
                Issue.record("a wrong code verified the address")
            } catch {
                #expect(error.code == .invalidCode)
            }
            let verified = try await client.confirmEmailVerification(code: code)
            #expect(verified.emailVerified && verified.email == email)
            do throws(PasskeyClientError) {
                try await client.requestEmailVerification()
                Issue.record("a verified address was sent another code")
            } catch {
                #expect(error.code == .emailAlreadyVerified)
            }

            // Everything lost: a new device with nothing but the address.
            let lost = PasskeyClient(baseURL: server)
            try await lost.requestEmailSignInCode(email: "nobody-\(UUID().uuidString.prefix(8))@example.com")
            try await lost.requestEmailSignInCode(email: email)
            let signInCode = try await mail.nextCode(to: email)
            do throws(PasskeyClientError) {
                try await lost.signInWithEmailCode(email: email, code: Self.wrong(signInCode))
                Issue.record("a wrong email code signed in")
            } catch {
                #expect(error.code == .invalidCredentials)
            }
            let session = try await lost.signInWithEmailCode(email: email, code: signInCode)
            #expect(session.method == "email")
            #expect(lost.accessToken == session.accessToken)
            // A verified address is not taken back: the password is still there, and can be replaced.
            #expect(try await lost.account().hasPassword)
            try await lost.setPassword("a new horse battery staple")
            try await lost.signIn(email: email, password: "a new horse battery staple")
            // The same code works once.
            do throws(PasskeyClientError) {
                try await PasskeyClient(baseURL: server).signInWithEmailCode(email: email, code: signInCode)
                Issue.record("a used email code signed in again")
            } catch {
                #expect(error.code == .invalidCredentials)
            }
        }
    }

    /// A new address: a code to it, nothing changes until it is confirmed.
    @Test func emailChangeIsConfirmedByACodeToTheNewAddress() async throws {
        var mail = try MailFolder()
        defer { mail.remove() }
        try await ServedServer.with(environment: ["MAIL_URL": mail.mailURL]) { server in
            let client = PasskeyClient(baseURL: server)
            let email = "old-\(UUID().uuidString.prefix(8))@example.com"
            let newEmail = "new-\(UUID().uuidString.prefix(8))@example.com"
            _ = try await client.createPasswordAccount(
                email: email, displayName: "Old", password: "correct horse battery")
            try await client.signIn(email: email, password: "correct horse battery")
            try await client.changeEmail(to: newEmail)
            #expect(try await client.account().email == email)
            let code = try await mail.nextCode(to: newEmail)
            do throws(PasskeyClientError) {
                _ = try await client.confirmEmailChange(code: Self.wrong(code))
                Issue.record("a wrong code changed the address")
            } catch {
                #expect(error.code == .invalidCode)
            }
            let changed = try await client.confirmEmailChange(code: code)
            #expect(changed.email == newEmail && changed.emailVerified)
        }
    }

    /// With mail off the email endpoints are 503 `mail-unavailable`; a password can still be set
    /// on a passkey-only account.
    @Test func emailEndpointsWithMailOffAndSettingAPasswordOnAPasskeyAccount() async throws {
        try await ServedServer.with { server in
            let client = PasskeyClient(baseURL: server)
            let email = "passkey-\(UUID().uuidString.prefix(8))@example.com"
            let form = try await client.startPasskeyAccountRegistration(email: email, displayName: "Key")
            var device = try ClientDevice()
            _ = try await client.finishPasskeyAccountRegistration(
                registrationID: form.registrationID, email: email, displayName: "Key",
                credential: try device.register(
                    challenge: form.challenge, userID: form.userID, relyingPartyID: form.relyingPartyID))
            let account = try await client.account()
            #expect(!account.hasPassword && !account.emailVerified)
            #expect(account.userHandle == form.userID)
            do throws(PasskeyClientError) {
                try await client.requestEmailVerification()
                Issue.record("mail is off, yet a code was requested")
            } catch {
                #expect(error.code == .mailUnavailable)
            }
            do throws(PasskeyClientError) {
                try await client.requestEmailSignInCode(email: email)
                Issue.record("mail is off, yet a sign-in code was requested")
            } catch {
                #expect(error.code == .mailUnavailable)
            }
            do throws(PasskeyClientError) {
                try await client.setPassword("short")
                Issue.record("a weak password was set")
            } catch {
                #expect(error.code == .weakPassword)
            }
            try await client.setPassword("correct horse battery")
            #expect(try await client.account().hasPassword)
            let session = try await PasskeyClient(baseURL: server).signIn(
                email: email, password: "correct horse battery")
            #expect(session.method == "password")
        }
    }
}
