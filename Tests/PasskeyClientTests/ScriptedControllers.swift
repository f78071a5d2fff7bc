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
        /// What the test makes the platform say about a failure.
        var reason: String?
        var failureReason: String? { reason }

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
        case unusedPassword(domain: String, userName: String)
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

    func reportUnusedPassword(domain: String, userName: String) async {
        lock.withLock { recorded.append(.unusedPassword(domain: domain, userName: userName)) }
    }
}

/// The time a test decides (`PasskeyAuthorization`'s `now`): starts at 19:00 of the options'
/// day, five minutes before `ContractAnswers.authenticationOptions` expire.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = ISO8601DateFormatter().date(from: "2026-12-01T19:00:00Z")!

    @Sendable func now() -> Date { lock.withLock { current } }

    func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }
}
