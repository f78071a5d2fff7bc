public import Foundation

/// The async bridge over the platform's passkey UI (`ASAuthorizationController` on Apple
/// systems), and the talk's one-call flows on it: each starts the ceremony on the server,
/// shows the platform's request built from the server's options as given, and finishes it on
/// the server.
///
/// Main-actor bound, as the platform's UI is. One request is in flight at a time: a new request
/// first cancels a running AutoFill request (the platform shows one at a time, and a sheet
/// must replace the QuickType offer); a request while any other is running fails with
/// `.requestInProgress` and leaves the running one alone.
/// Cancelling the calling task cancels the platform request and throws `.cancelled`.
///
/// The credential-manager signals (`PasskeyCredentialSignals`) need the relying party's ID: the
/// one of the last options this object saw, else the `relyingPartyID` given at init. With
/// neither (an app restored a token from the Keychain and deletes a passkey before any ceremony,
/// without giving one) no signal is sent.
@MainActor
public final class PasskeyAuthorization {
    /// The client the flows call; its held token is the signed-in session.
    public let client: PasskeyClient
    let controllers: any PasskeyAuthorizationControllerFactory
    let signals: any PasskeyCredentialSignals
    /// The time AutoFill's challenge expiry is judged by (`refreshAutoFill()`).
    let now: @Sendable () -> Date

    /// The relying party the signals are for (the last options' ID, else the one given at init).
    public internal(set) var relyingPartyID: String?
    /// Why the last request the platform failed, in the platform's words, when it gave any (nil
    /// after a success or a cancellation by this bridge). Log it: it tells a wrong associated
    /// domain from a device without passkeys (docs/ios.md, "When a request fails").
    public private(set) var lastFailureReason: String?

    var inFlight: InFlight?
    private var nextRequestNumber: UInt64 = 0
    /// Bumped by `cancelAutoFill()`: an AutoFill loop of an older generation stops.
    var autoFillGeneration: UInt64 = 0
    /// Set when the running AutoFill request was ended because its challenge expired.
    var autoFillExpired = false
    /// When the running AutoFill request's challenge expires (nil: none running).
    var autoFillExpiresAt: Date?

    /// The platform request in flight, and the caller waiting for it.
    struct InFlight {
        let number: UInt64
        let request: PasskeyAuthorizationRequest
        let controller: any PasskeyAuthorizationController
        let continuation: CheckedContinuation<Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>, Never>

        var isAutoFill: Bool {
            if case .assertion(_, .autoFill) = request { return true }
            return false
        }
    }

    /// A bridge running `client`'s ceremonies through `controllers` (the platform, or a test's)
    /// and telling `signals` what changed.
    ///
    /// - Parameters:
    ///   - relyingPartyID: the app's associated domain, for the signals before any options were seen.
    ///   - now: the clock `refreshAutoFill()` compares the challenge's expiry with (a test's own).
    public init(
        client: PasskeyClient, controllers: any PasskeyAuthorizationControllerFactory,
        signals: any PasskeyCredentialSignals = NoCredentialSignals(), relyingPartyID: String? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.client = client
        self.controllers = controllers
        self.signals = signals
        self.relyingPartyID = relyingPartyID
        self.now = now
    }

    /// Shows one platform request and returns what the platform gave. The controller's first
    /// completion is taken, later ones are ignored.
    public func perform(_ request: PasskeyAuthorizationRequest) async throws(PasskeyAuthorizationError)
        -> PasskeyAuthorizationResult
    {
        if let running = inFlight {
            guard running.isAutoFill else { throw .requestInProgress }
            end(running.number, with: .failure(.cancelled))
        }
        relyingPartyID = request.relyingPartyID
        nextRequestNumber += 1
        let number = nextRequestNumber
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (
                    continuation: CheckedContinuation<
                        Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>, Never
                    >
                ) in
                guard !Task.isCancelled else { return continuation.resume(returning: .failure(.cancelled)) }
                let controller = controllers.makeController(for: request) { [weak self] result in
                    self?.complete(number, with: result)
                }
                inFlight = InFlight(
                    number: number, request: request, controller: controller, continuation: continuation)
                controller.start()
            }
        } onCancel: {
            Task { @MainActor [weak self] in self?.end(number, with: .failure(.cancelled)) }
        }
        return try result.get()
    }

    /// The controller's answer for request `number`; ignored when that request has ended.
    private func complete(_ number: UInt64, with result: Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>)
    {
        guard let running = inFlight, running.number == number else { return }
        inFlight = nil
        if case .failure = result {
            lastFailureReason = running.controller.failureReason
        } else {
            lastFailureReason = nil
        }
        running.continuation.resume(returning: result)
    }

    /// Ends request `number` early: the platform request is cancelled and its caller resumed.
    func end(_ number: UInt64, with result: Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>) {
        guard let running = inFlight, running.number == number else { return }
        inFlight = nil
        lastFailureReason = nil
        running.controller.cancel()
        running.continuation.resume(returning: result)
    }
}
