package import PasskeyApplication
internal import Synchronization

/// A `PasswordHasher` whose answers a test sets: the hash of `password` is `"hash:" + password`,
/// a verification matches when the stored hash is that string (`needsRehash` when it starts with
/// `"legacy:"` instead), `setBusy`/`setFailing` make every call throw `.busy`/`.failed`, and
/// `failHashes` makes only `hash` throw (a rehash that fails after a verification), and
/// `duringNextVerification` runs a race inside one. Counts the calls.
package final class ScriptedPasswordHasher: PasswordHasher {
    private struct State {
        var error: PasswordHashingError?
        var hashError: PasswordHashingError?
        var verifications = 0
        var dummyVerifications = 0
        var hashes = 0
        var duringVerification: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    package init() {}

    package func setBusy(_ busy: Bool) { state.withLock { $0.error = busy ? .busy : nil } }
    package func setFailing(_ failing: Bool) { state.withLock { $0.error = failing ? .failed : nil } }
    package func failHashes(with error: PasswordHashingError?) { state.withLock { $0.hashError = error } }
    /// Runs `action` once, inside the next verification (what another request does meanwhile).
    package func duringNextVerification(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.duringVerification = action }
    }
    package var verifications: Int { state.withLock { $0.verifications } }
    package var dummyVerifications: Int { state.withLock { $0.dummyVerifications } }
    package var hashes: Int { state.withLock { $0.hashes } }

    package func hash(_ password: String) async throws(PasswordHashingError) -> String {
        try state.withLock { (state) throws(PasswordHashingError) -> String in
            if let error = state.error ?? state.hashError { throw error }
            state.hashes += 1
            return "hash:" + password
        }
    }

    package func verify(_ password: String, against hash: String) async throws(PasswordHashingError)
        -> PasswordVerification
    {
        let meanwhile = state.withLock { state in
            defer { state.duringVerification = nil }
            return state.duringVerification
        }
        meanwhile?()
        return try state.withLock { (state) throws(PasswordHashingError) -> PasswordVerification in
            if let error = state.error { throw error }
            state.verifications += 1
            if hash == "hash:" + password { return .match(needsRehash: false) }
            if hash == "legacy:" + password { return .match(needsRehash: true) }
            return .mismatch
        }
    }

    package func verifyAgainstDummy(_ password: String) async throws(PasswordHashingError) {
        try state.withLock { (state) throws(PasswordHashingError) in
            if let error = state.error { throw error }
            state.dummyVerifications += 1
        }
    }
}
