package import Foundation
internal import Glibc
internal import PasskeyTestSupport

/// A real SMTP server for tests: Debian's `python3-aiosmtpd` (`/usr/bin/python3 -m aiosmtpd`)
/// listening on 127.0.0.1 and storing every message it accepts in a Maildir.
///
///     let smtp = try await TestSMTPServer.start()       // fails loudly if it cannot listen
///     // MAIL_URL=\(smtp.url) for the server under test…
///     let mail = try await smtp.waitForMessage(to: "ann@example.com")
///     #expect(mail.subject == "Your code")                // RFC 2047 decoded
///     #expect(mail.body.contains("123456"))               // transfer encoding decoded
///     await smtp.stop()                                  // refuses connections (a relay outage)…
///     try await smtp.restart()                           // …and listens again on the same port
///     smtp.destroy()                                     // stops it and removes the Maildir
///
/// Plain SMTP on loopback, as `MAIL_URL=smtp://127.0.0.1:PORT` allows.
package final class TestSMTPServer: @unchecked Sendable {
    package struct StartFailure: Error, CustomStringConvertible {
        package let description: String
    }

    package let port: Int
    /// The Maildir the messages land in (`new/`).
    package let maildir: URL
    private let log: URL
    private let lock = NSLock()
    private var child: ChildProcess.Running?

    /// `MAIL_URL` for a server under test.
    package var url: String { "smtp://127.0.0.1:\(port)" }

    private init(port: Int, maildir: URL) {
        self.port = port
        self.maildir = maildir
        self.log = maildir.deletingLastPathComponent().appendingPathComponent("\(maildir.lastPathComponent).log")
    }

    /// Starts a server on a free port (or `port`) with an empty Maildir of its own.
    package static func start(port: Int? = nil) async throws -> TestSMTPServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-\(UUID().uuidString)")
        let server = TestSMTPServer(port: try port ?? freePort(), maildir: folder)
        try await server.restart()
        return server
    }

    /// Starts the server (again) on the same port; returns once it accepts connections.
    package func restart() async throws {
        // aiosmtpd runs under a watchdog thread that exits it once its parent (the test process) is
        // gone, so a server shared by a whole test run, or one left by a crashed run, never lingers.
        let arguments = [
            "/usr/bin/python3", "-c", Self.launcher, "-n", "-l", "127.0.0.1:\(port)", "-c",
            "aiosmtpd.handlers.Mailbox", maildir.path,
        ]
        guard FileManager.default.isExecutableFile(atPath: arguments[0]) else {
            throw StartFailure(
                description: "TestSMTPServer: /usr/bin/python3 is missing (scripts/deps.sh --with-test-tools)")
        }
        let running = try ChildProcess.start(arguments, logFile: log.path)
        lock.withLock { child = running }
        for _ in 0..<200 {
            if Self.accepts(port: port) { return }
            var status: Int32 = 0
            if waitpid(running.pid, &status, WNOHANG) == running.pid {
                lock.withLock { child = nil }
                let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw StartFailure(
                    description: "TestSMTPServer: aiosmtpd exited at start (python3-aiosmtpd installed?): \(output)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        await stop()
        throw StartFailure(description: "TestSMTPServer: aiosmtpd did not listen on 127.0.0.1:\(port) within 10 s")
    }

    /// `python3 -c` program: `python3 -m aiosmtpd ARGS…` plus a thread that ends the process when
    /// its parent changes (the parent exited, however it ended).
    private static let launcher = """
        import os, runpy, sys, threading, time
        parent = os.getppid()
        def watch():
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(0)
        threading.Thread(target=watch, daemon=True).start()
        sys.argv = ["aiosmtpd"] + sys.argv[1:]
        runpy.run_module("aiosmtpd", run_name="__main__")
        """

    /// Stops the server (SIGTERM) and waits for it; the Maildir stays.
    package func stop() async {
        guard
            let running = lock.withLock({ () -> ChildProcess.Running? in
                defer { child = nil }
                return child
            })
        else {
            return
        }
        running.signal(SIGTERM)
        _ = await running.exit()
    }

    /// Stops the server and deletes its Maildir and log.
    package func destroy() async {
        await stop()
        try? FileManager.default.removeItem(at: maildir)
        try? FileManager.default.removeItem(at: log)
    }

    /// Every message received so far (to `recipient` only, when given), oldest first.
    package func messages(to recipient: String? = nil) -> [ReceivedMail] {
        let folders = ["new", "cur"].map { maildir.appendingPathComponent($0) }
        var found: [(Date, ReceivedMail)] = []
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names {
                let file = folder.appendingPathComponent(name)
                guard let data = FileManager.default.contents(atPath: file.path) else { continue }
                let mail = ReceivedMail(raw: Array(data))
                let created =
                    (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
                    ?? .distantPast
                found.append((created, mail))
            }
        }
        let all = found.sorted { $0.0 < $1.0 }.map(\.1)
        guard let recipient else { return all }
        return all.filter { $0.recipients.contains(recipient.lowercased()) }
    }

    /// Waits for the first message to `recipient` (polling the Maildir); throws after `timeout`.
    package func waitForMessage(to recipient: String, timeout: Duration = .seconds(20)) async throws -> ReceivedMail {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let mail = messages(to: recipient).first { return mail }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw StartFailure(description: "TestSMTPServer: no message to \(recipient) within \(timeout)")
    }

    /// A port nobody uses now, below the kernel's ephemeral range. `restart()` binds the same
    /// port again after `stop()`; a port from the ephemeral range (what binding port 0 gives) can
    /// meanwhile become the local port of any outgoing connection of a test running in parallel,
    /// and aiosmtpd then fails with EADDRINUSE (seen once in a run of the mail tests). Ports
    /// below that range are never handed out to outgoing connections.
    private static func freePort() throws -> Int {
        let ephemeralLow = ephemeralPortRangeStart()
        let candidates = 10_000..<max(ephemeralLow, 10_001)
        for _ in 0..<200 {
            let port = Int.random(in: candidates)
            if canBind(port: port) { return port }
        }
        throw StartFailure(description: "TestSMTPServer: no free port in \(candidates)")
    }

    /// The first port of /proc/sys/net/ipv4/ip_local_port_range (Linux's default 32768).
    private static func ephemeralPortRangeStart() -> Int {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32_768
    }

    /// Whether 127.0.0.1:`port` can be bound now (nothing listens on it or holds it).
    private static func canBind(port: Int) -> Bool {
        onNewSocket(port: port) { bind($0, $1, $2) }
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    private static func accepts(port: Int) -> Bool {
        onNewSocket(port: port) { connect($0, $1, $2) }
    }

    /// Calls `call` (bind or connect) with a new TCP socket and 127.0.0.1:`port`, closes the
    /// socket, and says whether the call succeeded.
    private static func onNewSocket(
        port: Int, _ call: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                call(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// Runs `body` with a fresh `TestSMTPServer`, destroyed afterwards (also when `body` throws).
@discardableResult
package func withSMTPServer<T: Sendable>(_ body: (TestSMTPServer) async throws -> T) async throws -> T {
    let server = try await TestSMTPServer.start()
    do {
        let value = try await body(server)
        await server.destroy()
        return value
    } catch {
        await server.destroy()
        throw error
    }
}
