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
    /// holding the JSON of the `PasskeyStoredToken`, by default readable only while the device is
    /// unlocked and never restored to another device
    /// (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`; an app that calls the server from
    /// background tasks chooses `.afterFirstUnlockThisDeviceOnly`). `accessGroup` shares it with
    /// the app's extensions (a keychain-access-groups entitlement). On macOS it is the
    /// data-protection keychain, as on iOS (it needs the keychain-access-groups entitlement too).
    ///
    ///     let client = PasskeyClient(baseURL: server, tokenStore: KeychainTokenStore())
    public struct KeychainTokenStore: PasskeyTokenStore {
        /// When the item can be read (`kSecAttrAccessible`); every choice stays on this device.
        public enum Accessibility: Sendable, Hashable {
            /// While the device is unlocked (the default).
            case whenUnlockedThisDeviceOnly
            /// After the first unlock since a restart, also while locked (background refreshes).
            case afterFirstUnlockThisDeviceOnly
            /// While unlocked, and only while the device has a passcode (deleted if it is removed).
            case whenPasscodeSetThisDeviceOnly

            var attribute: CFString {
                switch self {
                case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
                case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
                }
            }
        }

        /// Who must be present to read the token (`kSecAttrAccessControl`), beyond the device
        /// being unlocked: each read then asks for it (Face ID, the passcode), so load the token
        /// when the user can answer (`PasskeyClient.loadStoredToken()` off the main thread).
        public enum AccessControl: Sendable, Hashable {
            /// Biometry or the device passcode (`.userPresence`).
            case userPresence
            /// The biometry enrolled now; a new finger or face makes the token unreadable
            /// (`.biometryCurrentSet`).
            case biometryCurrentSet
            /// The device passcode (`.devicePasscode`).
            case devicePasscode

            var flags: SecAccessControlCreateFlags {
                switch self {
                case .userPresence: .userPresence
                case .biometryCurrentSet: .biometryCurrentSet
                case .devicePasscode: .devicePasscode
                }
            }
        }

        /// `kSecAttrService`: e.g. the app's bundle identifier.
        public let service: String
        /// `kSecAttrAccount`: which token of the service.
        public let account: String
        public let accessibility: Accessibility
        /// `kSecAttrAccessGroup`, e.g. `TEAMID.com.example.shared`; nil: the app's default group.
        public let accessGroup: String?
        /// Nil: the device being unlocked (`accessibility`) is enough.
        public let accessControl: AccessControl?

        public init(
            service: String = "PasskeyClient", account: String = "access-token",
            accessibility: Accessibility = .whenUnlockedThisDeviceOnly, accessGroup: String? = nil,
            accessControl: AccessControl? = nil
        ) {
            self.service = service
            self.account = account
            self.accessibility = accessibility
            self.accessGroup = accessGroup
            self.accessControl = accessControl
        }

        /// The item's protection: an access control that holds the accessibility, or the
        /// accessibility alone (the two attributes do not go together).
        private func protection() throws -> [String: Any] {
            guard let accessControl else { return [kSecAttrAccessible as String: accessibility.attribute] }
            guard
                let control = SecAccessControlCreateWithFlags(nil, accessibility.attribute, accessControl.flags, nil)
            else { throw KeychainTokenStoreError(operation: .save, status: nil) }
            return [kSecAttrAccessControl as String: control]
        }

        /// The item, without its data: what every call looks it up by.
        private var item: [String: Any] {
            var item: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: account,
                kSecUseDataProtectionKeychain as String: true,
            ]
            if let accessGroup { item[kSecAttrAccessGroup as String] = accessGroup }
            return item
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
            let attributes = try protection().merging([kSecValueData as String: data]) { $1 }
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
