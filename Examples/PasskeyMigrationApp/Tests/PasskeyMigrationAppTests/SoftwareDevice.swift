import Foundation
import PasskeyClient
import PasskeyDatabaseTestSupport
import PasskeyTestSupport

/// A phone with a passkey provider, as the app's tests need it: the controller factory of
/// `PasskeyAuthorization`, answered by the software authenticator instead of the system sheet.
/// It keeps the passkeys it created (so a later sign-in finds them), answers AutoFill as a user
/// who picks the newest passkey offered (or, with `autoFillWaitsForTheUser`, as one who never
/// does, until the request is cancelled), and creates a conditional (Automatic Passkey Upgrade)
/// passkey with UP = 0 and UV = 0, as the platform does.
struct SoftwareDevice: PasskeyAuthorizationControllerFactory {
    /// What the device holds: one passkey per account it registered.
    @MainActor final class Keychain {
        struct Entry {
            let key: SoftwareAuthenticatorKey
            let credentialID: Data
            let userID: Data
            let relyingPartyID: String
            var signCount: UInt32
        }

        var entries: [Entry] = []
        /// AutoFill requests started so far.
        var autoFillRequests = 0
    }

    let keychain: Keychain
    /// What the user "types" into the iOS 26 account-creation sheet.
    let accountCreationEmail: String
    let accountCreationName: String
    let autoFillWaitsForTheUser: Bool

    @MainActor init(
        accountCreationEmail: String = "sheet@example.com", accountCreationName: String = "Sheet",
        autoFillWaitsForTheUser: Bool = false
    ) {
        keychain = Keychain()
        self.accountCreationEmail = accountCreationEmail
        self.accountCreationName = accountCreationName
        self.autoFillWaitsForTheUser = autoFillWaitsForTheUser
    }

    @MainActor func makeController(
        for request: PasskeyAuthorizationRequest,
        completion: @escaping @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
    ) -> any PasskeyAuthorizationController {
        var waits = false
        if case .assertion(_, .autoFill) = request {
            keychain.autoFillRequests += 1
            waits = autoFillWaitsForTheUser
        }
        return Controller(waitsForTheUser: waits) { [keychain, accountCreationEmail, accountCreationName] in
            switch request {
            case .registration(let options):
                let credentialIDs = Set(keychain.entries.map(\.credentialID))
                if options.excludedCredentialIDs.contains(where: credentialIDs.contains) {
                    return .failure(.matchedExcludedCredential)
                }
                return Self.register(
                    in: keychain, relyingPartyID: options.relyingPartyID, challenge: options.challenge,
                    userID: options.userID, conditional: options.requestStyle == .conditional
                ).map { .registration($0) }
            case .accountRegistration(let options):
                return Self.register(
                    in: keychain, relyingPartyID: options.relyingPartyID, challenge: options.challenge,
                    userID: options.userID, conditional: false
                ).map { .registration($0) }
            case .accountCreationSheet(let options):
                return Self.register(
                    in: keychain, relyingPartyID: options.relyingPartyID, challenge: options.challenge,
                    userID: options.userID, conditional: false
                ).map {
                    .accountCreation(
                        PasskeyAccountCreation(
                            email: accountCreationEmail, displayName: accountCreationName, credential: $0)
                    )
                }
            case .assertion(let options, _):
                return Self.assert(in: keychain, options).map { .assertion($0) }
            }
        } completion: {
            completion($0)
        }
    }

    @MainActor private static func register(
        in keychain: Keychain, relyingPartyID: String, challenge: Data, userID: Data, conditional: Bool
    ) -> Result<PasskeyRegistrationCredential, PasskeyAuthorizationError> {
        do {
            let key = try SoftwareAuthenticatorKey.generate(.es256)
            var registration = SoftwareAuthenticatorRegistration(
                key: key, relyingPartyID: relyingPartyID, origin: ServedServer.origin, challenge: Array(challenge))
            if conditional {
                registration.flags.userPresent = false
                registration.flags.userVerified = false
            }
            let response = try registration.makeResponse()
            let credentialID = Data(response.credentialID)
            keychain.entries.append(
                .init(
                    key: key, credentialID: credentialID, userID: userID, relyingPartyID: relyingPartyID, signCount: 0))
            return .success(
                PasskeyRegistrationCredential(
                    credentialID: credentialID, rawClientDataJSON: Data(response.clientDataJSON),
                    rawAttestationObject: Data(response.attestationObject), transports: ["internal", "hybrid"]))
        } catch {
            return .failure(.failed)
        }
    }

    /// The newest passkey for the relying party (the one the user picks).
    @MainActor private static func assert(in keychain: Keychain, _ options: PasskeySignInOptions)
        -> Result<PasskeyAssertionCredential, PasskeyAuthorizationError>
    {
        guard let index = keychain.entries.lastIndex(where: { $0.relyingPartyID == options.relyingPartyID }) else {
            return .failure(.notInteractive)
        }
        keychain.entries[index].signCount += 1
        let entry = keychain.entries[index]
        var assertion = SoftwareAuthenticatorAssertion(
            key: entry.key, relyingPartyID: options.relyingPartyID, origin: ServedServer.origin,
            challenge: Array(options.challenge))
        assertion.credentialID = Array(entry.credentialID)
        assertion.userHandle = Array(entry.userID)
        assertion.signCount = entry.signCount
        do {
            let response = try assertion.makeResponse()
            return .success(
                PasskeyAssertionCredential(
                    credentialID: Data(response.credentialID.bytes), rawClientDataJSON: Data(response.clientDataJSON),
                    rawAuthenticatorData: Data(response.authenticatorData), signature: Data(response.signature),
                    userID: response.userHandle.map { Data($0) }))
        } catch {
            return .failure(.failed)
        }
    }

    /// Answers on the next main-actor turn, as the platform's delegate does (cancelled first, it
    /// answers `.cancelled`), or, waiting for the user, only `.cancelled` when cancelled.
    @MainActor private final class Controller: PasskeyAuthorizationController {
        private let waitsForTheUser: Bool
        private let answer: @MainActor () -> Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>
        private let completion: @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
        private var isCancelled = false

        init(
            waitsForTheUser: Bool,
            answer: @escaping @MainActor () -> Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>,
            completion: @escaping @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
        ) {
            self.waitsForTheUser = waitsForTheUser
            self.answer = answer
            self.completion = completion
        }

        func start() {
            guard !waitsForTheUser else { return }
            Task { @MainActor in
                completion(isCancelled ? .failure(.cancelled) : answer())
            }
        }

        func cancel() {
            isCancelled = true
            if waitsForTheUser { completion(.failure(.cancelled)) }
        }
    }
}
