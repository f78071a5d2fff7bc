public import Foundation

/// AutoFill-assisted sign-in: the passkeys offered in the QuickType bar of a username field.
///
/// **The offer never goes away by itself, and is never taken from under the user.** The request is
/// not restarted on a timer: a timer that fires while the user is picking a passkey in the
/// QuickType bar would cancel that pick. Instead the app calls `refreshAutoFill()` when the
/// username field gains focus (before the user can pick), which replaces a challenge that expires
/// within `autoFillRefreshMargin`; and a pick whose challenge expired anyway (the field stayed
/// focused for the challenge's whole life) is answered `challenge-unavailable` by the server, on
/// which the offer starts again with new options instead of failing. After the offer was
/// withdrawn (`cancelAutoFill()`, a sheet, a modal flow), the app starts it again with
/// `signInWithAutoFill()` (the example's `PasskeySignInPresenter` does, after a cancelled sheet,
/// a failed password and when the email field regains focus).
extension PasskeyAuthorization {
    /// How long before its challenge expires `refreshAutoFill()` replaces the offer.
    public nonisolated static var autoFillRefreshMargin: TimeInterval { 30 }

    /// Offers the passkeys in the keyboard of a username field; start it when the field appears
    /// (`textContentType` `.username`). Returns when the user picks one (the session's token is
    /// then held). Ends with `.authorization(.cancelled)` after `cancelAutoFill()`,
    /// `signInWithPasskey()` or any other request, and when the task is cancelled.
    public func signInWithAutoFill() async throws(PasskeyClientError) -> PasskeySession {
        cancelAutoFill()
        let generation = autoFillGeneration
        while true {
            let options = try await client.startPasskeySignIn()
            guard generation == autoFillGeneration else { throw .authorization(.cancelled) }
            autoFillExpired = false
            autoFillExpiresAt = options.expiresAt
            let outcome: Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>
            do {
                outcome = .success(try await perform(.assertion(options, presentation: .autoFill)))
            } catch {
                outcome = .failure(error)
            }
            autoFillExpiresAt = nil
            switch outcome {
            case .success(let result):
                do {
                    return try await finishSignIn(options, with: result)
                } catch {
                    // The challenge expired while the user held the offer: offer again.
                    guard error.code == .challengeUnavailable, generation == autoFillGeneration else { throw error }
                    continue
                }
            case .failure(.cancelled) where autoFillExpired && generation == autoFillGeneration:
                autoFillExpired = false
                continue
            case .failure(let error):
                throw .authorization(error)
            }
        }
    }

    /// Call when the username field gains focus: a running offer whose challenge expires within
    /// `autoFillRefreshMargin` (or has expired) is replaced by one with new options; a fresh one is
    /// left alone. Returns whether it was replaced.
    @discardableResult
    public func refreshAutoFill() -> Bool {
        guard let running = inFlight, running.isAutoFill, let expiresAt = autoFillExpiresAt,
            expiresAt.timeIntervalSince(now()) < Self.autoFillRefreshMargin
        else { return false }
        autoFillExpired = true
        end(running.number, with: .failure(.cancelled))
        return true
    }

    /// Whether an AutoFill offer is showing now (a request of `signInWithAutoFill()` is in flight).
    public var isOfferingAutoFill: Bool { inFlight?.isAutoFill ?? false }

    /// Withdraws the AutoFill offer (the field went away, or a modal flow starts). The waiting
    /// `signInWithAutoFill()` ends with `.authorization(.cancelled)`. Do not call it when the user
    /// focuses the password field: the offer stays useful there (the user may still pick a passkey).
    public func cancelAutoFill() {
        autoFillGeneration += 1
        if let running = inFlight, running.isAutoFill { end(running.number, with: .failure(.cancelled)) }
    }
}
