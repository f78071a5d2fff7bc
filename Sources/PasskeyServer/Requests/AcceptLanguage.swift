internal import Foundation
internal import PasskeyDomain

/// The language of an account's mails from its sign-up request's `Accept-Language` (RFC 9110
/// §12.5.4): Japanese when `ja` (or `ja-*`) has a higher weight than every English range (`en`,
/// `en-*`, or `*`), or the same weight and comes first; English otherwise. Parsed defensively: at
/// most 1024 bytes and 32 ranges are looked at; malformed ranges and weights are skipped. Parsed
/// at the edge (`RequestPipeline`, into `RequestContext.mailLanguage`): use cases take the language.
enum AcceptLanguage {
    static let maximumBytes = 1024
    static let maximumRanges = 32

    static func mailLanguage(_ header: String?) -> MailLanguage {
        guard let header, header.utf8.count <= maximumBytes else { return .english }
        var japanese: (weight: Double, index: Int)?
        var english: (weight: Double, index: Int)?
        for (index, part) in header.split(separator: ",").prefix(maximumRanges).enumerated() {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let range = pieces.first, !range.isEmpty else { continue }
            var weight = 1.0
            if let q = pieces.dropFirst().first(where: { $0.hasPrefix("q=") }) {
                guard let value = Double(q.dropFirst(2)), value >= 0, value <= 1 else { continue }
                weight = value
            }
            guard weight > 0 else { continue }
            let primary = range.split(separator: "-").first.map(String.init) ?? range
            if primary == "ja" {
                if japanese == nil || weight > japanese!.weight { japanese = (weight, index) }
            } else if primary == "en" || range == "*" {
                if english == nil || weight > english!.weight { english = (weight, index) }
            }
        }
        guard let japanese else { return .english }
        guard let english else { return .japanese }
        if japanese.weight != english.weight { return japanese.weight > english.weight ? .japanese : .english }
        return japanese.index < english.index ? .japanese : .english
    }
}
