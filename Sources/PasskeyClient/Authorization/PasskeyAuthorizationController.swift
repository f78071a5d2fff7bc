/// One platform request in flight (an `ASAuthorizationController` with its delegate on Apple
/// systems). Made by a `PasskeyAuthorizationControllerFactory` for one request, started once.
@MainActor
public protocol PasskeyAuthorizationController: AnyObject {
    /// Shows the request (`performRequests()`, or `performAutoFillAssistedRequests()` for AutoFill).
    func start()
    /// Ends the request; the controller then completes with `.cancelled` (or not at all: the
    /// bridge has resumed its caller already).
    func cancel()
    /// After a failed completion: the platform's own words for why, when it gave any (never a
    /// secret: e.g. "Application with identifier … is not associated with domain …"). Read by the
    /// bridge into `PasskeyAuthorization.lastFailureReason`.
    var failureReason: String? { get }
}

extension PasskeyAuthorizationController {
    /// No words from the platform (controllers written before this property existed).
    public var failureReason: String? { nil }
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
