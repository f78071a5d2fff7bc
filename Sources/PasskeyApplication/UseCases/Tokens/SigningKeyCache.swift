package import Foundation
package import PasskeyDomain
internal import Synchronization

/// The signing keys as one instance holds them: read from the database at most `maximumAge`
/// (5 s) ago, their private halves opened once. Every instance thus signs with the key the
/// database says is current, at most 5 s late after a revocation elsewhere (a token signed
/// meanwhile with the revoked key verifies nowhere: the key set, read per request, no longer
/// has it, and introspection checks the key in its one statement). A key is chosen by its
/// `signsFrom` and the clock, so a rotation's next key never signs early, however stale.
package final class SigningKeyCache: Sendable {
    private struct State {
        var set = SigningKeySet([])
        var loadedAt: Date?
        var opened: [SigningKeyID: [UInt8]] = [:]
    }

    /// How stale the keys may be when signing or verifying (documented in docs/tokens.md).
    package static let maximumAge: TimeInterval = 5
    /// A token naming a key this instance does not know makes it look again, at most this often.
    package static let unknownKeyReloadInterval: TimeInterval = 1

    private let repository: any SigningKeyRepository
    private let sealer: any SecretSealer
    private let clock: any WallClock
    private let state = Mutex(State())

    package init(repository: any SigningKeyRepository, sealer: any SecretSealer, clock: any WallClock) {
        self.repository = repository
        self.sealer = sealer
        self.clock = clock
    }

    /// The key set, reloaded when older than `maximumAge`, or when it lacks `wanted` and was
    /// loaded more than `unknownKeyReloadInterval` ago (a key made a moment ago elsewhere).
    package func keySet(wanting wanted: SigningKeyID? = nil) async throws(RepositoryError) -> SigningKeySet {
        let now = clock.now
        let cached = state.withLock { state -> SigningKeySet? in
            guard let loadedAt = state.loadedAt else { return nil }
            let age = now.timeIntervalSince(loadedAt)
            if age >= Self.maximumAge { return nil }
            if let wanted, !state.set.keys.contains(where: { $0.id == wanted }),
                age >= Self.unknownKeyReloadInterval
            {
                return nil
            }
            return state.set
        }
        if let cached { return cached }
        let set = SigningKeySet(try await repository.keys(includingRevoked: false))
        state.withLock { state in
            state.set = set
            state.loadedAt = now
            // Forget the opened halves of keys that left the set (revoked, or long retired).
            let kept = Set(set.keys.map(\.id))
            state.opened = state.opened.filter { kept.contains($0.key) }
        }
        return set
    }

    /// The private key (DER) of `key`, opened with `DATA_ENCRYPTION_KEY`; nil when it does not
    /// open (a key made under another data key).
    package func privateKey(of key: SigningKey) -> [UInt8]? {
        if let opened = state.withLock({ $0.opened[key.id] }) { return opened }
        guard let opened = sealer.open(key.sealedPrivateKey, context: key.id.value) else { return nil }
        state.withLock { $0.opened[key.id] = opened }
        return opened
    }

    /// Forgets what was loaded (after this instance changed the key set).
    package func invalidate() {
        state.withLock { $0.loadedAt = nil }
    }
}
