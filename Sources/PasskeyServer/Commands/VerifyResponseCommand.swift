internal import Foundation

/// `passkey-server verify-response [--trusted] FILE…`: offline verification of captured
/// ceremonies (the case schema of `webauthn-vectors/README.md`).
package enum VerifyResponseCommand {
    static let usage = """
        usage: passkey-server verify-response [--trusted] FILE...

        Verifies each captured WebAuthn ceremony (JSON, webauthn-vectors schema) offline and
        prints one line per file:
          ok NAME format=... type=... alg=... up=... uv=... be=... bs=... signCount=...
          refused NAME reason=...
        Attestation policy is `any` (the server default); --trusted requires the x5c chain to
        verify to the file's trustAnchorsPEM at its verifyAt instant.
        Exit status: 0 when every file could be read and parsed, 2 otherwise.
        """

    /// Runs the command; returns the process exit code.
    package static func run(arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage)
            return 0
        }
        var trusted = false
        var files: [String] = []
        for argument in arguments {
            if argument == "--trusted" {
                trusted = true
            } else if argument.hasPrefix("-") {
                printError("error \(argument): unknown option")
                return 2
            } else {
                files.append(argument)
            }
        }
        guard !files.isEmpty else {
            printError(usage)
            return 2
        }
        var status: Int32 = 0
        for file in files {
            guard let line = verify(file: file, trusted: trusted) else {
                status = 2
                continue
            }
            print(line)
        }
        fflush(nil)
        return status
    }

    /// The output line for one file, or nil after printing an error.
    private static func verify(file: String, trusted: Bool) -> String? {
        guard let data = FileManager.default.contents(atPath: file) else {
            printError("error \(file): cannot read")
            return nil
        }
        switch CapturedCeremonyCheck.verify(data, trusted: trusted) {
        case .line(let line): return line
        case .error(let problem):
            printError("error \(file): \(problem)")
            return nil
        }
    }

    private static func printError(_ message: String) {
        fflush(nil)
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
