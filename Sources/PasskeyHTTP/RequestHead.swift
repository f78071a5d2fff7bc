import CMicroHTTPD

/// The strict checks on a request head, run on the first call of the access handler, before
/// any of the body is read. They refuse what parsers in front of or behind this server could
/// read differently (request smuggling).
///
/// libmicrohttpd 0.9.75 tolerates bare LF line ends and folded lines and keeps whitespace before
/// a header's colon in the name, and it exposes the head only after parsing it. It parses in
/// place: the head stays in the connection's read buffer from the method's first byte for
/// `MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE` bytes, with each CRLF turned into two NUL bytes (a
/// bare LF into one), the colon after a field name and the spaces of the request line into one
/// NUL each, and the names and values it reports pointing into that buffer. `layout` walks that
/// buffer along the reported fields and accepts only the exact shape of a head written with CRLF
/// and one line per field; anything else (bare LF anywhere, a folded line, a field libmicrohttpd
/// rewrote or a NUL inside a value) is refused. This depends on 0.9.75's parser; the tests in
/// `HTTPServerSmugglingTests` pin it.
enum RequestHead {
    enum Verdict: Equatable {
        case acceptable
        /// 400: malformed or ambiguous.
        case malformed
        /// 431: longer than `maximumHeadBytes`.
        case tooLarge
    }

    /// Checks the head of the request now on `connection`.
    static func verdict(
        connection: OpaquePointer, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>, target: String,
        headers: [(name: String, value: String)], maximumHeadBytes: Int
    ) -> Verdict {
        let size = Int(passkey_mhd_request_head_size(connection))
        guard size > 0 else { return .malformed }
        guard size <= maximumHeadBytes else { return .tooLarge }
        let buffer = UnsafeRawBufferPointer(start: UnsafeRawPointer(method), count: size)
        guard layout(of: buffer, version: UnsafeRawPointer(version), fields: fieldPointers(of: connection)),
            target.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F })
        else { return .malformed }
        return framingIsUnambiguous(headers, http11: String(cString: version) == "HTTP/1.1") ? .acceptable : .malformed
    }

    /// `Host`, `Content-Length` and `Transfer-Encoding` leave one reading only: one `Host` (which
    /// HTTP/1.1 requires), no two different lengths, no length together with a transfer coding,
    /// and no transfer coding but exactly `chunked` (and none in HTTP/1.0).
    static func framingIsUnambiguous(_ headers: [(name: String, value: String)], http11: Bool) -> Bool {
        func values(_ name: String) -> [String] {
            headers.filter { $0.name == name }.map { trimmingOWS($0.value) }
        }
        let hosts = values("host")
        let lengths = values("content-length")
        let codings = values("transfer-encoding")
        guard hosts.count == 1 || (hosts.isEmpty && !http11) else { return false }
        guard Set(lengths).count <= 1 else { return false }
        guard !codings.isEmpty else { return true }
        return http11 && lengths.isEmpty && codings.count == 1 && codings[0].lowercased() == "chunked"
    }

    /// The (name, value) pointers of the header fields, in the order received.
    private static func fieldPointers(
        of connection: OpaquePointer
    ) -> [(name: UnsafePointer<CChar>, value: UnsafePointer<CChar>?)] {
        var fields: [(name: UnsafePointer<CChar>, value: UnsafePointer<CChar>?)] = []
        withUnsafeMutablePointer(to: &fields) { pointer in
            _ = MHD_get_connection_values(
                connection, .HEADER_KIND,
                { list, _, name, value in
                    guard let list, let name else { return .YES }
                    list.assumingMemoryBound(
                        to: [(name: UnsafePointer<CChar>, value: UnsafePointer<CChar>?)].self
                    ).pointee.append((name, value))
                    return .YES
                }, pointer)
        }
        return fields
    }

    /// True when `buffer` is exactly `method SP target SP version CRLF (name ":" OWS value CRLF)*
    /// CRLF` as libmicrohttpd left it (see the type's comment).
    private static func layout(
        of buffer: UnsafeRawBufferPointer, version: UnsafeRawPointer,
        fields: [(name: UnsafePointer<CChar>, value: UnsafePointer<CChar>?)]
    ) -> Bool {
        guard let base = buffer.baseAddress else { return false }
        /// The offset of `pointer` in the head, if it lies inside it.
        func offset(_ pointer: UnsafeRawPointer) -> Int? {
            let distance = base.distance(to: pointer)
            return (0..<buffer.count).contains(distance) ? distance : nil
        }
        /// The length of the NUL-terminated string at `start`, if it ends inside the head.
        func length(at start: Int) -> Int? {
            buffer[start...].firstIndex(of: 0).map { $0 - start }
        }
        /// True when the two bytes at `position` are a line end that was CRLF.
        func lineEnd(at position: Int) -> Bool {
            position + 1 < buffer.count && buffer[position] == 0 && buffer[position + 1] == 0
        }
        // Request line: the method (a token) and one space, …, one space and the version.
        guard let methodLength = length(at: 0), methodLength > 0,
            buffer[0..<methodLength].allSatisfy(isTokenByte),
            let versionStart = offset(version), versionStart > methodLength + 2,
            buffer[methodLength + 1] != 0x20, buffer[versionStart - 1] == 0,
            let versionLength = length(at: versionStart), lineEnd(at: versionStart + versionLength)
        else { return false }
        var position = versionStart + versionLength + 2
        for field in fields {
            guard offset(field.name) == position, let nameLength = length(at: position), nameLength > 0,
                buffer[position..<position + nameLength].allSatisfy(isTokenByte)
            else { return false }
            let afterColon = position + nameLength + 1
            guard let value = field.value, let valueStart = offset(value), valueStart >= afterColon,
                buffer[afterColon..<valueStart].allSatisfy({ $0 == 0x20 || $0 == 0x09 }),
                let valueLength = length(at: valueStart),
                buffer[valueStart..<valueStart + valueLength].allSatisfy(isFieldValueByte),
                lineEnd(at: valueStart + valueLength)
            else { return false }
            position = valueStart + valueLength + 2
        }
        return position + 2 == buffer.count && lineEnd(at: position)
    }

    /// RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// RFC 9110 field-value bytes: visible ASCII, SP, HTAB and obs-text; no CR, LF, NUL or DEL.
    private static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
    }

    /// `text` without leading and trailing spaces and tabs.
    private static func trimmingOWS(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
            let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
