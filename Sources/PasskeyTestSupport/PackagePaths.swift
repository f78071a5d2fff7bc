package import Foundation

/// Folders of this package and of `../shared`, found from this source file's path.
package enum PackagePaths {
    /// The package root (the folder with Package.swift).
    package static var root: URL {
        URL(fileURLWithPath: #filePath)  // …/Sources/PasskeyTestSupport/PackagePaths.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    package static var migrations: URL { root.appendingPathComponent("Migrations") }

    /// The built `passkey-server` executable: beside the test bundle (or up to four folders
    /// above it), else `.build/debug/passkey-server`.
    package static var serverExecutable: String {
        var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("passkey-server").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/passkey-server").path
    }

    /// `../shared` beside the package (present on developer machines and in CI).
    package static var shared: URL { root.deletingLastPathComponent().appendingPathComponent("shared") }
}
