package import Foundation
package import PasskeyDomain

/// A recovery code to store: only its digest.
package struct StoredRecoveryCode: Hashable, Sendable {
    package let id: UUID
    package let accountID: AccountID
    package let digest: [UInt8]
    package let source: RecoveryCodeSource
    package let createdAt: Date
    /// Operator codes only.
    package let expiresAt: Date?

    package init(
        id: UUID, accountID: AccountID, digest: [UInt8], source: RecoveryCodeSource, createdAt: Date,
        expiresAt: Date?
    ) {
        self.id = id
        self.accountID = accountID
        self.digest = digest
        self.source = source
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
