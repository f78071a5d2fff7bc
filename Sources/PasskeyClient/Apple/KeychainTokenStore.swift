// The token store of an iOS or macOS app: one generic-password item in the Keychain. Part of
// PasskeyClient where the Security framework exists; on Linux compiled and tested as
// PasskeyClientGlue against the stand-in Security module (docs/ios.md).
#if canImport(Security)
    internal import Foundation
    internal import Security
    #if PASSKEY_CLIENT_GLUE
        public import PasskeyClient
    #endif

    /// A `PasskeyTokenStore` in the Keychain: one generic-password item (`service`, `account`)
    /// holding the JSON of the `PasskeyStoredToken`, readable after the device's first unlock
    /// and never restored to another device (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`).
    /// On macOS it is the data-protection keychain, as on iOS.
    ///
    ///     let client = PasskeyClient(baseURL: server, tokenStore: KeychainTokenStore())
    public struct KeychainTokenStore: PasskeyTokenStore {
        /// `kSecAttrService`: e.g. the app's bundle identifier.
        public let service: String
        /// `kSecAttrAccount`: which token of the service.
        public let account: String

        public init(service: String = "PasskeyClient", account: String = "access-token") {
            self.service = service
            self.account = account
        }

        /// The item, without its data: what every call looks it up by.
        private var item: [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: account,
                kSecUseDataProtectionKeychain as String: true,
            ]
        }

        public func load() throws -> PasskeyStoredToken? {
            var query = item
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess else { throw KeychainTokenStoreError(operation: .load, status: status) }
            guard let data = result as? Data else { throw KeychainTokenStoreError(operation: .load, status: nil) }
            do {
                return try JSONDecoder().decode(PasskeyStoredToken.self, from: data)
            } catch {
                throw KeychainTokenStoreError(operation: .load, status: nil)
            }
        }

        public func save(_ token: PasskeyStoredToken) throws {
            let data: Data
            do {
                data = try JSONEncoder().encode(token)
            } catch {
                throw KeychainTokenStoreError(operation: .save, status: nil)
            }
            let attributes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            var status = SecItemUpdate(item as CFDictionary, attributes as CFDictionary)
            if status == errSecItemNotFound {
                status = SecItemAdd(item.merging(attributes) { $1 } as CFDictionary, nil)
            }
            guard status == errSecSuccess else { throw KeychainTokenStoreError(operation: .save, status: status) }
        }

        public func clear() throws {
            let status = SecItemDelete(item as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw KeychainTokenStoreError(operation: .clear, status: status)
            }
        }
    }

    /// A Keychain call of `KeychainTokenStore` that failed.
    public struct KeychainTokenStoreError: Error, Sendable, Hashable, CustomStringConvertible {
        public let operation: PasskeyTokenStoreFailure.Operation
        /// The `OSStatus` of the Security call (e.g. -25308 `errSecInteractionNotAllowed` while the
        /// device is locked); nil when the item's data is not a stored token.
        public let status: Int32?

        public init(operation: PasskeyTokenStoreFailure.Operation, status: Int32?) {
            self.operation = operation
            self.status = status
        }

        public var description: String {
            if let status { return "Keychain \(operation.rawValue) failed with OSStatus \(status)" }
            return "Keychain \(operation.rawValue): the item is not a stored token"
        }
    }
#endif
