internal import Foundation

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

    /// The client ID and secret of `Basic BASE64` (RFC 7617), each form-urldecoded as RFC 6749
    /// §2.3.1 asks; nil for a missing header, another scheme, bad base64 or no colon.
    static func basicCredentials(_ header: String?) -> (id: String, secret: String)? {
        guard let header, header.utf8.count <= 2048 else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let data = Data(base64Encoded: parts[1].trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":"),
            let id = FormBody.decoded(text[..<colon]), let secret = FormBody.decoded(text[text.index(after: colon)...])
        else { return nil }
        return (id, secret)
    }
}
