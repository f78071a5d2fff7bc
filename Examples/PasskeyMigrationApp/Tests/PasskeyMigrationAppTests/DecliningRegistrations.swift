import PasskeyClient

/// A device whose user dismisses every registration sheet (or whose system silently skips
/// Automatic Passkey Upgrade): registrations end with `.cancelled`, everything else goes to the
/// device it wraps.
struct DecliningRegistrations: PasskeyAuthorizationControllerFactory {
    let device: any PasskeyAuthorizationControllerFactory

    @MainActor func makeController(
        for request: PasskeyAuthorizationRequest,
        completion: @escaping @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
    ) -> any PasskeyAuthorizationController {
        guard case .registration = request else { return device.makeController(for: request, completion: completion) }
        return Declined(completion: completion)
    }

    @MainActor private final class Declined: PasskeyAuthorizationController {
        let completion: @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void

        init(completion: @escaping @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void) {
            self.completion = completion
        }

        func start() { completion(.failure(.cancelled)) }
        func cancel() {}
    }
}
