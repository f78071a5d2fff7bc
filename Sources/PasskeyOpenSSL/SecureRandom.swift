internal import COpenSSL

/// Bytes from OpenSSL's CSPRNG (seeded from the OS; `RAND_bytes`).
package enum SecureRandom {
    package static func bytes(count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let ok = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        // Without entropy there is nothing safe to do: stop rather than issue weak secrets.
        precondition(ok == 1, "RAND_bytes failed")
        return bytes
    }
}
