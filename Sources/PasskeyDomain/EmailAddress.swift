internal import Foundation

/// An email address as the contract accepts it: trimmed, at most 254 Unicode code points (both
/// as given and in the normalised form, which may be longer: `İ` lowercases to two code points),
/// exactly one `@` with non-empty local part and domain, no whitespace or control characters
/// inside. `normalized` (NFC, lowercased) is what uniqueness uses.
package struct EmailAddress: Hashable, Sendable {
    package static let maximumLength = 254

    /// The address as the user typed it, trimmed.
    package let value: String
    /// The NFC-normalised, lowercased address; unique across accounts.
    package let normalized: String

    package init?(_ raw: String) {
        // Bounded before any Unicode work: 254 code points are at most 4 × 254 UTF-8 bytes, and
        // surrounding whitespace gets a generous allowance.
        guard raw.utf8.count <= 4 * Self.maximumLength + 1_024 else { return nil }
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        // Code points, not characters: `a` + 300 combining accents is one character.
        guard !trimmed.isEmpty, trimmed.unicodeScalars.count <= Self.maximumLength else { return nil }
        for scalar in trimmed.unicodeScalars {
            if scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .format
            {
                return nil
            }
        }
        // Code points, not characters: "@" followed by a combining mark is one Character.
        let parts = trimmed.unicodeScalars.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        let normalized = trimmed.precomposedStringWithCanonicalMapping.lowercased()
        guard normalized.unicodeScalars.count <= Self.maximumLength else { return nil }
        value = trimmed
        self.normalized = normalized
    }

    /// Two addresses name the same mailbox for this server when their normalised forms match.
    package static func == (lhs: EmailAddress, rhs: EmailAddress) -> Bool {
        lhs.normalized == rhs.normalized
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(normalized) }
}
