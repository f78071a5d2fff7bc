package import Foundation

/// One SQL file of `Migrations/`, named `NNNN_description.sql`.
package struct Migration: Hashable, Sendable {
    /// The numeric prefix; migrations apply in this order.
    package let version: Int
    package let name: String
    package let sql: String

    package init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// Reads every `NNNN_*.sql` file of a folder, in version order. Two files with one version are an error.
    package static func load(from directory: URL) throws(MigrationError) -> [Migration] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .unreadable(path: directory.path)
        }
        var migrations: [Migration] = []
        for name in names where name.hasSuffix(".sql") {
            guard let underscore = name.firstIndex(of: "_"), let version = Int(name[..<underscore]) else {
                throw .badFileName(name)
            }
            let url = directory.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: url.path),
                let sql = String(data: data, encoding: .utf8)
            else { throw .unreadable(path: url.path) }
            migrations.append(Migration(version: version, name: name, sql: sql))
        }
        migrations.sort { $0.version < $1.version }
        for (a, b) in zip(migrations, migrations.dropFirst()) where a.version == b.version {
            throw .duplicateVersion(a.version)
        }
        return migrations
    }

    /// Where the SQL files are: `PASSKEY_MIGRATIONS_DIR`, else `Migrations/` in the working
    /// directory, else `Migrations/` beside the executable or one of its parents (a build folder).
    package static func locateDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let fileManager = FileManager.default
        func isDirectory(_ url: URL) -> Bool {
            var isDir: ObjCBool = false
            return fileManager.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue
        }
        if let configured = environment["PASSKEY_MIGRATIONS_DIR"], !configured.isEmpty {
            return URL(fileURLWithPath: configured)
        }
        let cwd = URL(fileURLWithPath: fileManager.currentDirectoryPath).appendingPathComponent("Migrations")
        if isDirectory(cwd) { return cwd }
        var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = folder.appendingPathComponent("Migrations")
            if isDirectory(candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }
}
