/// One platform request in flight (an `ASAuthorizationController` with its delegate on Apple
/// systems). Made by a `PasskeyAuthorizationControllerFactory` for one request, started once.
@MainActor
public protocol PasskeyAuthorizationController: AnyObject {
    /// Shows the request (`performRequests()`, or `performAutoFillAssistedRequests()` for AutoFill).
    func start()
    /// Ends the request; the controller then completes with `.cancelled` (or not at all: the
    /// bridge has resumed its caller already).
    func cancel()
}

/// Makes the controller for one request: the seam between `PasskeyAuthorization` and the platform.
public protocol PasskeyAuthorizationControllerFactory: Sendable {
    /// A controller for `request` that calls `completion` when the platform returns. Calling it
    /// more than once is harmless: the bridge takes the first call only.
    @MainActor
    func makeController(
        for request: PasskeyAuthorizationRequest,
        completion: @escaping @MainActor (Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) -> Void
    ) -> any PasskeyAuthorizationController
}
