public import Foundation
public import PasskeyClient
internal import PasskeyTestSupport

/// A device for `PasskeyAuthorization` in tests: the controller seam backed by the software
/// authenticator, creating and using real passkeys that the real server verifies. It behaves as
/// the platform does where the flows depend on it: a conditional registration is made with UP=0
/// and UV=0 (Automatic Passkey Upgrade), a registration that matches an excluded credential it
/// holds fails with `.matchedExcludedCredential`, the sign-in uses its newest passkey for the
/// relying party (among the allowed ones when the options list any), the account-creation sheet
/// answers with `sheetEmail` and `sheetDisplayName`.
///
/// Requests complete at once unless `refuseNext` is set (the user cancels) or `holdAutoFill` is
/// on (AutoFill then waits for `pickAutoFill()`, as it waits for the user's tap).
@MainActor
public final class SoftwareAuthenticatorControllers: PasskeyAuthorizationControllerFactory {
    /// One passkey held by this device.
    struct Passkey {
        let key: SoftwareAuthenticatorKey
        let credentialID: Data
        let userID: Data
        let relyingPartyID: String
        var signCount: UInt32
    }

    /// The web origin the authenticator signs for (one of the server's `PASSKEY_ORIGINS`).
    public let origin: String
    /// Every request the bridge asked for, in order.
    public private(set) var requests: [PasskeyAuthorizationRequest] = []
    /// The next request fails with this error (then it is cleared).
    public var refuseNext: PasskeyAuthorizationError?
    /// AutoFill requests wait for `pickAutoFill()` instead of completing at once.
    public var holdAutoFill = false
    /// Immediate requests (`preferImmediatelyAvailableCredentials`) wait with their sheet up,
    /// until `answerHeldSheet()` or a cancellation, instead of completing at once.
    public var holdImmediate = false
    /// A saved password the combined sheet (`.assertionOrPassword`) returns instead of a passkey.
    public var pickSavedPassword: PasskeySavedPassword?
    /// What the account-creation sheet answers.
    public var sheetEmail = "sheet@example.com"
    public var sheetDisplayName = "Sheet User"

    private var passkeys: [Passkey] = []
    private var heldAutoFill: (() -> Void)?
    private var heldSheet: (() -> Void)?

    public init(origin: String) { self.origin = origin }

    /// The IDs of the passkeys this device holds, oldest first.
    public var credentialIDs: [Data] { passkeys.map(\.credentialID) }

    /// Whether an AutoFill request is waiting for `pickAutoFill()`.
    public var isHoldingAutoFill: Bool { heldAutoFill != nil }

    /// Whether an immediate request's sheet is up, waiting for `answerHeldSheet()`.
    public var isHoldingSheet: Bool { heldSheet != nil }

    /// The user picks the passkey in the held immediate request's sheet.
    public func answerHeldSheet() {
        let answer = heldSheet
        heldSheet = nil
        answer?()
    }

    /// The user picks the passkey offered by the held AutoFill request.
    public func pickAutoFill() {
        let pick = heldAutoFill
        heldAutoFill = nil
        pick?()
    }

    public func makeController(
        for request: PasskeyAuthorizationRequest,
        completion: @escaping @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
    ) -> any PasskeyAuthorizationController {
        requests.append(request)
        return Controller(device: self, request: request, completion: completion)
    }

    /// One request on this device.
    @MainActor
    final class Controller: PasskeyAuthorizationController {
        private weak var device: SoftwareAuthenticatorControllers?
        private let request: PasskeyAuthorizationRequest
        private let completion: @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
        private var done = false

        init(
            device: SoftwareAuthenticatorControllers, request: PasskeyAuthorizationRequest,
            completion: @escaping @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
        ) {
            self.device = device
            self.request = request
            self.completion = completion
        }

        func start() {
            guard let device else { return finish(.failure(.failed)) }
            if let refusal = device.refuseNext {
                device.refuseNext = nil
                return finish(.failure(refusal))
            }
            if case .assertion(_, .autoFill) = request, device.holdAutoFill {
                device.heldAutoFill = { [weak self] in
                    guard let self, let device = self.device else { return }
                    self.finish(device.answer(self.request))
                }
                return
            }
            if case .assertion(_, .immediate) = request, device.holdImmediate {
                device.heldSheet = { [weak self] in
                    guard let self, let device = self.device else { return }
                    self.finish(device.answer(self.request))
                }
                return
            }
            finish(device.answer(request))
        }

        func cancel() {
            if case .assertion(_, .autoFill) = request { device?.heldAutoFill = nil }
            if case .assertion(_, .immediate) = request { device?.heldSheet = nil }
            finish(.failure(.cancelled))
        }

        private func finish(_ result: Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) {
            guard !done else { return }
            done = true
            completion(result)
        }
    }

    /// What the authenticator makes of `request`.
    func answer(_ request: PasskeyAuthorizationRequest) -> Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>
    {
        do {
            switch request {
            case .registration(let options):
                guard Set(options.excludedCredentialIDs).isDisjoint(with: credentialIDs) else {
                    return .failure(.matchedExcludedCredential)
                }
                return .success(
                    .registration(
                        try register(
                            challenge: options.challenge, userID: options.userID,
                            relyingPartyID: options.relyingPartyID,
                            conditional: options.requestStyle == .conditional)))
            case .accountRegistration(let options):
                return .success(
                    .registration(
                        try register(
                            challenge: options.challenge, userID: options.userID,
                            relyingPartyID: options.relyingPartyID,
                            conditional: false)))
            case .accountCreationSheet(let options):
                let credential = try register(
                    challenge: options.challenge, userID: options.userID, relyingPartyID: options.relyingPartyID,
                    conditional: false)
                return .success(
                    .accountCreation(
                        PasskeyAccountCreation(email: sheetEmail, displayName: sheetDisplayName, credential: credential)
                    ))
            case .assertionOrPassword(let options):
                if let saved = pickSavedPassword { return .success(.password(saved)) }
                guard let assertion = try assert(options) else { return .failure(.notHandled) }
                return .success(.assertion(assertion))
            case .assertion(let options, let presentation):
                // No passkey here: an immediate request shows nothing and says so, as the platform does.
                guard let assertion = try assert(options) else {
                    return .failure(presentation == .immediate ? .notInteractive : .notHandled)
                }
                return .success(.assertion(assertion))
            }
        } catch {
            return .failure(.failed)
        }
    }

    private func register(challenge: Data, userID: Data, relyingPartyID: String, conditional: Bool) throws
        -> PasskeyRegistrationCredential
    {
        let key = try SoftwareAuthenticatorKey.generate(.es256)
        var registration = SoftwareAuthenticatorRegistration(
            key: key, relyingPartyID: relyingPartyID, origin: origin, challenge: Array(challenge))
        if conditional {
            registration.flags.userPresent = false
            registration.flags.userVerified = false
        }
        let response = try registration.makeResponse()
        let credentialID = Data(response.credentialID)
        passkeys.append(
            Passkey(key: key, credentialID: credentialID, userID: userID, relyingPartyID: relyingPartyID, signCount: 0))
        return PasskeyRegistrationCredential(
            credentialID: credentialID, rawClientDataJSON: Data(response.clientDataJSON),
            rawAttestationObject: Data(response.attestationObject), transports: ["internal", "hybrid"])
    }

    private func assert(_ options: PasskeySignInOptions) throws -> PasskeyAssertionCredential? {
        let allowed = Set(options.allowedCredentialIDs)
        guard
            let index = passkeys.lastIndex(where: {
                $0.relyingPartyID == options.relyingPartyID && (allowed.isEmpty || allowed.contains($0.credentialID))
            })
        else { return nil }
        passkeys[index].signCount += 1
        let passkey = passkeys[index]
        var assertion = SoftwareAuthenticatorAssertion(
            key: passkey.key, relyingPartyID: options.relyingPartyID, origin: origin,
            challenge: Array(options.challenge))
        assertion.credentialID = Array(passkey.credentialID)
        assertion.userHandle = Array(passkey.userID)
        assertion.signCount = passkey.signCount
        assertion.flags.userVerified = options.userVerification != .discouraged
        let response = try assertion.makeResponse()
        return PasskeyAssertionCredential(
            credentialID: Data(response.credentialID.bytes), rawClientDataJSON: Data(response.clientDataJSON),
            rawAuthenticatorData: Data(response.authenticatorData), signature: Data(response.signature),
            userID: response.userHandle.map { Data($0) })
    }
}
