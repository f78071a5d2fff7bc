package import Foundation

/// A person's account; everything else hangs off it.
package struct Account: Hashable, Sendable {
    package let id: AccountID
    package var displayName: DisplayName
    package let createdAt: Date

    package init(id: AccountID, displayName: DisplayName, createdAt: Date) {
        self.id = id
        self.displayName = displayName
        self.createdAt = createdAt
    }
}
