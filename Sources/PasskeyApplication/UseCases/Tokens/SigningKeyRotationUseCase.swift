internal import Foundation
package import PasskeyDomain

/// A key the rotation made.
package struct MadeSigningKey: Hashable, Sendable {
    package let key: SigningKey
    /// The key that stops signing when it starts (a rotation), if any.
    package let retiring: SigningKeyID?
}

/// Why a change of the key set failed.
package enum SigningKeyRotationError: Error, Hashable, Sendable {
    case unknownKey
    case unavailable
    case internalFailure(cause: FailureCause)
}

extension SigningKeyRotationError: RepositoryBackedError {
    package static var accountGone: Self { .unavailable }
}

/// The key set's life (spec v4, "Keys"): the first key, made when none exists, signs at once;
/// every `TOKEN_KEY_ROTATION_DAYS` one instance makes the next key, which signs 600 s after it
/// was published; `keys revoke` takes a key out of the set and makes one that signs at once.
/// Every change runs in one transaction under the key set's advisory lock, so of several
/// instances due at once one makes the key and the others find it.
package struct SigningKeyRotationUseCase: Sendable {
    let store: any UnitOfWork
    let format: any AccessTokenFormat
    let sealer: any SecretSealer
    let policy: TokenPolicy
    let clock: any WallClock
    let random: any RandomGenerator

    package init(
        store: any UnitOfWork, format: any AccessTokenFormat, sealer: any SecretSealer, policy: TokenPolicy,
        clock: any WallClock, random: any RandomGenerator
    ) {
        self.store = store
        self.format = format
        self.sealer = sealer
        self.policy = policy
        self.clock = clock
        self.random = random
    }

    /// The periodic check (every instance, at start and then every minute): makes the first
    /// key, or the next one when the current has signed for `rotationInterval`; nil when
    /// nothing was due.
    @discardableResult
    package func ensure() async throws(SigningKeyRotationError) -> MadeSigningKey? {
        let now = clock.now
        let interval = policy.rotationInterval
        let prepared = try prepare(now: now)
        return try await store.transaction(as: SigningKeyRotationError.self) { tx async throws(RepositoryError) in
            try await tx.signingKeys.lockKeySet()
            let set = SigningKeySet(try await tx.signingKeys.all())
            switch set.due(at: now, rotationInterval: interval) {
            case nil: return nil
            case .makeSigningNow: return try await Self.insert(prepared(now), retiring: nil, in: tx)
            case .rotate(let retiring):
                return try await Self.insert(
                    prepared(now.addingTimeInterval(SigningKeySet.publicationLead)), retiring: retiring, in: tx)
            }
        }
    }

    /// `passkey-server keys rotate`: the next key now (it signs once published for 600 s); when
    /// one is already on its way, that one.
    package func rotate() async throws(SigningKeyRotationError) -> MadeSigningKey {
        let now = clock.now
        let prepared = try prepare(now: now)
        return try await store.transaction(as: SigningKeyRotationError.self) { tx async throws(RepositoryError) in
            try await tx.signingKeys.lockKeySet()
            let set = SigningKeySet(try await tx.signingKeys.all())
            if let next = set.next(at: now) { return MadeSigningKey(key: next, retiring: set.current(at: now)?.id) }
            guard let current = set.current(at: now) else {
                return try await Self.insert(prepared(now), retiring: nil, in: tx)
            }
            return try await Self.insert(
                prepared(now.addingTimeInterval(SigningKeySet.publicationLead)), retiring: current.id, in: tx)
        }
    }

    /// `passkey-server keys revoke KID`: out of the set at once (its tokens stop verifying and
    /// introspect as inactive); when it was current or next, a key that signs at once replaces it.
    package func revoke(_ id: SigningKeyID) async throws(SigningKeyRotationError) -> MadeSigningKey? {
        let now = clock.now
        let prepared = try prepare(now: now)
        let outcome = try await store.transaction(as: SigningKeyRotationError.self) {
            tx async throws(RepositoryError) -> Result<MadeSigningKey?, SigningKeyRotationError> in
            try await tx.signingKeys.lockKeySet()
            let before = SigningKeySet(try await tx.signingKeys.all())
            guard try await tx.signingKeys.revoke(id, at: now) else { return .failure(.unknownKey) }
            let signing = before.current(at: now)?.id == id || before.next(at: now)?.id == id
            guard signing else { return .success(nil) }
            // Whatever else was on its way stops too: the replacement signs now.
            if let next = before.next(at: now), next.id != id { _ = try await tx.signingKeys.revoke(next.id, at: now) }
            if let current = before.current(at: now), current.id != id {
                try await tx.signingKeys.retire(current.id, at: now)
            }
            return .success(try await Self.insert(prepared(now), retiring: nil, in: tx))
        }
        return try outcome.get()
    }

    /// Every key, with what it does now (`keys list`).
    package func list(repository: any SigningKeyRepository) async throws(SigningKeyRotationError)
        -> [(key: SigningKey, state: SigningKeyState)]
    {
        let now = clock.now
        let keys = try await SigningKeyRotationError.catching { () async throws(RepositoryError) in
            try await repository.keys(includingRevoked: true)
        }
        let set = SigningKeySet(keys)
        let current = set.current(at: now)?.id
        return set.keys.map { key in
            let state: SigningKeyState =
                if key.revokedAt != nil {
                    .revoked
                } else if key.id == current {
                    .signing
                } else if key.signsFrom > now {
                    .next
                } else if key.isPublished(at: now, tokenLifetime: policy.lifetime) {
                    .retired
                } else {
                    .expired
                }
            return (key, state)
        }
    }

    /// A new key pair, sealed, for a `signsFrom` given later (inside the transaction).
    private func prepare(now: Date) throws(SigningKeyRotationError) -> @Sendable (Date) -> SigningKey {
        let id = SigningKeyID(random: random.bytes(count: 16))
        let pair: (publicKey: ECPublicKeyCoordinates, privateKey: [UInt8])
        let sealed: [UInt8]
        do {
            pair = try format.makeKeyPair()
            sealed = try sealer.seal(pair.privateKey, context: id.value)
        } catch {
            throw .internalFailure(cause: FailureCause(error))
        }
        let publicKey = pair.publicKey
        return { signsFrom in
            SigningKey(id: id, publicKey: publicKey, sealedPrivateKey: sealed, createdAt: now, signsFrom: signsFrom)
        }
    }

    private static func insert(_ key: SigningKey, retiring: SigningKeyID?, in tx: any StoreTransaction)
        async throws(RepositoryError) -> MadeSigningKey
    {
        if let retiring { try await tx.signingKeys.retire(retiring, at: key.signsFrom) }
        try await tx.signingKeys.insert(key)
        return MadeSigningKey(key: key, retiring: retiring)
    }
}

/// What a key does now (`keys list`).
package enum SigningKeyState: String, Hashable, Sendable {
    case signing
    /// Published, signing from its `signsFrom`.
    case next
    /// Published until the tokens it signed have expired.
    case retired
    /// No longer published: every token it signed has expired.
    case expired
    case revoked
}
