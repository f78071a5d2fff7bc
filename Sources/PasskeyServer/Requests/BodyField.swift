internal import Foundation
internal import PasskeyDomain

/// The field rules every body shares, each naming the field on failure (400 `invalid-request`).
enum BodyField {
    /// base64url (padded or not) or standard base64.
    static func bytes(_ value: String, field: String) throws(Problem) -> [UInt8] {
        guard let bytes = Base64URL.decode(value, lenient: true) else {
            throw Problem.invalidRequest("\(field) is not base64url.")
        }
        return bytes
    }

    static func required(_ value: String?, field: String) throws(Problem) -> String {
        guard let value else { throw Problem.invalidRequest("\(field) is required.") }
        return value
    }

    static func uuid(_ value: String?, field: String) throws(Problem) -> UUID {
        guard let value, let uuid = UUID(uuidString: value) else {
            throw Problem.invalidRequest("\(field) must be a UUID.")
        }
        return uuid
    }

    /// Authenticator transports: short lowercase tokens, at most 16, duplicates dropped.
    static func transports(_ values: [String]?) throws(Problem) -> [String] {
        let values = values ?? []
        guard values.count <= 16,
            values.allSatisfy({ !$0.isEmpty && $0.count <= 32 && $0.allSatisfy { $0.isLowercase || $0 == "-" } })
        else { throw Problem.invalidRequest("transports must be at most 16 short lowercase tokens.") }
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}
