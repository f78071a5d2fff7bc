import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#endif

// libmicrohttpd's callbacks and the request flow. Every callback receives the server as an
// unretained context pointer (the daemon never outlives the server) and the request's
// `RequestState` through `*req_cls`, retained from the URI callback to the completion callback.
extension HTTPServer {
    /// Starts the daemon with this server's callbacks (closure literals that capture nothing).
    func startDaemon(flags: UInt32, address: UnsafePointer<sockaddr>) -> OpaquePointer? {
        passkey_mhd_start_daemon(
            flags, address, UInt32(configuration.threads), UInt32(configuration.connectionTimeoutSeconds),
            UInt32(configuration.maximumConnections), configuration.connectionMemoryBytes,
            { server, connection, _, method, version, uploadData, uploadSize, requestContext in
                guard let server, let connection, let uploadSize, let requestContext else { return .NO }
                return HTTPServer.from(server).access(
                    connection: connection, method: method, version: version,
                    uploadData: uploadData, uploadSize: uploadSize, requestContext: requestContext)
            },
            { server, uri, _ in
                guard let server else { return nil }
                return HTTPServer.from(server).requestStarted(target: uri.map { String(cString: $0) } ?? "/")
            },
            { serverPointer, connection, requestContext, _ in
                guard let serverPointer else { return }
                let server = HTTPServer.from(serverPointer)
                if let connection { server.headDeadlines.awaitNextHead(UInt(bitPattern: connection)) }
                guard let requestContext, let pointer = requestContext.pointee else { return }
                requestContext.pointee = nil
                let context = Unmanaged<RequestState>.fromOpaque(pointer).takeRetainedValue()
                server.requestCompleted(context)
            },
            { server, connection, _, code in
                guard let server, let connection else { return }
                HTTPServer.from(server).connection(connection, changed: code)
            },
            { server, format, arguments in
                let code = errno
                guard let server, let format, let arguments else { return }
                var buffer = [CChar](repeating: 0, count: 512)
                _ = vsnprintf(&buffer, buffer.count, format, arguments)
                var message = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                while message.last?.isNewline == true { message.removeLast() }
                HTTPServer.from(server).record(diagnostic: message, errno: code)
            },
            Unmanaged.passUnretained(self).toOpaque())
    }

    private static func from(_ pointer: UnsafeMutableRawPointer) -> HTTPServer {
        Unmanaged<HTTPServer>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Connection callback: a connection was accepted (before any byte of it is read) or is
    /// closing. One over the per-address limit is shut down at once: libmicrohttpd reads
    /// end-of-file, closes it without an answer and reports it closed like any other.
    private func connection(_ connection: OpaquePointer, changed code: MHD_ConnectionNotificationCode) {
        let id = UInt(bitPattern: connection)
        guard code == .CONNECTION_NOTIFY_STARTED else {
            headDeadlines.closed(id)
            admission.closed(id)
            return
        }
        let socket = passkey_mhd_connection_socket(connection)
        headDeadlines.opened(id, socket: socket)
        if !admission.opened(id, peer: passkey_mhd_client_address(connection)), socket >= 0 {
            _ = Glibc.shutdown(socket, Int32(SHUT_RDWR))
        }
    }

    /// URI callback: a request line arrived. The result becomes the request's `*req_cls`.
    private func requestStarted(target: String) -> UnsafeMutableRawPointer {
        state.withLock { $0.openRequests += 1 }
        return Unmanaged.passRetained(RequestState(target: target)).toOpaque()
    }

    /// Completion callback: the response was sent, or the connection closed.
    private func requestCompleted(_ context: RequestState) {
        let slot = context.slot
        slot?.abandon()
        changeState { state in
            state.openRequests -= 1
            if let slot { state.suspended[ObjectIdentifier(slot)] = nil }
        }
    }

    /// Access handler: called once after the headers, once per piece of body, once when the
    /// request is complete, and once more after the connection was resumed.
    private func access(
        connection: OpaquePointer, method rawMethod: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        let method = rawMethod.map { String(cString: $0) } ?? "GET"
        let context: RequestState
        if let pointer = requestContext.pointee {
            context = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()
        } else {
            // Not expected (the URI callback runs first); the completion callback releases it.
            context = RequestState(target: "/")
            state.withLock { $0.openRequests += 1 }
            requestContext.pointee = Unmanaged.passRetained(context).toOpaque()
        }
        switch context.phase {
        case .headers:
            context.phase = .body
            headDeadlines.headArrived(UInt(bitPattern: connection))
            // A connection over the per-address limit whose request was already in the socket:
            // closed without an answer, the handler never runs.
            if admission.isRefused(UInt(bitPattern: connection)) { return .NO }
            if let refusal = refusal(of: connection, method: rawMethod, version: version, target: context.target) {
                // Before any of the body is read: libmicrohttpd closes the connection after this
                // answer (`Connection: close`), so nothing after the head is ever parsed.
                context.refuseBody()
                context.phase = .responded
                return queue(refusal, on: connection)
            }
            if Self.declaredLength(of: connection, exceeds: configuration.maximumBodyBytes) {
                // Answer before reading the body; libmicrohttpd then reads no more of it and
                // closes the connection after the response.
                context.refuseBody()
                context.phase = .responded
                return queue(configuration.tooLarge(), on: connection)
            }
            return .YES
        case .body:
            if uploadSize.pointee > 0 {
                let bytes = UnsafeRawBufferPointer(start: uploadData, count: uploadSize.pointee)
                let keep = context.receive(bytes, limit: configuration.maximumBodyBytes)
                uploadSize.pointee = 0
                return keep ? .YES : .NO
            }
            if context.tooLarge {
                context.phase = .responded
                return queue(configuration.tooLarge(), on: connection)
            }
            startHandler(for: context, method: method, connection: connection)
            return .YES
        case .handling(let slot):
            guard let response = slot.takeResponse() else { return .YES }
            changeState { _ = $0.suspended.removeValue(forKey: ObjectIdentifier(slot)) }
            context.phase = .responded
            return queue(response, on: connection)
        case .responded:
            uploadSize.pointee = 0
            return .YES
        }
    }

    /// Suspends the connection, then runs the handler in a task that resumes it when done.
    private func startHandler(for context: RequestState, method: String, connection: OpaquePointer) {
        let (path, query) = HTTPRequest.splitTarget(context.target)
        let request = HTTPRequest(
            method: method, path: path, query: query, headers: Self.headers(of: connection),
            body: context.takeBody(), remoteAddress: SocketAddress.text(of: passkey_mhd_client_address(connection)))
        let slot = ResponseSlot(connection: connection)
        context.phase = .handling(slot)
        state.withLock { $0.suspended[ObjectIdentifier(slot)] = slot }
        MHD_suspend_connection(connection)
        // The task holds the server, so the server (and its daemon) outlives every handler.
        let task = Task(executorPreference: configuration.taskExecutor) {
            let response = await self.handler(request)
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
        let status = (100...999).contains(response.status) ? response.status : 500
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
