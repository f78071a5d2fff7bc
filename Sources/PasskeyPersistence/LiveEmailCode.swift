internal import Foundation

/// A usable code's row (unused, not void, unexpired), locked by the transaction that read it.
struct LiveEmailCode: Sendable {
    let id: UUID
    let digest: [UInt8]
    let email: String
    let failedTries: Int
}
