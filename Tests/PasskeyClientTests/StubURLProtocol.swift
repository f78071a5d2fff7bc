import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `URLProtocol` of a `StubServer`'s session: hands each request to the stub whose host it
/// names, and gives URLSession the stub's answer. URLSession creates protocol instances itself,
/// from the class, so the stubs are found through one table keyed by host (each stub has a host
/// of its own, so tests running in parallel never meet).
final class StubURLProtocol: URLProtocol {
    /// Host → stub; weak, so a stub leaves the table when its test lets it go.
    private static let stubs = Locked<[String: WeakStub]>([:])

    private struct WeakStub { weak var stub: StubServer? }

    static func register(_ stub: StubServer) { stubs.withLock { $0[stub.host] = WeakStub(stub: stub) } }

    static func unregister(host: String) { _ = stubs.withLock { $0.removeValue(forKey: host) } }

    override class func canInit(with request: URLRequest) -> Bool { true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let host = request.url?.host ?? ""
        guard let stub = Self.stubs.withLock({ $0[host]?.stub }) else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotFindHost))
            return
        }
        deliver(stub.answer(request, body: Self.body(of: request)))
    }

    private func deliver(_ answer: StubServer.Answer) {
        switch answer {
        case .response(let response, let body):
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            if !body.isEmpty { client?.urlProtocol(self, didLoad: body) }
            client?.urlProtocolDidFinishLoading(self)
        case .failure(let error):
            client?.urlProtocol(self, didFailWithError: error)
        case .held(let gate, let answer):
            // Not on the session's queue: its other requests go on meanwhile.
            let loading = UncheckedProtocol(value: self)
            DispatchQueue.global().async {
                gate.wait()
                loading.value.deliver(answer)
            }
        }
    }

    /// This loading, handed to the queue that waits for the gate (URLProtocol is not Sendable;
    /// only that queue touches it until the answer is delivered).
    private struct UncheckedProtocol: @unchecked Sendable { let value: StubURLProtocol }

    override func stopLoading() {}

    /// The body as sent: URLSession may hand it over as a stream instead of `httpBody`.
    private static func body(of request: URLRequest) -> Data? {
        if let body = request.httpBody { return body }
        guard let stream = request.httpBodyStream else { return nil }
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }
}
