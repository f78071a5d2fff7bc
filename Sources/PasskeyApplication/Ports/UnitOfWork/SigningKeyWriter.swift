package import Foundation
package import PasskeyDomain

/// The signing keys, inside a transaction (rotation and revocation).
package protocol SigningKeyWriter {
    /// Serialises every change of the key set, on every instance, until the transaction ends
    /// (an advisory lock): of two instances due to rotate, one makes the key and the other then
    /// finds it.
    func lockKeySet() async throws(RepositoryError)

    /// Every key, revoked ones included.
    func all() async throws(RepositoryError) -> [SigningKey]

    func insert(_ key: SigningKey) async throws(RepositoryError)

    /// Sets `retired_at` of a key that has none.
    func retire(_ id: SigningKeyID, at date: Date) async throws(RepositoryError)

    /// Sets `revoked_at`; false when there is no such unrevoked key.
    func revoke(_ id: SigningKeyID, at date: Date) async throws(RepositoryError) -> Bool
}
