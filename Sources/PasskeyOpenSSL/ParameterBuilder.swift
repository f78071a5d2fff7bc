internal import COpenSSL

/// Owns an `OSSL_PARAM_BLD` and builds a public `EVP_PKEY` from it.
///
/// The builder keeps the name pointers and (for UTF-8 and octet strings) the value pointers
/// until `makeKey`: callers pass the shim's stable names and keep their buffers alive
/// around the whole push-and-build sequence.
final class ParameterBuilder {
    private let builder: OpaquePointer
    private var bigNumbers: [OpaquePointer] = []

    init() throws(OpenSSLError) {
        guard let builder = OSSL_PARAM_BLD_new() else { throw OpenSSLError.capture("OSSL_PARAM_BLD_new") }
        self.builder = builder
    }

    deinit {
        OSSL_PARAM_BLD_free(builder)
        for number in bigNumbers { BN_free(number) }
    }

    func pushUTF8(_ name: UnsafePointer<CChar>, _ value: UnsafeMutablePointer<CChar>?) throws(OpenSSLError) {
        guard OSSL_PARAM_BLD_push_utf8_string(builder, name, value, 0) == 1 else {
            throw OpenSSLError.capture("OSSL_PARAM_BLD_push_utf8_string")
        }
    }

    func pushOctets(_ name: UnsafePointer<CChar>, _ value: UnsafeBufferPointer<UInt8>) throws(OpenSSLError) {
        guard OSSL_PARAM_BLD_push_octet_string(builder, name, value.baseAddress, value.count) == 1 else {
            throw OpenSSLError.capture("OSSL_PARAM_BLD_push_octet_string")
        }
    }

    /// Pushes a big-endian unsigned integer (the BIGNUM lives until the builder dies).
    func pushBigNumber(_ name: UnsafePointer<CChar>, _ bigEndian: [UInt8]) throws(OpenSSLError) {
        let number = bigEndian.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        guard let number else { throw OpenSSLError.capture("BN_bin2bn") }
        bigNumbers.append(number)
        guard OSSL_PARAM_BLD_push_BN(builder, name, number) == 1 else {
            throw OpenSSLError.capture("OSSL_PARAM_BLD_push_BN")
        }
    }

    /// `EVP_PKEY_fromdata` with the pushed parameters, selecting a public key.
    func makeKey(algorithm: String) throws(OpenSSLError) -> OpaquePointer {
        guard let params = OSSL_PARAM_BLD_to_param(builder) else {
            throw OpenSSLError.capture("OSSL_PARAM_BLD_to_param")
        }
        defer { OSSL_PARAM_free(params) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else {
            throw OpenSSLError.capture("EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_fromdata_init(context) == 1 else { throw OpenSSLError.capture("EVP_PKEY_fromdata_init") }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata(context, &key, PASSKEY_EVP_PKEY_PUBLIC_KEY, params) == 1, let key else {
            throw OpenSSLError.capture("EVP_PKEY_fromdata")
        }
        return key
    }
}
