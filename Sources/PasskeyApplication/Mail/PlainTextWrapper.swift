/// Wraps plain-text mail bodies at spaces so that lines stay within 78 characters (RFC 5322's
/// recommendation) where the text has spaces to break at: a long service name or address
/// pushes words to the next line. A line without a space that fits is never touched, so a
/// code on its own line stays alone on it.
enum PlainTextWrapper {
    static let width = 78

    static func wrap(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { wrapLine(String($0)) }
            .joined(separator: "\n")
    }

    private static func wrapLine(_ line: String) -> String {
        guard line.count > width else { return line }
        var lines: [String] = []
        var current = ""
        for word in line.split(separator: " ") {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines.joined(separator: "\n")
    }
}
