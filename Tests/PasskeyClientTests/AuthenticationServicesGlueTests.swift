// The AuthenticationServices glue run against the test-only stand-in module (Linux only: on Apple
// systems the real framework's objects cannot be built by a test). What these check: the delegate
// callbacks reach the bridge once, the platform's errors keep their codes, the requests carry the
// server's options, the results become the client's values, and which signal API is called.
#if os(Linux)
    import AuthenticationServices
    import Foundation
    import PasskeyClient
    import PasskeyClientGlue
    import Testing

    @MainActor
    @Suite(.serialized) struct AuthenticationServicesGlueTests {
        let stub = StubServer()

        /// The last stand-in controller the glue made, and its delegate.
        private func lastController() throws -> (ASAuthorizationController, any ASAuthorizationControllerDelegate) {
            let controller = try #require(StandInRecorder.controllers.last)
            return (controller, try #require(controller.delegate))
        }

        private func waitForController(after count: Int) async throws {
            for _ in 0..<5000 where StandInRecorder.controllers.count <= count {
                try await Task.sleep(for: .milliseconds(1))
            }
        }

        private func registrationOptions(_ mode: PasskeyRegistrationMode) async throws -> PasskeyRegistrationOptions {
            stub.respond(
                status: 200,
                PasskeyAuthorizationTests.strictRegistrationOptions.replacingOccurrences(
                    of: #""mode":"modal""#, with: #""mode":"\#(mode.rawValue)""#))
            return try await stub.client(accessToken: "t").startPasskeyRegistration(mode: mode)
        }

        @Test func theRegistrationRequestCarriesTheServersOptions() async throws {
            let request = try await registrationOptions(.conditional).platformRequest()
            #expect(request.relyingPartyIdentifier == "example.com")
            #expect(request.challenge == Data([1, 2, 3]))
            #expect(request.userID == Data([4, 5, 6]))
            #expect(request.name == "taro@example.com")
            #expect(request.displayName == "Taro Yamada")
            #expect(request.userVerificationPreference == .required)
            #expect(request.attestationPreference == .direct)
            #expect(request.excludedCredentials?.map(\.credentialID) == [Data([0xfb, 0xff, 0xbf])])
            #expect(request.requestStyle == .conditional)
            #expect(try await registrationOptions(.modal).platformRequest().requestStyle == .standard)
        }

        @Test func theSignInRequestCarriesUVAndAllowedCredentials() async throws {
            stub.respond(status: 200, PasskeyAuthorizationTests.strictAuthenticationOptions)
            let request = try await stub.client().startPasskeySignIn().platformRequest()
            #expect(request.userVerificationPreference == .required)
            #expect(request.allowedCredentials.map(\.credentialID) == [Data([7, 2])])
            #expect(request.challenge == Data([1, 2, 3]))
        }

        @Test func theFormAccountRequestCarriesTheServersOptions() async throws {
            stub.respond(status: 200, ContractAnswers.accountRegistrationOptions)
            let options = try await stub.client().startPasskeyAccountRegistration(
                email: "taro@example.com", displayName: "Taro")
            let request = try #require(
                PasskeyAuthorizationRequest.accountRegistration(options).platformRequest()
                    as? ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest)
            #expect(request.relyingPartyIdentifier == "example.com")
            #expect(request.challenge == Data([1, 2, 3]))
            #expect(request.userID == Data([4, 5, 6]))
            #expect(request.name == "taro@example.com")
            #expect(request.displayName == "Taro")
            #expect(request.userVerificationPreference == .preferred)
            #expect(request.attestationPreference == ASAuthorizationPublicKeyCredentialAttestationKind.none)
        }

        @Test func theSheetRequestAsksForAnEmailAndAName() async throws {
            stub.respond(status: 200, ContractAnswers.accountRegistrationOptions)
            let options = try await stub.client().startPasskeyAccountRegistration()
            let request = try #require(
                PasskeyAuthorizationRequest.accountCreationSheet(options).platformRequest()
                    as? ASAuthorizationAccountCreationPlatformPublicKeyCredentialRequest)
            #expect(request.acceptedContactIdentifiers == [.email])
            #expect(request.shouldRequestName)
            #expect(request.userID == Data([4, 5, 6]))
        }

        /// The window is looked up when the platform asks for it, not captured at launch: a
        /// window that appeared (or changed) after the bridge was made is the one used.
        /// A wrong associated domain is diagnosable: the platform's failure reason is kept, and an
        /// immediate request is performed with `preferImmediatelyAvailableCredentials`.
        @Test func thePlatformsReasonIsKeptAndImmediateRequestsAskForLocalCredentials() async throws {
            stub.respond(status: 200, ContractAnswers.authenticationOptions)
            let bridge = PasskeyAuthorization(client: stub.client(), anchor: .standIn())
            let before = StandInRecorder.controllers.count
            let signingIn = Task { try await bridge.signInWithImmediatelyAvailablePasskey() }
            try await waitForController(after: before)
            let (controller, delegate) = try lastController()
            #expect(StandInRecorder.immediate.contains(ObjectIdentifier(controller)))
            let reason = "Application with identifier ABCDE.com.example.app is not associated with domain example.com"
            delegate.authorizationController(
                controller: controller,
                didCompleteWithError: NSError(
                    domain: ASAuthorizationError.errorDomain, code: 1004,
                    userInfo: [
                        NSUnderlyingErrorKey: NSError(
                            domain: "com.apple.AuthenticationServices.AuthorizationError", code: 1004,
                            userInfo: [NSLocalizedFailureReasonErrorKey: reason])
                    ]))
            await #expect(throws: PasskeyClientError.authorization(.failed)) { try await signingIn.value }
            #expect(bridge.lastFailureReason == reason)
            #expect(
                PasskeyAuthorizationError.reason(of: NSError(domain: "x", code: 1, userInfo: [:])) == nil,
                "no words: nil, not an invented reason")
        }

        /// The combined sheet asks for the passkey and the saved passwords, and a picked
        /// password comes back as the client's value.
        @Test func theCombinedSheetOffersSavedPasswordsToo() async throws {
            stub.respond(status: 200, ContractAnswers.authenticationOptions)
            let options = try await stub.client().startPasskeySignIn()
            let requests = PasskeyAuthorizationRequest.assertionOrPassword(options).platformRequests()
            #expect(requests.count == 2)
            #expect(requests.first is ASAuthorizationPlatformPublicKeyCredentialAssertionRequest)
            #expect(requests.last is ASAuthorizationPasswordRequest)
            #expect(PasskeyAuthorizationRequest.assertion(options, presentation: .modal).platformRequests().count == 1)
            let picked = PasskeyAuthorizationResult.from(ASPasswordCredential(user: "taro@example.com", password: "pw"))
            #expect(picked == .success(.password(PasskeySavedPassword(user: "taro@example.com", password: "pw"))))
        }

        /// SwiftUI's `@Environment(\.authorizationController)` as the controller seam: a flow
        /// runs through it, the immediate option reaches it, its error keeps its reason, and an
        /// AutoFill request (it has no AutoFill method) is not handled.
        @Test func swiftUIsAuthorizationControllerRunsTheFlows() async throws {
            let script = AuthorizationController.Script()
            let controllers = SwiftUIAuthorizationControllers(AuthorizationController(script: script))
            let bridge = PasskeyAuthorization(client: stub.client(), controllers: controllers)
            script.answer = .success(
                .passkeyAssertion(
                    .standIn(
                        credentialID: Data([7, 7]), rawClientDataJSON: Data([1]), rawAuthenticatorData: Data([2]),
                        signature: Data([3]), userID: Data([4, 5, 6]))))
            stub.respond(status: 200, ContractAnswers.authenticationOptions)
            stub.respond(status: 200, ContractAnswers.session(method: "passkey"))
            #expect(try await bridge.signInWithPasskey().method == "passkey")
            let finish = try #require(stub.requests.last { $0.path.hasSuffix("/finish") }?.json)
            #expect(finish["credentialID"] as? String == "Bwc")
            #expect(script.calls.last?.immediate == false)

            script.answer = .failure(
                NSError(
                    domain: ASAuthorizationError.errorDomain, code: 1005,
                    userInfo: [NSLocalizedFailureReasonErrorKey: "No credentials available for login."]))
            stub.respond(status: 200, ContractAnswers.authenticationOptions)
            #expect(try await bridge.signInWithImmediatelyAvailablePasskey() == nil)
            #expect(script.calls.last?.immediate == true)
            #expect(bridge.lastFailureReason == "No credentials available for login.")

            stub.respond(status: 200, ContractAnswers.authenticationOptions)
            await #expect(throws: PasskeyClientError.authorization(.notHandled)) {
                try await bridge.signInWithAutoFill()
            }
        }

        @Test func thePresentationAnchorIsLookedUpWhenTheSheetIsShown() async throws {
            stub.respond(status: 200, ContractAnswers.authenticationOptions)
            let scene = StandInScene()
            let controllers = AuthenticationServicesControllers(anchor: scene.keyWindow)
            let bridge = PasskeyAuthorization(client: stub.client(), controllers: controllers)
            #expect(scene.lookups == 0, "nothing is looked up while composing the app")
            let before = StandInRecorder.controllers.count
            let signingIn = Task { try await bridge.signInWithPasskey() }
            try await waitForController(after: before)
            let (controller, _) = try lastController()
            let later = UIWindow.standIn()
            scene.window = later
            #expect(controller.presentationContextProvider?.presentationAnchor(for: controller) === later)
            #expect(scene.lookups == 1)
            // No window at all: a new one rather than a crash (the platform then fails the request).
            scene.window = nil
            #expect(controller.presentationContextProvider?.presentationAnchor(for: controller) != nil)
            bridge.cancelAutoFill()
            signingIn.cancel()
            _ = try? await signingIn.value
            // The default looks in the foreground scene (none on Linux's stand-ins).
            #expect(AuthenticationServicesControllers().anchor() == nil)
        }

        @Test func aSheetAnswerReachesTheBridgeOnceAndLaterOnesAreIgnored() async throws {
            stub.respond(status: 200, ContractAnswers.authenticationOptions)
            stub.respond(status: 200, ContractAnswers.session(method: "passkey"))
            let bridge = PasskeyAuthorization(client: stub.client(), anchor: .standIn())
            let before = StandInRecorder.controllers.count
            let signingIn = Task { try await bridge.signInWithPasskey() }
            try await waitForController(after: before)
            let (controller, delegate) = try lastController()
            #expect(StandInRecorder.performances[ObjectIdentifier(controller)] == [false])
            #expect(controller.presentationContextProvider?.presentationAnchor(for: controller) != nil)
            let assertion = ASAuthorizationPlatformPublicKeyCredentialAssertion.standIn(
                credentialID: Data([7, 7]), rawClientDataJSON: Data([1]), rawAuthenticatorData: Data([2]),
                signature: Data([3]), userID: Data([4, 5, 6]))
            delegate.authorizationController(
                controller: controller, didCompleteWithAuthorization: .standIn(credential: assertion))
            delegate.authorizationController(
                controller: controller,
                didCompleteWithError: NSError(domain: ASAuthorizationError.errorDomain, code: 1001))
            #expect(try await signingIn.value.method == "passkey")
            let finish = try #require(stub.requests.last { $0.path.hasSuffix("/finish") }?.json)
            #expect(finish["credentialID"] as? String == "Bwc")
            #expect(finish["userHandle"] as? String == "BAUG")
            #expect(finish["signature"] as? String == "Aw")
        }

        @Test(arguments: [1000, 1001, 1004, 1006, 1009, 1010, 1011])
        func aPlatformErrorKeepsItsCode(code: Int) async throws {
            stub.respond(status: 200, ContractAnswers.authenticationOptions)
            let bridge = PasskeyAuthorization(client: stub.client(), anchor: .standIn())
            let before = StandInRecorder.controllers.count
            let signingIn = Task { try await bridge.signInWithPasskey() }
            try await waitForController(after: before)
            let (controller, delegate) = try lastController()
            delegate.authorizationController(
                controller: controller,
                didCompleteWithError: NSError(domain: ASAuthorizationError.errorDomain, code: code))
            await #expect(throws: PasskeyClientError.authorization(PasskeyAuthorizationError(code: code))) {
                try await signingIn.value
            }
        }

        @Test func anErrorOfAnotherDomainIsUnknown() {
            #expect(PasskeyAuthorizationError(platformError: URLError(.timedOut)) == .unknown)
            #expect(
                PasskeyAuthorizationError(platformError: NSError(domain: ASAuthorizationError.errorDomain, code: 1006))
                    == .matchedExcludedCredential)
        }

        @Test func cancellingTheTaskCancelsTheASAuthorizationController() async throws {
            stub.respond(status: 200, ContractAnswers.registrationOptions)
            let bridge = PasskeyAuthorization(client: stub.client(accessToken: "t"), anchor: .standIn())
            let before = StandInRecorder.controllers.count
            let upgrading = Task { await bridge.upgradeToPasskey() }
            try await waitForController(after: before)
            let (controller, _) = try lastController()
            upgrading.cancel()
            #expect(await upgrading.value == .declined(.cancelled))
            #expect(StandInRecorder.cancels[ObjectIdentifier(controller)] == 1)
        }

        @Test func autoFillIsPerformedAsAnAutoFillAssistedRequest() async throws {
            stub.respond(status: 200, ContractAnswers.authenticationOptions)
            // The options expired long ago: nothing restarts the offer until the field is focused.
            let bridge = PasskeyAuthorization(
                client: stub.client(), controllers: AuthenticationServicesControllers(anchor: .standIn()))
            let before = StandInRecorder.controllers.count
            let signingIn = Task { try await bridge.signInWithAutoFill() }
            try await waitForController(after: before)
            let (controller, _) = try lastController()
            #expect(StandInRecorder.performances[ObjectIdentifier(controller)] == [true])
            bridge.cancelAutoFill()
            await #expect(throws: PasskeyClientError.authorization(.cancelled)) { try await signingIn.value }
            #expect(StandInRecorder.cancels[ObjectIdentifier(controller)] == 1)
        }

        @Test func transportsComeFromTheAttachment() throws {
            let platform = try #require(
                PasskeyRegistrationCredential(
                    .standIn(credentialID: Data([1]), rawClientDataJSON: Data([2]), rawAttestationObject: Data([3]))))
            #expect(platform.transports == ["internal", "hybrid"])
            let otherDevice = try #require(
                PasskeyRegistrationCredential(
                    .standIn(
                        credentialID: Data([1]), rawClientDataJSON: Data([2]), rawAttestationObject: Data([3]),
                        attachment: 1)))
            #expect(otherDevice.transports == ["hybrid"])
            // A value a later system adds (the platform's enum is open): no transport is claimed.
            let later = try #require(
                PasskeyRegistrationCredential(
                    .standIn(
                        credentialID: Data([1]), rawClientDataJSON: Data([2]), rawAttestationObject: Data([3]),
                        attachment: 7)))
            #expect(later.transports.isEmpty)
            #expect(
                PasskeyRegistrationCredential(
                    .standIn(credentialID: Data([1]), rawClientDataJSON: Data([2]), rawAttestationObject: nil)) == nil)
        }

        @Test func theSheetResultBecomesASendableValue() throws {
            let registration = ASAuthorizationPlatformPublicKeyCredentialRegistration.standIn(
                credentialID: Data([1]), rawClientDataJSON: Data([2]), rawAttestationObject: Data([3]))
            var name = PersonNameComponents()
            name.givenName = "Hanako"
            name.familyName = "Sato"
            let result = PasskeyAuthorizationResult.from(
                ASAuthorizationAccountCreationPlatformPublicKeyCredential.standIn(
                    email: "hanako@example.com", name: name, registration: registration))
            guard case .success(.accountCreation(let creation)) = result else {
                Issue.record("not an account creation: \(result)")
                return
            }
            #expect(creation.email == "hanako@example.com")
            #expect(creation.displayName == "Hanako Sato")
            #expect(creation.credential.credentialID == Data([1]))
            let nameless = PasskeyAuthorizationResult.from(
                ASAuthorizationAccountCreationPlatformPublicKeyCredential.standIn(
                    email: "hanako@example.com", name: nil, registration: registration))
            #expect(
                (try? nameless.get())
                    == .accountCreation(
                        PasskeyAccountCreation(
                            email: "hanako@example.com", displayName: "hanako@example.com",
                            credential: creation.credential)))
            let phone = PasskeyAuthorizationResult.from(
                ASAuthorizationAccountCreationPlatformPublicKeyCredential.standIn(
                    email: nil, name: name, registration: registration))
            #expect(throws: PasskeyAuthorizationError.invalidResponse) { try phone.get() }
        }

        @Test func theSignalsGoToTheNewestSystemAPI() async {
            let signals = AuthenticationServicesCredentialSignals()
            let before = StandInRecorder.sentSignals.count
            await signals.reportUnknownCredential(relyingPartyID: "example.com", credentialID: Data([1]))
            await signals.reportAllAcceptedCredentials(
                relyingPartyID: "example.com", userHandle: Data([4]), acceptedCredentialIDs: [Data([1]), Data([2])])
            await signals.reportCurrentUserDetails(
                relyingPartyID: "example.com", userHandle: Data([4]), name: "new@example.com", displayName: "Taro")
            await signals.reportUnusedPassword(domain: "example.com", userName: "taro@example.com")
            // Linux has no OS version: every `#available` holds, so the iOS 26.2 API is taken.
            #expect(
                Array(StandInRecorder.sentSignals.dropFirst(before)) == [
                    ["dataManager.unknown", "example.com", "AQ=="],
                    ["dataManager.allAccepted", "example.com", "BA==", "AQ==,Ag=="],
                    ["dataManager.update", "example.com", "BA==", "new@example.com"],
                    ["dataManager.unusedPassword", "example.com", "taro@example.com"],
                ])
        }
    }

    /// A scene whose key window the test sets, counting the lookups.
    @MainActor final class StandInScene {
        var window: ASPresentationAnchor?
        private(set) var lookups = 0

        func keyWindow() -> ASPresentationAnchor? {
            lookups += 1
            return window
        }
    }
#endif
