import Foundation

/// The folder of a server started with `MAIL_URL=file:///folder`: its background sender writes
/// each mail there as `<id>.eml`. The email flows read their codes from it, as a person trying
/// `make run` reads `.mail/`.
struct MailFolder {
    struct NoMail: Error, CustomStringConvertible {
        let recipient: String
        var description: String { "no new mail with a code to \(recipient) arrived" }
    }

    let url: URL
    /// The mails already read, so each call takes the next one.
    private var read: Set<String> = []

    /// A new empty folder under the temporary directory.
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("client-mail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// What the server's `MAIL_URL` is.
    var mailURL: String { "file://\(url.path)" }

    /// The 6-digit code of the next mail to `recipient` not read before. The sender runs in the
    /// background, so this polls; the bound of 30 s only keeps a mail that never comes from
    /// hanging the run.
    mutating func nextCode(to recipient: String) async throws -> String {
        for _ in 0..<1200 {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".eml") && !read.contains(name) {
                guard let text = try? String(contentsOf: url.appendingPathComponent(name), encoding: .utf8),
                    let mail = Self.parse(text), mail.to.lowercased().contains(recipient.lowercased())
                else { continue }
                read.insert(name)
                if let code = mail.body.split(whereSeparator: \.isNewline).map({
                    $0.trimmingCharacters(in: .whitespaces)
                }).first(where: { $0.count == 6 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) {
                    return code
                }
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw NoMail(recipient: recipient)
    }

    /// Every `.eml` file in the folder.
    var count: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { $0.hasSuffix(".eml") }
            .count
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// The `To` header and the text body (base64 decoded, or 8bit as it is).
    static func parse(_ text: String) -> (to: String, body: String)? {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        guard let split = normalized.range(of: "\n\n") else { return nil }
        let headers = normalized[..<split.lowerBound].split(separator: "\n")
        let body = String(normalized[split.upperBound...])
        func header(_ name: String) -> String {
            headers.first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
                .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) } ?? ""
        }
        guard header("Content-Transfer-Encoding").lowercased() == "base64" else { return (header("To"), body) }
        let joined = body.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: joined) else { return nil }
        return (header("To"), String(decoding: data, as: UTF8.self))
    }
}
