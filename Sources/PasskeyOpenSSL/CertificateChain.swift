internal import COpenSSL
package import Foundation

/// Path validation of an attestation chain with an `X509_STORE`.
package enum CertificateChain {
    /// Verifies that `leaf`, helped by `intermediates`, chains to one of `anchors` at `time`
    /// (signatures, validity periods, CA constraints). Returns false on any failure.
    package static func verify(
        leaf: Certificate, intermediates: [Certificate], anchors: [Certificate], at time: Date
    ) -> Bool {
        guard !anchors.isEmpty, let store = X509_STORE_new() else { return false }
        defer {
            X509_STORE_free(store)
            OpenSSLError.clearQueue()
        }
        for anchor in anchors where X509_STORE_add_cert(store, anchor.pointer) != 1 {
            // A duplicate anchor is reported as an error but is harmless.
            OpenSSLError.clearQueue()
        }
        guard let untrusted = passkey_x509_stack_new() else { return false }
        defer { passkey_x509_stack_free(untrusted) }
        for certificate in intermediates where passkey_x509_stack_push(untrusted, certificate.pointer) <= 0 {
            return false
        }
        guard let context = X509_STORE_CTX_new() else { return false }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, leaf.pointer, untrusted) == 1 else { return false }
        X509_STORE_CTX_set_time(context, 0, time_t(time.timeIntervalSince1970))
        return X509_verify_cert(context) == 1
    }
}
