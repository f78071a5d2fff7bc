package import Foundation

/// A signing key's ID: the JWS `kid`, 22 base64url characters of 16 random bytes.
package struct SigningKeyID: Hashable, Sendable, CustomStringConvertible {
    package let value: String

    /// Accepts what `kid` may be: 8–64 base64url characters (anything else names no key).
    package init?(_ value: String) {
        guard (8...64).contains(value.utf8.count),
            value.utf8.allSatisfy({ byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            })
        else { return nil }
        self.value = value
    }

    /// A new ID from 16 random bytes.
    package init(random bytes: [UInt8]) {
        value = Base64URL.encode(bytes)
    }

    package var description: String { value }
}

/// The public half of a P-256 key, as a JWK publishes it: the two affine coordinates, 32 bytes
/// each, big-endian.
package struct ECPublicKeyCoordinates: Hashable, Sendable {
    package let x: [UInt8]
    package let y: [UInt8]

    package init(x: [UInt8], y: [UInt8]) {
        self.x = x
        self.y = y
    }
}

/// One ES256 key pair of the server (`signing_keys`): the public half published, the private
/// half stored sealed under `DATA_ENCRYPTION_KEY`.
///
/// A key is *published* from its creation until it is revoked, or until every token it signed
/// has expired after it was retired; it *signs* from `signsFrom` (600 s after its creation for a
/// rotation, so that caches of the key set hold it first) until the next key signs.
package struct SigningKey: Hashable, Sendable {
    package let id: SigningKeyID
    package let publicKey: ECPublicKeyCoordinates
    /// The private key's DER, sealed (AES-256-GCM, associated data: the ID).
    package let sealedPrivateKey: [UInt8]
    package let createdAt: Date
    package let signsFrom: Date
    /// When the next key took over signing (nil while this one is current or next).
    package var retiredAt: Date?
    package var revokedAt: Date?

    package init(
        id: SigningKeyID, publicKey: ECPublicKeyCoordinates, sealedPrivateKey: [UInt8], createdAt: Date,
        signsFrom: Date, retiredAt: Date? = nil, revokedAt: Date? = nil
    ) {
        self.id = id
        self.publicKey = publicKey
        self.sealedPrivateKey = sealedPrivateKey
        self.createdAt = createdAt
        self.signsFrom = signsFrom
        self.retiredAt = retiredAt
        self.revokedAt = revokedAt
    }

    /// Whether the key belongs in the key set at `now`, for tokens of at most `tokenLifetime`.
    package func isPublished(at now: Date, tokenLifetime: TimeInterval) -> Bool {
        guard revokedAt == nil else { return false }
        guard let retiredAt else { return true }
        return retiredAt.addingTimeInterval(tokenLifetime) > now
    }
}

/// The rules over the set of keys: which signs, which are published, and when a rotation is due.
package struct SigningKeySet: Hashable, Sendable {
    /// How long a new key of a rotation is published before it signs (caches hold the key set
    /// for up to 300 s; spec v4).
    package static let publicationLead: TimeInterval = 600

    /// Every key not yet deleted, in any state.
    package let keys: [SigningKey]

    package init(_ keys: [SigningKey]) { self.keys = keys.sorted { $0.signsFrom < $1.signsFrom } }

    /// The key that signs at `now`: the unrevoked key that signs latest among those whose
    /// `signsFrom` has come.
    package func current(at now: Date) -> SigningKey? {
        keys.last { $0.revokedAt == nil && $0.signsFrom <= now }
    }

    /// A key made by a rotation that does not sign yet.
    package func next(at now: Date) -> SigningKey? {
        keys.first { $0.revokedAt == nil && $0.signsFrom > now }
    }

    /// The keys of the key set at `now`.
    package func published(at now: Date, tokenLifetime: TimeInterval) -> [SigningKey] {
        keys.filter { $0.isPublished(at: now, tokenLifetime: tokenLifetime) }
    }

    /// What a periodic check should do at `now` with keys rotated every `rotationInterval`.
    package func due(at now: Date, rotationInterval: TimeInterval) -> SigningKeyChange? {
        guard let current = current(at: now) else {
            // None signs (the first start, or every key revoked): one that signs at once, unless a
            // rotation's key is already on its way.
            return next(at: now) == nil ? .makeSigningNow : nil
        }
        guard next(at: now) == nil, current.signsFrom.addingTimeInterval(rotationInterval) <= now else { return nil }
        return .rotate(retiring: current.id)
    }
}

/// A change of the key set.
package enum SigningKeyChange: Hashable, Sendable {
    /// A key that signs at once (none signs).
    case makeSigningNow
    /// A key that signs `SigningKeySet.publicationLead` from now; `retiring` stops signing then.
    case rotate(retiring: SigningKeyID)
}
