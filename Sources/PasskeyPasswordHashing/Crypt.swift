internal import CCrypt

#if canImport(Glibc)
    internal import Glibc
#endif

/// The only caller of libxcrypt: computes bcrypt (`$2a$`, `$2b$`, `$2y$`) strings for legacy
/// hashes. Synchronous and CPU-heavy: call it only from a `BlockingWorkPool` thread.
enum Crypt {
    /// `crypt_rn(passphrase, setting)` with a zeroed, heap-allocated `struct crypt_data`
    /// (≈ 32 KiB, too large for a thread's stack to be a comfortable place).
    ///
    /// Returns nil when libxcrypt refuses the setting (`crypt_rn` returns NULL rather than
    /// `crypt_r`'s `"*0"`), or when the passphrase contains a NUL byte (C strings cannot hold it).
    static func hash(passphrase: [UInt8], setting: String) -> String? {
        guard !passphrase.contains(0) else { return nil }
        let size = MemoryLayout<crypt_data>.size
        let data = UnsafeMutableRawPointer.allocate(
            byteCount: size, alignment: MemoryLayout<crypt_data>.alignment)
        data.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        var phrase = passphrase.map { CChar(bitPattern: $0) }
        phrase.append(0)
        defer {
            // The work area and our copy hold password-derived state: wipe before freeing.
            explicit_bzero(data, size)
            data.deallocate()
            phrase.withUnsafeMutableBytes { bytes in
                if let base = bytes.baseAddress { explicit_bzero(base, bytes.count) }
            }
        }
        return phrase.withUnsafeBufferPointer { phrasePointer in
            setting.withCString { settingPointer in
                guard let output = crypt_rn(phrasePointer.baseAddress, settingPointer, data, Int32(size))
                else { return nil }
                return String(cString: output)
            }
        }
    }
}
