internal import Foundation

/// A short human-readable label (a display name or a passkey name): trimmed,
/// 1–64 Unicode code points, no control characters.
package struct BoundedName: Hashable, Sendable, CustomStringConvertible {
    package static let maximumScalars = 64
    package let value: String

    package init?(_ raw: String) {
        guard let value = Self.label(raw, maximumScalars: Self.maximumScalars) else { return nil }
        self.value = value
    }

    /// `raw` trimmed, when it is 1 to `maximumScalars` Unicode code points without a control
    /// character (what `char_length` counts, so the column's CHECK agrees); nil otherwise.
    package static func label(_ raw: String, maximumScalars: Int) -> String? {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        let scalars = trimmed.unicodeScalars
        guard !scalars.isEmpty, scalars.count <= maximumScalars else { return nil }
        guard !scalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        return trimmed
    }

    /// For names the server makes itself (authenticator names), which are known to be valid.
    package init(trusted value: String) { self.value = value }

    package var description: String { value }
}

/// The name an account shows in passkey sheets and the app.
package typealias DisplayName = BoundedName
/// The label a user gives one of their passkeys.
package typealias PasskeyName = BoundedName
