import Foundation
import PasskeyClient
import Testing

/// AutoFill-assisted sign-in and the credential-manager signals, through scripted controllers
/// and a stubbed server.
@MainActor
@Suite struct PasskeyAuthorizationAutoFillTests {
    let stub = StubServer()
    let controllers = ScriptedControllers()
    let signals = RecordingSignals()
    let clock = TestClock()

    func bridge(relyingPartyID: String? = nil) -> PasskeyAuthorization {
        PasskeyAuthorization(
            client: stub.client(accessToken: "held-token"), controllers: controllers, signals: signals,
            relyingPartyID: relyingPartyID, now: clock.now)
    }

    // MARK: - AutoFill

    @Test func autoFillSignsInWithThePasskeyPickedInTheKeyboard() async throws {
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        stub.respond(status: 200, ContractAnswers.session(method: "passkey"))
        let signingIn = Task { try await bridge.signInWithAutoFill() }
        let controller = try await controllers.started(1)
        guard case .assertion(_, .autoFill) = controller.request else {
            Issue.record("not AutoFill: \(controller.request)")
            return
        }
        controller.complete(.success(.assertion(PasskeyAuthorizationTests.assertion)))
        #expect(try await signingIn.value.method == "passkey")
        // Then the signals every sign-in sends read the account (its answer is not scripted here:
        // they are skipped, and the sign-in stands).
        #expect(
            stub.requests.map(\.path) == [
                "/v1/passkeys/authentications", "/v1/passkeys/authentications/finish", "/v1/account",
            ])
    }

    /// No timer takes the offer away: long past its challenge's expiry, the request the user may
    /// be acting on is still the one offered; only focusing the field (`refreshAutoFill()`)
    /// replaces a stale challenge, and a fresh one is left alone.
    @Test func anExpiringChallengeIsReplacedOnlyWhenTheFieldIsFocused() async throws {
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        stub.respond(status: 200, ContractAnswers.authenticationOptions.replacingOccurrences(of: "ch-2", with: "ch-3"))
        stub.respond(status: 200, ContractAnswers.session(method: "passkey"))
        let signingIn = Task { try await bridge.signInWithAutoFill() }
        let first = try await controllers.started(1)
        #expect(bridge.isOfferingAutoFill)
        #expect(!bridge.refreshAutoFill(), "five minutes left: left alone")
        clock.advance(by: 3600)
        try await Task.sleep(for: .milliseconds(50))
        #expect(first.cancels == 0, "nothing cancels the offer by itself")
        #expect(controllers.made.count == 1)
        #expect(bridge.refreshAutoFill(), "focused with a stale challenge: replaced")
        let second = try await controllers.started(2)
        #expect(first.cancels == 1)
        guard case .assertion(let options, .autoFill) = second.request else {
            Issue.record("not AutoFill: \(second.request)")
            return
        }
        #expect(options.challengeID == "ch-3")
        second.complete(.success(.assertion(PasskeyAuthorizationTests.assertion)))
        _ = try await signingIn.value
        #expect(stub.requests.last { $0.path.hasSuffix("/finish") }?.json?["challengeID"] as? String == "ch-3")
        #expect(stub.requests.filter { $0.path.hasPrefix("/v1/passkeys") }.count == 3)
    }

    /// The user picked a passkey after its challenge expired: the server says so, and the offer
    /// starts again with new options instead of failing.
    @Test func aPickWhoseChallengeExpiredOffersAgain() async throws {
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        stub.respond(status: 400, PasskeyAuthorizationTests.problem(400, "challenge-unavailable"))
        stub.respond(status: 200, ContractAnswers.authenticationOptions.replacingOccurrences(of: "ch-2", with: "ch-3"))
        stub.respond(status: 200, ContractAnswers.session(method: "passkey"))
        let signingIn = Task { try await bridge.signInWithAutoFill() }
        try await controllers.started(1).complete(.success(.assertion(PasskeyAuthorizationTests.assertion)))
        try await controllers.started(2).complete(.success(.assertion(PasskeyAuthorizationTests.assertion)))
        #expect(try await signingIn.value.method == "passkey")
        #expect(stub.requests.last { $0.path.hasSuffix("/finish") }?.json?["challengeID"] as? String == "ch-3")
    }

    /// A request while another shows is refused with its own reason (not the platform's
    /// `.failed`), and the sheet is left alone.
    @Test func autoFillAskedForWhileASheetShowsIsRequestInProgress() async throws {
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.registrationOptions)
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        let upgrading = Task { await bridge.upgradeToPasskey() }
        let sheet = try await controllers.started(1)
        // AutoFill asked for while the upgrade shows: it does not take over the sheet.
        let signingIn = Task { try await bridge.signInWithAutoFill() }
        await #expect(throws: PasskeyClientError.authorization(.requestInProgress)) { try await signingIn.value }
        sheet.complete(.failure(.cancelled))
        #expect(await upgrading.value == .declined(.cancelled))
    }

    /// Between two of its requests (here: waiting for the server's options) the AutoFill loop
    /// holds no request; an upgrade that starts then stops it, instead of the loop's next request
    /// colliding with the upgrade's (`requestInProgress`) when the options arrive.
    @Test func anUpgradeWhileAutoFillWaitsForItsOptionsEndsTheLoop() async throws {
        let bridge = bridge()
        let options = stub.respondLater(status: 200, ContractAnswers.authenticationOptions)
        defer { options.open() }  // never leave the stub's waiting thread behind
        let autoFill = Task { try await bridge.signInWithAutoFill() }
        try await stub.untilRequests(1)
        stub.respond(status: 200, ContractAnswers.registrationOptions)
        let upgrading = Task { await bridge.upgradeToPasskey() }
        let sheet = try await controllers.started(1)
        guard case .registration(let registration) = sheet.request, registration.mode == .conditional else {
            Issue.record("not the upgrade: \(sheet.request)")
            return
        }
        options.open()
        await #expect(throws: PasskeyClientError.authorization(.cancelled)) { try await autoFill.value }
        #expect(controllers.made.count == 1, "no AutoFill request under the upgrade")
        sheet.complete(.failure(.cancelled))
        #expect(await upgrading.value == .declined(.cancelled))
    }

    @Test func cancelAutoFillEndsTheRequestWithoutARestart() async throws {
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        let signingIn = Task { try await bridge.signInWithAutoFill() }
        let controller = try await controllers.started(1)
        bridge.cancelAutoFill()
        await #expect(throws: PasskeyClientError.authorization(.cancelled)) { try await signingIn.value }
        #expect(controller.cancels == 1)
        #expect(controllers.made.count == 1)
        #expect(stub.requests.count == 1)
    }

    @Test func signInWithPasskeyCancelsAutoFillAndShowsTheSheet() async throws {
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        let autoFill = Task { try await bridge.signInWithAutoFill() }
        let autoFillController = try await controllers.started(1)
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        stub.respond(status: 200, ContractAnswers.session(method: "passkey"))
        let modal = Task { try await bridge.signInWithPasskey() }
        await #expect(throws: PasskeyClientError.authorization(.cancelled)) { try await autoFill.value }
        #expect(autoFillController.cancels == 1)
        let sheet = try await controllers.started(2)
        guard case .assertion(_, .modal) = sheet.request else {
            Issue.record("not the sheet: \(sheet.request)")
            return
        }
        sheet.complete(.success(.assertion(PasskeyAuthorizationTests.assertion)))
        #expect(try await modal.value.method == "passkey")
        #expect(controllers.made.count == 2)
    }

    @Test func cancellingTheAutoFillTaskCancelsItsController() async throws {
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        let signingIn = Task { try await bridge.signInWithAutoFill() }
        let controller = try await controllers.started(1)
        signingIn.cancel()
        await #expect(throws: PasskeyClientError.authorization(.cancelled)) { try await signingIn.value }
        #expect(controller.cancels == 1)
        #expect(controllers.made.count == 1)
    }

    // MARK: - Signals

    @Test func aSignInAnsweredUnknownCredentialReportsThatCredential() async throws {
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        stub.respond(status: 401, PasskeyAuthorizationTests.problem(401, "unknown-credential"))
        let signingIn = Task { try await bridge.signInWithPasskey() }
        try await controllers.started(1).complete(.success(.assertion(PasskeyAuthorizationTests.assertion)))
        await #expect {
            try await signingIn.value
        } throws: {
            ($0 as? PasskeyClientError)?.code == .unknownCredential
        }
        #expect(signals.signals == [.unknown(relyingPartyID: "example.com", credentialID: Data([7, 7]))])
    }

    @Test func aSignInFailingOtherwiseSendsNoSignal() async throws {
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        stub.respond(status: 401, PasskeyAuthorizationTests.problem(401, "authentication-failed"))
        let signingIn = Task { try await bridge.signInWithPasskey() }
        try await controllers.started(1).complete(.success(.assertion(PasskeyAuthorizationTests.assertion)))
        await #expect(throws: PasskeyClientError.self) { try await signingIn.value }
        #expect(signals.signals.isEmpty)
    }

    @Test func deletingAPasskeyReportsTheRemainingOnes() async throws {
        let bridge = bridge(relyingPartyID: "example.com")
        stub.respond(status: 204)
        stub.respond(status: 200, ContractAnswers.account)
        try await bridge.deletePasskey(credentialID: Data([1, 2, 3]))
        #expect(stub.requests.map(\.method) == ["DELETE", "GET"])
        #expect(stub.requests.first?.path == "/v1/passkeys/AQID")
        #expect(
            signals.signals == [
                .allAccepted(
                    relyingPartyID: "example.com", userHandle: Data([4, 5, 6]),
                    credentialIDs: [Data([0xfb, 0xff, 0xbf])])
            ])
    }

    @Test func withoutARelyingPartyIDNoSignalIsSent() async throws {
        let bridge = bridge()
        stub.respond(status: 204)
        try await bridge.deletePasskey(credentialID: Data([1, 2, 3]))
        #expect(signals.signals.isEmpty)
        #expect(stub.requests.count == 1)
    }

    @Test func aRefusedDeletionSendsNoSignal() async throws {
        let bridge = bridge(relyingPartyID: "example.com")
        stub.respond(status: 403, PasskeyAuthorizationTests.problem(403, "reauthentication-required"))
        await #expect(throws: PasskeyClientError.self) { try await bridge.deletePasskey(credentialID: Data([1])) }
        #expect(signals.signals.isEmpty)
    }

    /// After every sign-in (passkey or password), as Apple suggests: the passkeys the server
    /// accepts and the current user's details.
    @Test(arguments: ["passkey", "password"])
    func everySignInReportsTheAcceptedPasskeysAndTheUser(kind: String) async throws {
        let bridge = bridge(relyingPartyID: "example.com")
        if kind == "passkey" {
            stub.respond(status: 200, ContractAnswers.authenticationOptions)
            stub.respond(status: 200, ContractAnswers.session(method: "passkey"))
            stub.respond(status: 200, ContractAnswers.account)
            let signingIn = Task { try await bridge.signInWithPasskey() }
            try await controllers.started(1).complete(.success(.assertion(PasskeyAuthorizationTests.assertion)))
            _ = try await signingIn.value
        } else {
            stub.respond(status: 200, ContractAnswers.session(method: "password"))
            stub.respond(status: 200, ContractAnswers.account)
            try await bridge.signIn(email: "taro@example.com", password: "secret words")
        }
        #expect(
            signals.signals == [
                .allAccepted(
                    relyingPartyID: "example.com", userHandle: Data([4, 5, 6]),
                    credentialIDs: [Data([0xfb, 0xff, 0xbf])]),
                .currentUser(
                    relyingPartyID: "example.com", userHandle: Data([4, 5, 6]), name: "taro@example.com",
                    displayName: "Taro"),
            ])
    }

    /// Stage ③: the password goes on the server, then the password managers hear it is unused.
    @Test func removingThePasswordReportsItUnused() async throws {
        let bridge = bridge(relyingPartyID: "example.com")
        stub.respond(status: 200, ContractAnswers.account)
        stub.respond(status: 204)
        try await bridge.removePassword()
        #expect(stub.requests.map(\.path) == ["/v1/account", "/v1/account/password"])
        #expect(signals.signals == [.unusedPassword(domain: "example.com", userName: "taro@example.com")])
        // Refused by the server: nothing is reported.
        stub.respond(status: 200, ContractAnswers.account)
        stub.respond(status: 409, PasskeyAuthorizationTests.problem(409, "recovery-not-set-up"))
        await #expect(throws: PasskeyClientError.self) { try await bridge.removePassword() }
        #expect(signals.signals.count == 1)
    }

    @Test func deletingTheAccountReportsItsPasskeysUnknownAndItsPasswordUnused() async throws {
        let bridge = bridge(relyingPartyID: "example.com")
        stub.respond(status: 200, ContractAnswers.account)
        stub.respond(status: 204)
        try await bridge.deleteAccount()
        #expect(stub.requests.map(\.method) == ["GET", "DELETE"])
        #expect(
            signals.signals == [
                .unknown(relyingPartyID: "example.com", credentialID: Data([0xfb, 0xff, 0xbf])),
                .unusedPassword(domain: "example.com", userName: "taro@example.com"),
            ])
        #expect(bridge.client.accessToken == nil)
    }

    @Test func aConfirmedEmailChangeReportsTheNewUserName() async throws {
        let bridge = bridge(relyingPartyID: "example.com")
        stub.respond(status: 200, ContractAnswers.verifiedAccount)
        let account = try await bridge.confirmEmailChange(code: "123456")
        #expect(account.email == "new@example.com")
        #expect(stub.requests.first?.path == "/v1/account/email/confirm")
        #expect(
            signals.signals == [
                .currentUser(
                    relyingPartyID: "example.com", userHandle: Data([4, 5, 6]), name: "new@example.com",
                    displayName: "Taro")
            ])
    }

    @Test func theRelyingPartyOfTheLastOptionsIsUsed() async throws {
        let bridge = bridge(relyingPartyID: "configured.example")
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        stub.respond(status: 200, ContractAnswers.session(method: "passkey"))
        let signingIn = Task { try await bridge.signInWithPasskey() }
        try await controllers.started(1).complete(.success(.assertion(PasskeyAuthorizationTests.assertion)))
        _ = try await signingIn.value
        stub.respond(status: 204)
        stub.respond(status: 200, ContractAnswers.account)
        try await bridge.deletePasskey(credentialID: Data([1]))
        guard case .allAccepted(let relyingPartyID, _, _) = signals.signals.first else {
            Issue.record("no signal: \(signals.signals)")
            return
        }
        #expect(relyingPartyID == "example.com")
    }
}

/// A sign-in offered at launch (`preferImmediatelyAvailableCredentials`) and the platform's
/// reasons kept for the developer.
@MainActor
@Suite struct PasskeyAuthorizationImmediateTests {
    let stub = StubServer()
    let controllers = ScriptedControllers()

    @Test func noPasskeyOnTheDeviceIsNilNotAnError() async throws {
        let bridge = PasskeyAuthorization(client: stub.client(), controllers: controllers)
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        let signingIn = Task { try await bridge.signInWithImmediatelyAvailablePasskey() }
        let controller = try await controllers.started(1)
        guard case .assertion(_, .immediate) = controller.request else {
            Issue.record("not immediate: \(controller.request)")
            return
        }
        controller.complete(.failure(.notInteractive))
        #expect(try await signingIn.value == nil)
    }

    @Test func aPasskeyOnTheDeviceSignsIn() async throws {
        let bridge = PasskeyAuthorization(client: stub.client(), controllers: controllers)
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        stub.respond(status: 200, ContractAnswers.session(method: "passkey"))
        let signingIn = Task { try await bridge.signInWithImmediatelyAvailablePasskey() }
        try await controllers.started(1).complete(.success(.assertion(PasskeyAuthorizationTests.assertion)))
        #expect(try await signingIn.value?.method == "passkey")
    }

    @Test func theControllersReasonIsKeptAfterAFailureAndClearedAfterASuccess() async throws {
        let bridge = PasskeyAuthorization(client: stub.client(), controllers: controllers)
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        let options = try await bridge.client.startPasskeySignIn()
        let failing = Task { try await bridge.perform(.assertion(options, presentation: .modal)) }
        let controller = try await controllers.started(1)
        controller.reason = "Application with identifier A.b is not associated with domain example.com"
        controller.complete(.failure(.failed))
        await #expect(throws: PasskeyAuthorizationError.failed) { try await failing.value }
        #expect(bridge.lastFailureReason == "Application with identifier A.b is not associated with domain example.com")
        let succeeding = Task { try await bridge.perform(.assertion(options, presentation: .modal)) }
        try await controllers.started(2).complete(.success(.assertion(PasskeyAuthorizationTests.assertion)))
        _ = try await succeeding.value
        #expect(bridge.lastFailureReason == nil)
    }
}

/// One sheet with passkeys and saved passwords (stage ① → ② in one tap).
@MainActor
@Suite struct PasskeyAuthorizationSavedPasswordTests {
    let stub = StubServer()
    let controllers = ScriptedControllers()

    @Test func aPickedSavedPasswordComesBackForTheAppToSignInWith() async throws {
        let bridge = PasskeyAuthorization(client: stub.client(), controllers: controllers)
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        let signingIn = Task { try await bridge.signInWithPasskeyOrSavedPassword() }
        let controller = try await controllers.started(1)
        guard case .assertionOrPassword = controller.request else {
            Issue.record("not the combined request: \(controller.request)")
            return
        }
        let saved = PasskeySavedPassword(user: "taro@example.com", password: "pw-SECRET-1")
        controller.complete(.success(.password(saved)))
        #expect(try await signingIn.value == .savedPassword(saved))
        #expect(stub.requests.map(\.path) == ["/v1/passkeys/authentications"], "no finish: no passkey was used")
        #expect(!"\(saved)".contains("pw-SECRET-1"))
        var dumped = ""
        dump(saved, to: &dumped)
        #expect(!dumped.contains("pw-SECRET-1"))
    }

    @Test func aPickedPasskeySignsIn() async throws {
        let bridge = PasskeyAuthorization(client: stub.client(), controllers: controllers)
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        stub.respond(status: 200, ContractAnswers.session(method: "passkey"))
        let signingIn = Task { try await bridge.signInWithPasskeyOrSavedPassword() }
        try await controllers.started(1).complete(.success(.assertion(PasskeyAuthorizationTests.assertion)))
        guard case .passkey(let session) = try await signingIn.value else {
            Issue.record("not a passkey sign-in")
            return
        }
        #expect(session.method == "passkey")
    }
}
