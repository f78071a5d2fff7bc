import Foundation
import PasskeyTestSupport
import Testing

/// The layout tells the architecture (docs/architecture.md): every use case has its
/// `<UseCase>Tests`, every port a `<Port>Tests` or a suite named after one of its adapters, and
/// every path of openapi.json its row in the "From a path to its code" table. Read from the
/// source tree, so a new use case, port or path without its test or row fails here.
@Suite struct ConventionTests {
    private static let root = PackagePaths.root

    /// Every `.swift` file under `folder` (relative to the package root), with its text.
    private static func sources(under folder: String) -> [(path: String, text: String)] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        var files: [(String, String)] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            if let text = try? String(contentsOf: url, encoding: .utf8) { files.append((url.path, text)) }
        }
        return files
    }

    private static func matches(_ pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// The names of every test suite (`struct …Tests`) of the package, the example app's included.
    private static let suites: Set<String> = {
        let texts = (sources(under: "Tests") + sources(under: "Examples")).map(\.text)
        return Set(texts.flatMap { matches(#"struct ([A-Za-z0-9]+Tests)\b"#, in: $0) })
    }()

    @Test func everyUseCaseHasItsTests() {
        let useCases = Set(
            Self.sources(under: "Sources/PasskeyApplication").flatMap {
                Self.matches(#"package struct ([A-Za-z0-9]+UseCase)\b"#, in: $0.text)
            })
        #expect(useCases.count > 20, "the use cases were not found")
        let missing = useCases.filter { !Self.suites.contains($0 + "Tests") }.sorted()
        #expect(missing.isEmpty, "use cases without a <UseCase>Tests suite: \(missing)")
    }

    @Test func everyPortHasTestsOfItselfOrOfAnAdapter() {
        let ports = Set(
            Self.sources(under: "Sources/PasskeyApplication/Ports").flatMap {
                Self.matches(#"package protocol ([A-Za-z0-9]+)"#, in: $0.text)
            })
        #expect(ports.count > 20, "the ports were not found")
        // Adapters: the types outside the test support that declare a conformance to the port.
        let declarations = Self.sources(under: "Sources").filter { !$0.path.contains("/PasskeyTestSupport/") }
            .flatMap { file in
                Self.matches(
                    #"(?:struct|class|actor|enum|extension) ([A-Za-z0-9]+(?:\s*:[^{\n]*)?)\s*\{"#, in: file.text)
            }
        var missing: [String] = []
        for port in ports.sorted() {
            let adapters = declarations.compactMap { declaration -> String? in
                let parts = declaration.split(separator: ":", maxSplits: 1)
                guard parts.count == 2 else { return nil }
                let conformances = parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                return conformances.contains(port) ? parts[0].trimmingCharacters(in: .whitespaces) : nil
            }
            let accepted = [port] + adapters
            if !accepted.contains(where: { Self.suites.contains($0 + "Tests") }) {
                missing.append("\(port) (adapters: \(adapters.joined(separator: ", ")))")
            }
        }
        #expect(missing.isEmpty, "ports without a <Port>Tests or <Adapter>Tests suite: \(missing)")
    }

    @Test func everyPathOfTheContractHasItsRowInTheArchitectureDoc() throws {
        let data = try Data(contentsOf: Self.root.appendingPathComponent("openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: Any]).keys
        let doc = try String(
            contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let table = try #require(
            doc.components(separatedBy: "## From a path to its code").dropFirst().first?
                .trimmingCharacters(in: .whitespacesAndNewlines).components(separatedBy: "\n\n").first)
        // The first column's paths, with `[/x]` read as present or absent.
        var rows: Set<String> = []
        for line in table.split(separator: "\n") where line.hasPrefix("|") {
            let first = line.split(separator: "|", omittingEmptySubsequences: true).first ?? ""
            for token in Self.matches("`([^`]+)`", in: String(first)) {
                for path in Self.expansions(of: token) { rows.insert(path) }
            }
        }
        let missing = paths.filter { !rows.contains($0) && !rows.contains($0 + "/") }.sorted()
        #expect(missing.isEmpty, "openapi.json paths without a row in docs/architecture.md: \(missing)")
    }

    /// `/v1/x[/finish]` → `/v1/x`, `/v1/x/finish`; `/.well-known/…` stands for every well-known path.
    private static func expansions(of token: String) -> [String] {
        if token == "/.well-known/…" {
            return [
                "/.well-known/apple-app-site-association", "/.well-known/assetlinks.json",
                "/.well-known/passkey-endpoints", "/.well-known/webauthn",
            ]
        }
        guard let open = token.firstIndex(of: "["), let close = token[open...].firstIndex(of: "]") else {
            return [token]
        }
        let before = String(token[..<open])
        let inside = String(token[token.index(after: open)..<close])
        let after = String(token[token.index(after: close)...])
        return expansions(of: before + after) + expansions(of: before + inside + after)
    }
}
