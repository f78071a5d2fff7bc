import Foundation
import PasskeyClient

/// A `PasskeyAuthorizationControllerFactory` whose controllers do nothing until the test
/// completes them: the platform's sheet, played by the test.
@MainActor
final class ScriptedControllers: PasskeyAuthorizationControllerFactory {
    /// One controller as the bridge made it.
    @MainActor
    final class Controller: PasskeyAuthorizationController {
        let request: PasskeyAuthorizationRequest
        let completion: @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
        private(set) var starts = 0
        private(set) var cancels = 0

        init(
            request: PasskeyAuthorizationRequest,
            completion: @escaping @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
        ) {
            self.request = request
            self.completion = completion
        }

        func start() { starts += 1 }

        /// Like ASAuthorizationController: a cancelled request completes with `.cancelled`.
        func cancel() {
            cancels += 1
            completion(.failure(.cancelled))
        }

        func complete(_ result: Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) { completion(result) }
    }

    private(set) var made: [Controller] = []

    func makeController(
        for request: PasskeyAuthorizationRequest,
        completion: @escaping @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
    ) -> any PasskeyAuthorizationController {
        let controller = Controller(request: request, completion: completion)
        made.append(controller)
        return controller
    }

    /// Waits (up to 5 s) until `count` controllers were made and the last one started.
    func started(_ count: Int) async throws -> Controller {
        for _ in 0..<5000 {
            if made.count >= count, made[count - 1].starts > 0 { return made[count - 1] }
            try await Task.sleep(for: .milliseconds(1))
        }
        throw ScriptError.noController(count)
    }

    enum ScriptError: Error { case noController(Int) }
}

/// The signals a flow sent, in order. (`NSLock`, not `Mutex`: these tests also run on macOS 13.)
final class RecordingSignals: PasskeyCredentialSignals, @unchecked Sendable {
    enum Signal: Hashable {
        case allAccepted(relyingPartyID: String, userHandle: Data, credentialIDs: [Data])
        case unknown(relyingPartyID: String, credentialID: Data)
        case currentUser(relyingPartyID: String, userHandle: Data, name: String, displayName: String)
    }

    private let lock = NSLock()
    private var recorded: [Signal] = []

    var signals: [Signal] { lock.withLock { recorded } }

    func reportAllAcceptedCredentials(relyingPartyID: String, userHandle: Data, acceptedCredentialIDs: [Data]) async {
        lock.withLock {
            recorded.append(
                .allAccepted(
                    relyingPartyID: relyingPartyID, userHandle: userHandle, credentialIDs: acceptedCredentialIDs))
        }
    }

    func reportUnknownCredential(relyingPartyID: String, credentialID: Data) async {
        lock.withLock { recorded.append(.unknown(relyingPartyID: relyingPartyID, credentialID: credentialID)) }
    }

    func reportCurrentUserDetails(relyingPartyID: String, userHandle: Data, name: String, displayName: String) async {
        lock.withLock {
            recorded.append(
                .currentUser(
                    relyingPartyID: relyingPartyID, userHandle: userHandle, name: name, displayName: displayName))
        }
    }
}

/// The AutoFill expiry the test decides: `waitUntilExpiry` returns once per `expire()`.
final class ExpiryGate: @unchecked Sendable {
    private let lock = NSLock()
    private var due = 0
    private var waits: [Date] = []

    /// The `expiresAt` of each wait, in order.
    var asked: [Date] { lock.withLock { waits } }

    func expire() { lock.withLock { due += 1 } }

    @Sendable func wait(until expiresAt: Date) async throws {
        lock.withLock { waits.append(expiresAt) }
        while true {
            let isDue = lock.withLock {
                guard due > 0 else { return false }
                due -= 1
                return true
            }
            if isDue { return }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}
