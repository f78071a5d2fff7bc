internal import PasskeyApplication

/// One file of the web client, read once at start and served from memory.
struct StaticFile: Sendable {
    let contentType: String
    let body: [UInt8]
    /// A strong validator: the first 16 bytes of the body's SHA-256, quoted.
    let etag: String

    init(contentType: String, body: [UInt8], digester: any SecretDigester) {
        self.contentType = contentType
        self.body = body
        let digest = digester.sha256(body).prefix(16)
        etag = "\"" + digest.map { String($0, radix: 16).leftPadded(to: 2) }.joined() + "\""
    }

    /// The content type for a file name's extension; nil for a type the web client does not serve.
    static func contentType(forName name: String) -> String? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "html": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "json": return "application/json"
        case "webmanifest": return "application/manifest+json"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "ico": return "image/x-icon"
        case "txt": return "text/plain; charset=utf-8"
        default: return nil
        }
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
