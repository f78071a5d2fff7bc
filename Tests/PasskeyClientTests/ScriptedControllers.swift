import Foundation
import PasskeyClient
import Synchronization

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

/// The signals a flow sent, in order.
final class RecordingSignals: PasskeyCredentialSignals {
    enum Signal: Hashable {
        case allAccepted(relyingPartyID: String, userHandle: Data, credentialIDs: [Data])
        case unknown(relyingPartyID: String, credentialID: Data)
        case currentUser(relyingPartyID: String, userHandle: Data, name: String, displayName: String)
    }

    private let recorded = Mutex<[Signal]>([])

    var signals: [Signal] { recorded.withLock { $0 } }

    func reportAllAcceptedCredentials(relyingPartyID: String, userHandle: Data, acceptedCredentialIDs: [Data]) async {
        recorded.withLock {
            $0.append(
                .allAccepted(
                    relyingPartyID: relyingPartyID, userHandle: userHandle, credentialIDs: acceptedCredentialIDs))
        }
    }

    func reportUnknownCredential(relyingPartyID: String, credentialID: Data) async {
        recorded.withLock { $0.append(.unknown(relyingPartyID: relyingPartyID, credentialID: credentialID)) }
    }

    func reportCurrentUserDetails(relyingPartyID: String, userHandle: Data, name: String, displayName: String) async {
        recorded.withLock {
            $0.append(
                .currentUser(
                    relyingPartyID: relyingPartyID, userHandle: userHandle, name: name, displayName: displayName))
        }
    }
}

/// The AutoFill expiry the test decides: `waitUntilExpiry` returns once per `expire()`.
final class ExpiryGate: Sendable {
    private let state = Mutex<(due: Int, asked: [Date])>((0, []))

    /// The `expiresAt` of each wait, in order.
    var asked: [Date] { state.withLock { $0.asked } }

    func expire() { state.withLock { $0.due += 1 } }

    @Sendable func wait(until expiresAt: Date) async throws {
        state.withLock { $0.asked.append(expiresAt) }
        while true {
            let due = state.withLock { state in
                guard state.due > 0 else { return false }
                state.due -= 1
                return true
            }
            if due { return }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}
