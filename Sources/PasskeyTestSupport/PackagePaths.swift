package import Foundation

/// Folders of this package and of `../shared`, found from this source file's path.
package enum PackagePaths {
    /// The package root (the folder with Package.swift).
    package static var root: URL {
        URL(fileURLWithPath: #filePath)  // …/Sources/PasskeyTestSupport/PackagePaths.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    package static var migrations: URL { root.appendingPathComponent("Migrations") }

    /// `../shared` beside the package (present on developer machines and in CI).
    package static var shared: URL { root.deletingLastPathComponent().appendingPathComponent("shared") }
}
