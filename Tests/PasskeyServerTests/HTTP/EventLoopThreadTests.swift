import Foundation
import PasskeyTestSupport
import Testing

/// The runtime of issue 24 through the real server: a sign-in is read, handled (every statement
/// of it) and answered on one event loop's thread, with no hand-off; a password sign-in, whose
/// hash is checked on the hashing threads, resumes on the loop that read it.
@Suite struct EventLoopThreadTests {
    /// The events of each request, split at each `.read`.
    private static func requests(_ events: [ThreadObserver.Event]) -> [(
        reader: Int?, path: String, rest: [ThreadObserver.Event]
    )] {
        var requests: [(reader: Int?, path: String, rest: [ThreadObserver.Event])] = []
        for event in events {
            if case .read(let reader, let path) = event {
                requests.append((reader, path, []))
            } else if !requests.isEmpty {
                requests[requests.count - 1].rest.append(event)
            }
        }
        return requests
    }

    @Test func aSignInsStatementsAndResponseRunOnTheLoopThatReadIt() async throws {
        let threads = ThreadObserver()
        try await withServer(environment: ["EVENT_LOOPS": "2"], threads: threads) { server, _ in
            #expect(server.server!.eventLoopCount == 2)
            let (_, email) = try await server.client.passwordUser()
            let (token, _) = try await server.client.passwordUser()
            var passkey = try TestPasskey()
            let added = try await server.client.addPasskey(&passkey, token: token)
            try #require(added.status == 204, "\(added.text)")
            threads.reset()
            let options = try await server.client.startSignIn()
            let finish = try await server.client.send(
                "POST", "/v1/passkeys/authentications/finish", json: try passkey.assertionBody(options: options))
            #expect(finish.status == 200, "\(finish.text)")
            let password = try await server.client.send(
                "POST", "/v1/sessions", json: ["email": email, "password": "correct horse battery"])
            #expect(password.status == 200, "\(password.text)")

            let requests = Self.requests(threads.all)
            #expect(
                requests.map(\.path) == [
                    "/v1/passkeys/authentications", "/v1/passkeys/authentications/finish", "/v1/sessions",
                ])
            for request in requests {
                let reader = try #require(request.reader, "\(request.path) was read by no loop")
                let statements = request.rest.filter { if case .statement = $0 { true } else { false } }
                #expect(!statements.isEmpty, "\(request.path) ran no statement")
                // Read, handled, every statement sent, and (the handler's end) answered on one loop.
                #expect(
                    request.rest.allSatisfy { event in
                        switch event {
                        case .handlerStart(let loop), .statement(let loop), .handlerEnd(let loop): loop == reader
                        case .read: false
                        }
                    }, "\(request.path) read by loop \(reader): \(request.rest)")
                #expect(request.rest.last == .handlerEnd(reader))
            }
        }
    }
}
