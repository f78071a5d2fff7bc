internal import Foundation
internal import PasskeyTestSupport

/// A PostgreSQL cluster of its own, in a temporary folder, for tests that need to stop and
/// restart the server. Runs as `postgres` when the tests run as root.
package final class ThrowawayCluster: @unchecked Sendable {
    // @unchecked: all stored properties are immutable after init.
    package let directory: String
    package let port: Int
    private let bin: String

    /// Starts a new cluster on a Unix socket in a fresh temporary folder.
    package init(port: Int = Int.random(in: 20_000..<40_000)) throws {
        guard let bin = Self.binDirectory() else {
            throw ChildProcess.Failure(command: ["locate PostgreSQL binaries"], status: 127)
        }
        self.bin = bin
        self.port = port
        let base = "/tmp/pk-\(UUID().uuidString.prefix(8).lowercased())"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: false)
        directory = base
        if ChildProcess.isRoot { try ChildProcess.run(["/bin/chown", "postgres:", base]) }
        try asPostgres([
            "\(bin)/initdb", "-D", "\(base)/data", "-U", "postgres", "-A", "trust", "-E", "UTF8",
            "--locale=C.UTF-8", "--no-sync",
        ])
        try start()
    }

    /// A libpq connection string for the `postgres` database of this cluster.
    package var conninfo: String { "host=\(directory) port=\(port) user=postgres dbname=postgres" }

    package func start() throws {
        try asPostgres([
            "\(bin)/pg_ctl", "-D", "\(directory)/data", "-l", "\(directory)/log", "-w", "-t", "30", "-o",
            "-k \(directory) -p \(port) -c listen_addresses='' -c fsync=off", "start",
        ])
    }

    package func stop() throws {
        try asPostgres(["\(bin)/pg_ctl", "-D", "\(directory)/data", "-m", "fast", "-w", "stop"])
    }

    /// Stops the server (if running) and deletes the folder.
    package func destroy() {
        try? stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func asPostgres(_ arguments: [String]) throws {
        if ChildProcess.isRoot {
            try ChildProcess.run(
                ["/sbin/runuser", "-u", "postgres", "--"] + arguments, logFile: "\(directory)/ctl.log")
        } else {
            try ChildProcess.run(arguments, logFile: "\(directory)/ctl.log")
        }
    }

    /// `PASSKEY_PG_BIN`, else the newest `/usr/lib/postgresql/*/bin`.
    static func binDirectory() -> String? {
        if let configured = ProcessInfo.processInfo.environment["PASSKEY_PG_BIN"] { return configured }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        return versions.compactMap(Int.init).sorted().last.map { "/usr/lib/postgresql/\($0)/bin" }
    }
}
