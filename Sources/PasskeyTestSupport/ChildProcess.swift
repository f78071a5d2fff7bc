internal import Foundation
internal import Glibc

/// Runs a program with `posix_spawn` and waits for it with `waitpid`.
/// (`Foundation.Process` hangs on `pg_ctl start`: the postmaster inherits its pipe.)
package enum ChildProcess {
    package struct Failure: Error, CustomStringConvertible {
        package let command: [String]
        package let status: Int32

        package init(command: [String], status: Int32) {
            self.command = command
            self.status = status
        }

        package var description: String { "\(command.joined(separator: " ")) exited with status \(status)" }
    }

    /// Runs `arguments[0]` (a path) with the given arguments; stdout and stderr go to `logFile`
    /// (or /dev/null), stderr to `errorFile` instead when one is given. Throws unless it exits 0.
    package static func run(
        _ arguments: [String], logFile: String = "/dev/null", errorFile: String? = nil,
        environment: [String: String]? = nil
    ) throws {
        let child = try start(arguments, logFile: logFile, errorFile: errorFile, environment: environment)
        let code = child.wait()
        guard code == 0 else { throw Failure(command: arguments, status: code) }
    }

    /// The same, for async code: the exit is awaited on a thread of its own, so the caller's task
    /// does not block one of Swift's cooperative threads (two on a 2-core machine) while the
    /// child runs; blocked, they would starve every other test's tasks meanwhile.
    package static func run(
        _ arguments: [String], logFile: String = "/dev/null", errorFile: String? = nil,
        environment: [String: String]? = nil
    ) async throws {
        let child = try start(arguments, logFile: logFile, errorFile: errorFile, environment: environment)
        let code = await child.exit()
        guard code == 0 else { throw Failure(command: arguments, status: code) }
    }

    /// Starts `arguments[0]` without waiting; stdout and stderr go to `logFile` (stderr to
    /// `errorFile` when one is given).
    package static func start(
        _ arguments: [String], logFile: String, errorFile: String? = nil, environment: [String: String]? = nil
    ) throws -> Running {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logFile, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        if let errorFile {
            posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        // The child starts with no signal blocked and SIGTERM, SIGINT and SIGPIPE at their defaults:
        // posix_spawn would otherwise pass on the calling thread's mask (a dispatch thread blocks
        // nearly every signal), and `signal(SIGTERM)` would then never stop it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGTERM, SIGINT, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw Failure(command: arguments, status: -spawned) }
        return Running(pid: pid)
    }

    /// A started child process.
    package struct Running: Sendable {
        package let pid: Int32

        /// Sends a signal (e.g. SIGTERM).
        package func signal(_ number: Int32) { kill(pid, number) }

        /// `wait()` on a thread of its own, for async code.
        package func exit() async -> Int32 {
            await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: wait()) }.start()
            }
        }

        /// Waits for the exit; returns the exit code, or 128 + the signal number.
        package func wait() -> Int32 {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            let exited = (status & 0x7f) == 0
            return exited ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        }
    }

    /// True when this process runs as root (PostgreSQL then has to run as `postgres`).
    package static var isRoot: Bool { geteuid() == 0 }
}
