/// The `Authorization` header as this server reads it.
enum AuthorizationHeader {
    /// The token of `Bearer TOKEN` (scheme case-insensitive, surrounding blanks dropped); nil
    /// for a missing header or another scheme.
    static func bearerToken(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        var token = parts[1]
        while token.first == " " || token.first == "\t" { token = token.dropFirst() }
        while token.last == " " || token.last == "\t" { token = token.dropLast() }
        return String(token)
    }
}
