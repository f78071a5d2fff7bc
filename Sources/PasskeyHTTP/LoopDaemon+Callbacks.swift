import CMicroHTTPD
import PasskeyEventLoop

#if canImport(Glibc)
    import Glibc
#endif

// libmicrohttpd's callbacks and the request flow, all on the daemon's loop thread (inside
// `MHD_run`). Every callback receives the daemon as an unretained context pointer (the daemon
// is attached to its loop, which holds it, until it is stopped) and the request's `RequestState`
// through `*req_cls`, retained from the URI callback to the completion callback.
extension LoopDaemon {
    /// Starts the daemon with these callbacks (closure literals that capture nothing).
    func startDaemon(flags: UInt32, address: UnsafePointer<sockaddr>) -> OpaquePointer? {
        let configuration = server.configuration
        return passkey_mhd_start_daemon(
            flags, address, UInt32(configuration.connectionTimeoutSeconds),
            UInt32(configuration.daemonConnectionLimit), configuration.connectionMemoryBytes,
            { daemon, connection, _, method, version, uploadData, uploadSize, requestContext in
                guard let daemon, let connection, let uploadSize, let requestContext else { return .NO }
                return LoopDaemon.from(daemon).access(
                    connection: connection, method: method, version: version,
                    uploadData: uploadData, uploadSize: uploadSize, requestContext: requestContext)
            },
            { daemon, uri, _ in
                guard let daemon else { return nil }
                return LoopDaemon.from(daemon).requestStarted(target: uri.map { String(cString: $0) } ?? "/")
            },
            { daemonPointer, connection, requestContext, _ in
                guard let daemonPointer else { return }
                let daemon = LoopDaemon.from(daemonPointer)
                if let connection { daemon.deadlines.awaitNextHead(UInt(bitPattern: connection)) }
                guard let requestContext, let pointer = requestContext.pointee else { return }
                requestContext.pointee = nil
                let context = Unmanaged<RequestState>.fromOpaque(pointer).takeRetainedValue()
                daemon.server.requestCompleted(context)
            },
            { daemon, connection, _, code in
                guard let daemon, let connection else { return }
                LoopDaemon.from(daemon).connection(connection, changed: code)
            },
            { daemon, format, arguments in
                let code = errno
                guard let daemon, let format, let arguments else { return }
                var buffer = [CChar](repeating: 0, count: 512)
                _ = vsnprintf(&buffer, buffer.count, format, arguments)
                var message = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                while message.last?.isNewline == true { message.removeLast() }
                LoopDaemon.from(daemon).server.record(diagnostic: message, errno: code)
            },
            Unmanaged.passUnretained(self).toOpaque())
    }

    private static func from(_ pointer: UnsafeMutableRawPointer) -> LoopDaemon {
        Unmanaged<LoopDaemon>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Connection callback: a connection was accepted (before any byte of it is read) or is
    /// closing. One over `maximumConnections` (counted over every loop) gets a 503 problem with
    /// `Connection: close` at once, written on the socket; one over the per-address limit is shut
    /// down without an answer. Either way its requests never reach the handler, and libmicrohttpd
    /// closes it once the client has gone.
    private func connection(_ connection: OpaquePointer, changed code: MHD_ConnectionNotificationCode) {
        let id = UInt(bitPattern: connection)
        guard code == .CONNECTION_NOTIFY_STARTED else {
            deadlines.closed(id)
            server.admission.closed(id)
            server.connectionClosed()
            return
        }
        let socket = passkey_mhd_connection_socket(connection)
        deadlines.opened(id, socket: socket)
        if !server.connectionOpened() {
            deadlines.answer(id, with: server.overloaded)
            return
        }
        if !server.admission.opened(id, peer: passkey_mhd_client_address(connection)), socket >= 0 {
            _ = Glibc.shutdown(socket, Int32(SHUT_RDWR))
        }
    }

    /// URI callback: a request line arrived. The result becomes the request's `*req_cls`.
    private func requestStarted(target: String) -> UnsafeMutableRawPointer {
        server.requestStarted()
        return Unmanaged.passRetained(RequestState(target: target)).toOpaque()
    }

    /// Access handler: called once after the headers, once per piece of body, once when the
    /// request is complete, and once more after the connection was resumed.
    private func access(
        connection: OpaquePointer, method rawMethod: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        let configuration = server.configuration
        let id = UInt(bitPattern: connection)
        let context: RequestState
        if let pointer = requestContext.pointee {
            context = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()
        } else {
            // Not expected (the URI callback runs first); the completion callback releases it.
            context = RequestState(target: "/")
            server.requestStarted()
            requestContext.pointee = Unmanaged.passRetained(context).toOpaque()
        }
        switch context.phase {
        case .headers:
            context.phase = .body
            deadlines.headArrived(id)
            // A connection the layer answered itself (over a limit) whose request was already in
            // the socket, or refused by the per-address limit: the handler never runs.
            if deadlines.isAnswered(id) || server.admission.isRefused(id) { return .NO }
            if let refusal = server.refusal(
                of: connection, method: rawMethod, version: version, target: context.target)
            {
                // Before any of the body is read: libmicrohttpd closes the connection after this
                // answer (`Connection: close`), so nothing after the head is ever parsed.
                deadlines.bodyArrived(id)
                context.refuseBody()
                context.phase = .responded
                return queue(refusal, on: connection)
            }
            if Self.declaredLength(of: connection, exceeds: configuration.maximumBodyBytes) {
                // Answer before reading the body; libmicrohttpd then reads no more of it and
                // closes the connection after the response.
                deadlines.bodyArrived(id)
                context.refuseBody()
                context.phase = .responded
                return queue(configuration.tooLarge(), on: connection)
            }
            return .YES
        case .body:
            if uploadSize.pointee > 0 {
                let bytes = UnsafeRawBufferPointer(start: uploadData, count: uploadSize.pointee)
                uploadSize.pointee = 0
                // Past its deadline the body is answered (408) already: the rest is dropped.
                if deadlines.isAnswered(id) {
                    context.refuseBody()
                    return .YES
                }
                return context.receive(bytes, limit: configuration.maximumBodyBytes) ? .YES : .NO
            }
            deadlines.bodyArrived(id)
            if deadlines.isAnswered(id) { return .NO }
            if context.tooLarge {
                context.phase = .responded
                return queue(configuration.tooLarge(), on: connection)
            }
            startHandler(for: context, method: rawMethod, connection: connection)
            return .YES
        case .handling(let slot):
            guard let response = slot.takeResponse() else { return .YES }
            server.delivered(slot)
            context.phase = .responded
            return queue(response, on: connection)
        case .responded:
            uploadSize.pointee = 0
            return .YES
        }
    }

    /// Suspends the connection, then runs the handler in a task on this loop (it starts once the
    /// current `MHD_run` returns) that resumes the connection when done.
    private func startHandler(
        for context: RequestState, method rawMethod: UnsafePointer<CChar>?, connection: OpaquePointer
    ) {
        let (path, query) = HTTPRequest.splitTarget(context.target)
        var request = HTTPRequest(
            method: HTTPMethod(rawValue: rawMethod.map { String(cString: $0) } ?? "GET"), path: path, query: query,
            headers: HTTPFields(Self.headers(of: connection)), body: context.takeBody(),
            remoteAddress: SocketAddress.text(of: passkey_mhd_client_address(connection)))
        request.eventLoopIndex = loop.index
        let slot = ResponseSlot(connection: connection, daemon: self)
        context.phase = .handling(slot)
        server.suspended(slot)
        MHD_suspend_connection(connection)
        // The task holds the server (through the daemon), so it outlives every handler.
        let server = server
        let task = Task(executorPreference: loop) {
            let response = await server.handler(request)
            slot.complete(with: response)
        }
        slot.attach(task)
    }

    /// Queues `response` (its body copied) on the connection.
    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let created = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return .NO }
        defer { MHD_destroy_response(created) }
        for (name, value) in response.headers {
            let lowercased = name.lowercased()
            guard lowercased != "content-length", lowercased != "transfer-encoding" else { continue }
            // Refused (and skipped) by libmicrohttpd when the name or value holds CR, LF or TAB.
            _ = MHD_add_response_header(created, name, value)
        }
        let status = (100...999).contains(response.status.code) ? response.status.code : 500
        return MHD_queue_response(connection, UInt32(status), created)
    }

    /// The request's header fields in order, names lowercased.
    static func headers(of connection: OpaquePointer) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values(
                connection, .HEADER_KIND,
                { list, _, name, value in
                    guard let list, let name else { return .YES }
                    list.assumingMemoryBound(to: [(name: String, value: String)].self).pointee.append(
                        (String(cString: name).lowercased(), value.map { String(cString: $0) } ?? ""))
                    return .YES
                }, pointer)
        }
        return headers
    }

    /// True when `Content-Length` announces more than `limit` bytes. A malformed value is left
    /// to libmicrohttpd, which answers 400 before calling the handler.
    private static func declaredLength(of connection: OpaquePointer, exceeds limit: Int) -> Bool {
        guard let value = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") else { return false }
        let digits = String(cString: value).utf8.drop(while: { $0 == 0x20 || $0 == 0x09 })
            .prefix(while: { (0x30...0x39).contains($0) })
        guard !digits.isEmpty else { return false }
        guard digits.count <= 18 else { return true }
        return Int(String(decoding: digits, as: UTF8.self)).map { $0 > limit } ?? true
    }
}
