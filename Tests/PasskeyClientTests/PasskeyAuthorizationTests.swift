import Foundation
import PasskeyClient
import Testing

/// The bridge's logic through scripted controllers (the platform's sheet played by the test) and
/// a stubbed server: no UI, no socket, no database.
@MainActor
@Suite struct PasskeyAuthorizationTests {
    static let registration = PasskeyRegistrationCredential(
        credentialID: Data([9, 9]), rawClientDataJSON: Data([1]), rawAttestationObject: Data([2]),
        transports: ["internal"])
    static let assertion = PasskeyAssertionCredential(
        credentialID: Data([7, 7]), rawClientDataJSON: Data([1]), rawAuthenticatorData: Data([2]),
        signature: Data([3]), userID: Data([4, 5, 6]))

    /// Options whose values differ from every default: UV required, direct attestation, one allowed credential.
    static let strictRegistrationOptions = """
        {"challenge":"AQID","challengeID":"ch-1","displayName":"Taro Yamada","expiresAt":"2026-12-01T19:05:00Z",\
        "mode":"modal","relyingPartyID":"example.com","relyingPartyName":"Example","userID":"BAUG",\
        "userName":"taro@example.com","publicKey":{"attestation":"direct","authenticatorSelection":\
        {"requireResidentKey":true,"residentKey":"required","userVerification":"required"},"challenge":"AQID",\
        "excludeCredentials":[{"id":"-_-_","type":"public-key"}],"extensions":{"credProps":true},"hints":[],\
        "pubKeyCredParams":[{"alg":-7,"type":"public-key"}],"rp":{"id":"example.com","name":"Example"},\
        "timeout":300000,"user":{"displayName":"Taro Yamada","id":"BAUG","name":"taro@example.com"}}}
        """
    static let strictAuthenticationOptions = """
        {"challenge":"AQID","challengeID":"ch-2","expiresAt":"2026-12-01T19:05:00Z","relyingPartyID":"example.com",\
        "publicKey":{"allowCredentials":[{"id":"BwI","type":"public-key"}],"challenge":"AQID","hints":[],\
        "rpId":"example.com","timeout":300000,"userVerification":"required"}}
        """

    static func problem(_ status: Int, _ code: String) -> String {
        #"{"code":"\#(code)","detail":"no","status":\#(status),"title":"Error","type":"about:blank"}"#
    }

    let stub = StubServer()
    let controllers = ScriptedControllers()
    let signals = RecordingSignals()
    let clock = TestClock()

    func bridge(relyingPartyID: String? = nil) -> PasskeyAuthorization {
        PasskeyAuthorization(
            client: stub.client(accessToken: "held-token"), controllers: controllers, signals: signals,
            relyingPartyID: relyingPartyID, now: clock.now)
    }

    // MARK: - The bridge

    @Test func theFirstCompletionIsTakenAndASecondIsIgnored() async throws {
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.registrationOptions)
        let options = try await bridge.client.startPasskeyRegistration()
        let performing = Task { try await bridge.perform(.registration(options)) }
        let controller = try await controllers.started(1)
        controller.complete(.success(.registration(Self.registration)))
        controller.complete(.failure(.failed))
        controller.complete(.success(.assertion(Self.assertion)))
        #expect(try await performing.value == .registration(Self.registration))
        #expect(controller.starts == 1)
        #expect(controller.cancels == 0)
    }

    @Test func cancellingTheTaskCancelsTheControllerAndThrowsCancelled() async throws {
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        let options = try await bridge.client.startPasskeySignIn()
        let performing = Task { try await bridge.perform(.assertion(options, presentation: .modal)) }
        let controller = try await controllers.started(1)
        performing.cancel()
        await #expect(throws: PasskeyAuthorizationError.cancelled) { try await performing.value }
        #expect(controller.cancels == 1)
        // A late answer from the platform changes nothing.
        controller.complete(.success(.assertion(Self.assertion)))
    }

    @Test func aTaskCancelledBeforehandStartsNoController() async throws {
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        let options = try await bridge.client.startPasskeySignIn()
        let performing = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await bridge.perform(.assertion(options, presentation: .modal))
        }
        await #expect(throws: PasskeyAuthorizationError.cancelled) { try await performing.value }
        #expect(controllers.made.isEmpty)
    }

    @Test func aSecondRequestWhileASheetIsUpIsRequestInProgressAndLeavesTheFirstRunning() async throws {
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        let options = try await bridge.client.startPasskeySignIn()
        let first = Task { try await bridge.perform(.assertion(options, presentation: .modal)) }
        let controller = try await controllers.started(1)
        await #expect(throws: PasskeyAuthorizationError.requestInProgress) {
            try await bridge.perform(.assertion(options, presentation: .modal))
        }
        #expect(controller.cancels == 0)
        controller.complete(.success(.assertion(Self.assertion)))
        #expect(try await first.value == .assertion(Self.assertion))
    }

    @Test func aModalRequestCancelsARunningAutoFillRequestFirst() async throws {
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.authenticationOptions)
        let options = try await bridge.client.startPasskeySignIn()
        let autoFill = Task { try await bridge.perform(.assertion(options, presentation: .autoFill)) }
        let autoFillController = try await controllers.started(1)
        let modal = Task { try await bridge.perform(.assertion(options, presentation: .modal)) }
        let modalController = try await controllers.started(2)
        await #expect(throws: PasskeyAuthorizationError.cancelled) { try await autoFill.value }
        #expect(autoFillController.cancels == 1)
        modalController.complete(.success(.assertion(Self.assertion)))
        #expect(try await modal.value == .assertion(Self.assertion))
    }

    /// ASAuthorizationError.Code's raw values (1000…1010) and one a later system may add.
    @Test(arguments: [
        (1000, PasskeyAuthorizationError.unknown), (1001, .cancelled), (1002, .invalidResponse), (1003, .notHandled),
        (1004, .failed), (1005, .notInteractive), (1006, .matchedExcludedCredential), (1007, .other(code: 1007)),
        (1008, .other(code: 1008)), (1009, .preferSignInWithApple), (1010, .deviceNotConfiguredForPasskeyCreation),
        (4242, .other(code: 4242)),
    ])
    func aPlatformErrorReachesTheFlowAsItsTypedCase(code: Int, expected: PasskeyAuthorizationError) async throws {
        let bridge = bridge()
        stub.respond(
            status: 200, ContractAnswers.registrationOptions.replacingOccurrences(of: "conditional", with: "modal"))
        let adding = Task { try await bridge.addPasskey() }
        try await controllers.started(1).complete(.failure(PasskeyAuthorizationError(code: code)))
        await #expect(throws: PasskeyClientError.authorization(expected)) { try await adding.value }
        #expect(stub.requests.count == 1)  // nothing finished on the server
    }

    // MARK: - Requests carry the server's options as given

    @Test func theRegistrationRequestCarriesUVExcludedIDsDisplayNameAndStyle() async throws {
        let bridge = bridge()
        stub.respond(status: 200, Self.strictRegistrationOptions)
        stub.respond(status: 204)
        let adding = Task { try await bridge.addPasskey(name: "Work phone") }
        let controller = try await controllers.started(1)
        guard case .registration(let options) = controller.request else {
            Issue.record("not a registration: \(controller.request)")
            return
        }
        #expect(options.userVerification == .required)
        #expect(options.attestation == .direct)
        #expect(options.displayName == "Taro Yamada")
        #expect(options.userName == "taro@example.com")
        #expect(options.userID == Data([4, 5, 6]))
        #expect(options.excludedCredentialIDs == [Data([0xfb, 0xff, 0xbf])])
        #expect(options.requestStyle == .standard)
        controller.complete(.success(.registration(Self.registration)))
        try await adding.value
        let finish = try #require(stub.requests.last)
        #expect(finish.path == "/v1/passkeys/registrations/finish")
        #expect(finish.json?["name"] as? String == "Work phone")
        #expect(finish.json?["transports"] as? [String] == ["internal"])
    }

    @Test func theSignInRequestCarriesUVAndAllowedCredentials() async throws {
        let bridge = bridge()
        stub.respond(status: 200, Self.strictAuthenticationOptions)
        stub.respond(status: 200, ContractAnswers.session(method: "passkey"))
        let signingIn = Task { try await bridge.signInWithPasskey() }
        let controller = try await controllers.started(1)
        guard case .assertion(let options, .modal) = controller.request else {
            Issue.record("not a modal sign-in: \(controller.request)")
            return
        }
        #expect(options.userVerification == .required)
        #expect(options.allowedCredentialIDs == [Data([7, 2])])
        controller.complete(.success(.assertion(Self.assertion)))
        #expect(try await signingIn.value.method == "passkey")
        #expect(bridge.client.accessToken == "token-1")
        #expect(bridge.relyingPartyID == "example.com")
    }

    // MARK: - Automatic Passkey Upgrade

    @Test func anUpgradeTheServerAndThePlatformAcceptIsUpgraded() async throws {
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.registrationOptions)
        stub.respond(status: 204)
        let upgrading = Task { await bridge.upgradeToPasskey() }
        let controller = try await controllers.started(1)
        guard case .registration(let options) = controller.request else {
            Issue.record("not a registration: \(controller.request)")
            return
        }
        #expect(options.requestStyle == .conditional)
        controller.complete(.success(.registration(Self.registration)))
        #expect(await upgrading.value == .upgraded)
        #expect(stub.requests.first?.json?["mode"] as? String == "conditional")
        #expect(stub.requests.map(\.path) == ["/v1/passkeys/registrations", "/v1/passkeys/registrations/finish"])
    }

    @Test func anUpgradeThePlatformSkipsIsDeclinedAndFinishesNothing() async throws {
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.registrationOptions)
        let upgrading = Task { await bridge.upgradeToPasskey() }
        try await controllers.started(1).complete(.failure(.cancelled))
        #expect(await upgrading.value == .declined(.cancelled))
        #expect(stub.requests.count == 1)
        #expect(bridge.client.accessToken == "held-token")  // still signed in
    }

    @Test func anUpgradeTheServerRefusesAtStartShowsNothing() async throws {
        let bridge = bridge()
        stub.respond(status: 403, Self.problem(403, "conditional-not-allowed"))
        let outcome = await bridge.upgradeToPasskey()
        guard case .refused(let error) = outcome else {
            Issue.record("not refused: \(outcome)")
            return
        }
        #expect(error.code == .conditionalNotAllowed)
        #expect(controllers.made.isEmpty)
        #expect(bridge.client.accessToken == "held-token")
    }

    @Test func anUpgradeTheServerRefusesAtFinishIsRefused() async throws {
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.registrationOptions)
        stub.respond(status: 409, Self.problem(409, "passkey-limit-reached"))
        let upgrading = Task { await bridge.upgradeToPasskey() }
        try await controllers.started(1).complete(.success(.registration(Self.registration)))
        let outcome = await upgrading.value
        guard case .refused(let error) = outcome else {
            Issue.record("not refused: \(outcome)")
            return
        }
        #expect(error.code == .passkeyLimitReached)
    }

    // MARK: - Account creation

    @Test func theFormFlowFinishesWithTheFormsEmailAndName() async throws {
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.accountRegistrationOptions)
        stub.respond(status: 200, ContractAnswers.session(method: "passkey"))
        let creating = Task {
            try await bridge.createAccountWithPasskey(email: "taro@example.com", displayName: "Taro")
        }
        let controller = try await controllers.started(1)
        guard case .accountRegistration = controller.request else {
            Issue.record("not an account registration: \(controller.request)")
            return
        }
        controller.complete(.success(.registration(Self.registration)))
        _ = try await creating.value
        #expect(stub.requests.first?.json?["email"] as? String == "taro@example.com")
        #expect(stub.requests.last?.json?["displayName"] as? String == "Taro")
    }

    @Test func theSheetFlowFinishesWithTheSheetsEmailAndName() async throws {
        guard #available(iOS 26.0, macOS 26.0, *) else { return }
        let bridge = bridge()
        stub.respond(status: 200, ContractAnswers.accountRegistrationOptions)
        stub.respond(status: 200, ContractAnswers.session(method: "passkey"))
        let creating = Task { try await bridge.createAccountWithPasskeySheet() }
        let controller = try await controllers.started(1)
        guard case .accountCreationSheet = controller.request else {
            Issue.record("not the sheet: \(controller.request)")
            return
        }
        controller.complete(
            .success(
                .accountCreation(
                    PasskeyAccountCreation(
                        email: "hanako@example.com", displayName: "Hanako", credential: Self.registration))))
        _ = try await creating.value
        #expect(stub.requests.first?.json?["email"] == nil)
        #expect(stub.requests.last?.json?["email"] as? String == "hanako@example.com")
        #expect(stub.requests.last?.json?["displayName"] as? String == "Hanako")
    }
}
