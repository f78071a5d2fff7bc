internal import Foundation
internal import Glibc

/// A real webhook receiver for tests: `scripts/webhook-receiver.py` (Python's HTTP server with the
/// Standard Webhooks reference library from `.tools/venv`) on 127.0.0.1, recording every request
/// and judging its signature with the secret the test gave for its name.
///
///     let receiver = try await TestWebhookReceiver.start()   // fails loudly if it cannot
///     let url = receiver.url("shop", .ok)                    // http://127.0.0.1:PORT/shop/ok
///     try receiver.setSecret(secret.text, for: "shop")
///     let received = try await receiver.waitFor(1, name: "shop")
///     #expect(received[0].verified == true)
///     await receiver.destroy()
package final class TestWebhookReceiver: @unchecked Sendable {
    package struct StartFailure: Error, CustomStringConvertible {
        package let description: String
    }

    /// What the receiver answers (the path's second segment).
    package enum Behaviour: Sendable {
        case ok
        case status(Int)
        case redirect
        case hang
        case big
        /// 503 to the first `n` requests of each `webhook-id`, then 204.
        case flaky(Int)

        var segment: String {
            switch self {
            case .ok: "ok"
            case .status(let code): "status-\(code)"
            case .redirect: "redirect"
            case .hang: "hang"
            case .big: "big"
            case .flaky(let n): "flaky-\(n)"
            }
        }
    }

    /// One request as it arrived.
    package struct Received: Decodable, Sendable {
        package let name: String
        package let behaviour: String
        package let id: String
        package let timestamp: String
        package let signature: String
        package let contentType: String
        package let body: String
        /// The reference library's verdict; nil when the test gave no secret for the name.
        package let verified: Bool?
        /// What the receiver answered (0: nothing, it hung).
        package let status: Int
        package let receivedAt: Double

        /// The body as JSON.
        package var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        }
    }

    package let port: Int
    private let state: URL
    private let child: ChildProcess.Running

    private init(port: Int, state: URL, child: ChildProcess.Running) {
        self.port = port
        self.state = state
        self.child = child
    }

    package static let python = PackagePaths.root.appendingPathComponent(".tools/venv/bin/python").path
    static let script = PackagePaths.root.appendingPathComponent("scripts/webhook-receiver.py").path

    /// Starts a receiver on a free port with an empty state folder.
    package static func start() async throws -> TestWebhookReceiver {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw StartFailure(
                description: "TestWebhookReceiver: \(python) is missing (scripts/deps.sh --with-test-tools)")
        }
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("webhooks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let log = state.appendingPathComponent("receiver.log").path
        let child = try ChildProcess.start([python, script, state.path], logFile: log)
        let portFile = state.appendingPathComponent("port")
        for _ in 0..<400 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(text) {
                return TestWebhookReceiver(port: port, state: state, child: child)
            }
            var status: Int32 = 0
            if waitpid(child.pid, &status, WNOHANG) == child.pid {
                let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw StartFailure(description: "TestWebhookReceiver: the receiver exited at start: \(output)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        child.signal(SIGKILL)
        throw StartFailure(description: "TestWebhookReceiver: no port within 20 s")
    }

    /// The endpoint URL for `name` answering with `behaviour`.
    package func url(_ name: String, _ behaviour: Behaviour = .ok) -> String {
        "http://127.0.0.1:\(port)/\(name)/\(behaviour.segment)"
    }

    /// The secret the receiver verifies `name`'s requests with from now on.
    package func setSecret(_ secret: String, for name: String) throws {
        try secret.write(
            to: state.appendingPathComponent("secrets").appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// Every request so far (to `name` only, when given), in arrival order.
    package func received(name: String? = nil) -> [Received] {
        guard let text = try? String(contentsOf: state.appendingPathComponent("log.jsonl"), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").compactMap {
            try? JSONDecoder().decode(Received.self, from: Data($0.utf8))
        }.filter { name == nil || $0.name == name }
    }

    /// Waits until at least `count` requests to `name` (and matching `where`) arrived; throws
    /// after `timeout`, saying what did arrive.
    @discardableResult
    package func waitFor(
        _ count: Int, name: String, timeout: Duration = .seconds(60), where matches: (Received) -> Bool = { _ in true }
    ) async throws -> [Received] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let found = received(name: name).filter(matches)
            if found.count >= count { return found }
            guard ContinuousClock.now < deadline else {
                throw StartFailure(
                    description: "TestWebhookReceiver: \(found.count) of \(count) requests to \(name) within \(timeout)"
                )
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Stops the receiver and deletes its state.
    package func destroy() async {
        child.signal(SIGTERM)
        _ = await child.exit()
        try? FileManager.default.removeItem(at: state)
    }
}
