package import Foundation

/// (v4) Why the support desk locked an account, written for the user's eyes (it is shown in the
/// account's activity, never in a mail): trimmed, 1–200 code points, nothing invisible.
package struct LockReason: Hashable, Sendable, CustomStringConvertible {
    package static let maximumScalars = 200
    package let value: String

    package init?(_ raw: String) {
        guard let value = BoundedName.label(raw, maximumScalars: Self.maximumScalars),
            value.unicodeScalars.allSatisfy(Self.isVisible)
        else { return nil }
        self.value = value
    }

    /// A reason read back from the database: only its bounds are checked (the column's CHECK
    /// holds them), so a row written under an earlier rule, or read by a runtime whose Unicode
    /// tables differ, never makes the account unreadable (and so unlockable).
    package init?(stored raw: String) {
        guard let value = BoundedName.label(raw, maximumScalars: Self.maximumScalars) else { return nil }
        self.value = value
    }

    /// The owner reads the reason in the activity and receivers in webhooks: no invisible or
    /// reordering characters (bidi overrides, zero-width spaces), no line breaks, no private-use
    /// or unassigned code points. U+200D stays, as emoji sequences need it.
    private static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .format: scalar == "\u{200D}"
        case .control, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned: false
        default: true
        }
    }

    package var description: String { value }
}

/// (v4) A locked account's lock (spec v4, "Support desk"): while it holds, no sign-in of the
/// account makes a session, whatever the credential.
package struct AccountLock: Hashable, Sendable {
    package let lockedAt: Date
    package let reason: LockReason

    package init(lockedAt: Date, reason: LockReason) {
        self.lockedAt = lockedAt
        self.reason = reason
    }
}
