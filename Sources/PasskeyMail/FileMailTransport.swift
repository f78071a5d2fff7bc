package import Foundation
package import PasskeyApplication
package import PasskeyDomain

/// `MailTransport` into a folder (`MAIL_URL=file:///folder`, `make run`'s default): each mail
/// becomes `<outbox id>.eml`, written atomically (a temporary file renamed into place), so a
/// reader never sees half a message and a retry overwrites rather than duplicates.
package struct FileMailTransport: MailTransport {
    package let folder: URL
    private let writer: MailMessageWriter

    package init(folder: URL, from: EmailAddress) {
        self.folder = folder
        self.writer = MailMessageWriter(from: from)
    }

    package var destination: String { folder.path }

    package func send(_ message: MailMessage) async throws(MailTransportError) {
        let bytes = try writer.render(message, date: Date())
        let file = folder.appendingPathComponent("\(message.id.uuidString.lowercased()).eml")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // `.atomic` writes a temporary file beside it and renames it over `file`.
            try Data(bytes).write(to: file, options: .atomic)
        } catch {
            throw MailTransportError(.transient, cause: "cannot write \(file.path): \(Self.reason(error))")
        }
    }

    private static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        return underlying.map { String(cString: strerror(Int32($0.code))) } ?? "\((error as NSError).code)"
    }
}
