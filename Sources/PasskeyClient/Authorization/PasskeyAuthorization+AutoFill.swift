/// AutoFill-assisted sign-in: the passkeys offered in the QuickType bar of a username field.
extension PasskeyAuthorization {
    /// Offers the passkeys in the keyboard of a username field; start it when the field appears
    /// (`textContentType` `.username`). Returns when the user picks one (the session's token is
    /// then held). While it waits, a challenge about to expire is replaced: the request is
    /// cancelled and started again with new options. Ends with `.authorization(.cancelled)` after
    /// `cancelAutoFill()`, `signInWithPasskey()` or any other request, and when the task is cancelled.
    public func signInWithAutoFill() async throws(PasskeyClientError) -> PasskeySession {
        cancelAutoFill()
        let generation = autoFillGeneration
        while true {
            let options = try await client.startPasskeySignIn()
            guard generation == autoFillGeneration else { throw .authorization(.cancelled) }
            autoFillExpired = false
            let waitUntilExpiry = waitUntilExpiry
            let expiry = Task { [weak self] in
                try await waitUntilExpiry(options.expiresAt)
                self?.expireAutoFill(generation)
            }
            let outcome: Result<PasskeyAuthorizationResult, PasskeyAuthorizationError>
            do {
                outcome = .success(try await perform(.assertion(options, presentation: .autoFill)))
            } catch {
                outcome = .failure(error)
            }
            expiry.cancel()
            switch outcome {
            case .success(let result):
                return try await finishSignIn(options, with: result)
            case .failure(.cancelled) where autoFillExpired && generation == autoFillGeneration:
                autoFillExpired = false
                continue
            case .failure(let error):
                throw .authorization(error)
            }
        }
    }

    /// Withdraws the AutoFill offer (the user started typing a password, or the field went away).
    /// The waiting `signInWithAutoFill()` ends with `.authorization(.cancelled)`.
    public func cancelAutoFill() {
        autoFillGeneration += 1
        if let running = inFlight, running.isAutoFill { end(running.number, with: .failure(.cancelled)) }
    }

    /// The challenge of the AutoFill loop of `generation` is about to expire: end its request so
    /// the loop starts another.
    private func expireAutoFill(_ generation: UInt64) {
        guard generation == autoFillGeneration, let running = inFlight, running.isAutoFill else { return }
        autoFillExpired = true
        end(running.number, with: .failure(.cancelled))
    }
}
