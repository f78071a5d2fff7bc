package import Foundation
package import PasskeyDomain

/// A mailed code as the use case prepares it before the transaction that stores it: its row ID,
/// the digest of the code bound to that ID (so equal codes of two rows never share a digest), and
/// its lifetime. The code itself never reaches the repository.
package struct EmailCodeDraft: Hashable, Sendable {
    package let id: UUID
    package let purpose: EmailCodePurpose
    package let digest: [UInt8]
    package let createdAt: Date
    package let expiresAt: Date

    package init(id: UUID, purpose: EmailCodePurpose, digest: [UInt8], createdAt: Date, expiresAt: Date) {
        self.id = id
        self.purpose = purpose
        self.digest = digest
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
