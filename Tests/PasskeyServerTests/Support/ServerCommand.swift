import Foundation
import PasskeyTestSupport

/// Runs the built `passkey-server` with `arguments`, the test process's environment plus
/// `environment` (without `PASSKEY_TEST_DATABASE_URL`, which the command must not read): its exit
/// status and everything it printed.
func runServerCommand(_ arguments: [String], _ environment: [String: String] = [:]) async throws -> (
    status: Int32, output: String
) {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString).log").path
    defer { try? FileManager.default.removeItem(atPath: log) }
    var env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    env.removeValue(forKey: "PASSKEY_TEST_DATABASE_URL")
    env.merge(environment) { $1 }
    var status: Int32 = 0
    do {
        try await ChildProcess.run([PackagePaths.serverExecutable] + arguments, logFile: log, environment: env)
    } catch let failure as ChildProcess.Failure {
        status = failure.status
    }
    return (status, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
}
