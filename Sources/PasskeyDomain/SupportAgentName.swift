internal import Foundation

/// Who at the support desk issued an operator recovery code (`--issued-by NAME`): trimmed,
/// 1–64 Unicode code points, printable only (no control, format, separator-line, private-use,
/// surrogate or unassigned code points), so it cannot forge a log line or hide text.
package struct SupportAgentName: Hashable, Sendable, CustomStringConvertible {
    package static let maximumScalars = 64
    package let value: String

    package init?(_ raw: String) {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        let scalars = trimmed.unicodeScalars
        guard !scalars.isEmpty, scalars.count <= Self.maximumScalars else { return nil }
        guard scalars.allSatisfy(Self.isPrintable) else { return nil }
        value = trimmed
    }

    package var description: String { value }

    private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
            false
        case .spaceSeparator: scalar == " "
        default: true
        }
    }
}
