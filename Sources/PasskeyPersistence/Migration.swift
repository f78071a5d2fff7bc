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
}
