internal import COpenSSL
package import Foundation

/// A parsed DER X.509 certificate (an owned `X509`).
///
/// `@unchecked Sendable`: the certificate is never mutated after parsing; OpenSSL's
/// read accessors are safe from several threads once the extensions are cached (done in `init`).
package final class Certificate: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The DER bytes it was parsed from.
    package let der: [UInt8]

    /// Parses exactly one DER certificate; trailing bytes are refused.
    package init(der: [UInt8]) throws(OpenSSLError) {
        var parsed: OpaquePointer?
        let consumed: Int = der.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return -1 }
            var cursor: UnsafePointer<UInt8>? = base
            parsed = d2i_X509(nil, &cursor, buffer.count)
            guard let cursor else { return -1 }
            return cursor - base
        }
        guard let parsed else { throw OpenSSLError.capture("d2i_X509") }
        guard consumed == der.count else {
            X509_free(parsed)
            throw OpenSSLError(operation: "trailing bytes after certificate", diagnostics: [])
        }
        self.pointer = parsed
        self.der = der
        // Caches extensions (and flags invalid ones) so later reads do not mutate.
        _ = X509_check_purpose(parsed, -1, 0)
        OpenSSLError.clearQueue()
    }

    deinit { X509_free(pointer) }

    /// The X.509 version number (3 for a v3 certificate).
    package var version: Int { Int(X509_get_version(pointer)) + 1 }

    /// The values of one subject attribute, in order (UTF-8).
    package func subject(_ attribute: CertificateNameAttribute) -> [String] {
        guard let name = X509_get_subject_name(pointer) else { return [] }
        var values: [String] = []
        var index: Int32 = -1
        while true {
            index = X509_NAME_get_index_by_NID(name, attribute.nid, index)
            if index < 0 { break }
            guard let entry = X509_NAME_get_entry(name, index), let data = X509_NAME_ENTRY_get_data(entry) else {
                continue
            }
            var utf8: UnsafeMutablePointer<UInt8>?
            let length = ASN1_STRING_to_UTF8(&utf8, data)
            if length >= 0, let utf8 {
                values.append(String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self))
                CRYPTO_free(utf8, #fileID, #line)
            }
        }
        OpenSSLError.clearQueue()
        return values
    }

    /// How many attributes the subject name has (0 for the empty subject of a TPM AIK certificate).
    package var subjectAttributeCount: Int {
        guard let name = X509_get_subject_name(pointer) else { return 0 }
        return Int(X509_NAME_entry_count(name))
    }

    /// Basic constraints: nil when the extension is absent, else its `cA` flag.
    package var basicConstraintsCA: Bool? {
        switch passkey_x509_basic_constraints_ca(pointer) {
        case 0: return false
        case 1: return true
        default:
            OpenSSLError.clearQueue()
            return nil
        }
    }

    /// The raw `extnValue` contents (the DER inside the OCTET STRING) of the extension
    /// with this dotted OID, or nil when absent. A repeated extension counts as absent-and-invalid: nil.
    package func extensionValue(oid: String) -> [UInt8]? {
        guard let object = OBJ_txt2obj(oid, 1) else {
            OpenSSLError.clearQueue()
            return nil
        }
        defer { ASN1_OBJECT_free(object) }
        let index = X509_get_ext_by_OBJ(pointer, object, -1)
        guard index >= 0, X509_get_ext_by_OBJ(pointer, object, index) < 0,
            let ext = X509_get_ext(pointer, index), let data = X509_EXTENSION_get_data(ext),
            let bytes = ASN1_STRING_get0_data(data)
        else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(ASN1_STRING_length(data))))
    }

    /// The subject public key.
    package func publicKey() throws(OpenSSLError) -> PublicKey {
        guard let key = X509_get_pubkey(pointer) else { throw OpenSSLError.capture("X509_get_pubkey") }
        return PublicKey(handle: KeyHandle(owning: key))
    }

    /// Whether `time` lies in [notBefore, notAfter].
    package func isValid(at time: Date) -> Bool {
        var seconds = time_t(time.timeIntervalSince1970)
        let afterStart = X509_cmp_time(X509_get0_notBefore(pointer), &seconds) < 0
        let beforeEnd = X509_cmp_time(X509_get0_notAfter(pointer), &seconds) > 0
        return afterStart && beforeEnd
    }
}
