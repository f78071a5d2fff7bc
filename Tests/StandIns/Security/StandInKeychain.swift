// TEST-ONLY, NOT APPLE API: the stand-in keychain's storage and the tests' hooks (see SecItem.swift).
public import Foundation
internal import Synchronization

/// The generic-password items of the stand-in, by class, service and account.
public enum StandInKeychain {
    private struct Key: Hashable {
        let itemClass: String
        let service: String
        let account: String
    }

    private static let state = Mutex<(items: [Key: [String: String]], data: [Key: Data], failNext: OSStatus?)>(
        ([:], [:], nil))

    /// The next call returns `status` and changes nothing (e.g. `errSecInteractionNotAllowed`).
    public static func failNext(with status: OSStatus) { state.withLock { $0.failNext = status } }

    /// Forgets every item.
    public static func reset() { state.withLock { $0 = ([:], [:], nil) } }

    /// The string attributes (e.g. `kSecAttrAccessible`) and data of one item, nil when absent.
    public static func item(service: String, account: String) -> (attributes: [String: String], data: Data?)? {
        state.withLock { state in
            let key = Key(itemClass: kSecClassGenericPassword as String, service: service, account: account)
            return state.items[key].map { ($0, state.data[key]) }
        }
    }

    private static func key(_ query: CFDictionary) -> Key? {
        guard let query = query as? [String: Any], let itemClass = query[kSecClass as String] as? String,
            let service = query[kSecAttrService as String] as? String,
            let account = query[kSecAttrAccount as String] as? String
        else { return nil }
        return Key(itemClass: itemClass, service: service, account: account)
    }

    private static func strings(_ attributes: [String: Any]) -> [String: String] {
        attributes.compactMapValues { ($0 as? String) ?? ($0 as? SecAccessControl)?.standInDescription }
    }

    static func add(_ attributes: CFDictionary) -> OSStatus {
        guard let key = key(attributes), let attributes = attributes as? [String: Any] else { return errSecParam }
        return state.withLock { state in
            if let status = state.failNext {
                state.failNext = nil
                return status
            }
            guard state.items[key] == nil else { return errSecDuplicateItem }
            state.items[key] = strings(attributes)
            state.data[key] = attributes[kSecValueData as String] as? Data
            return errSecSuccess
        }
    }

    static func copyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
        guard let key = key(query) else { return errSecParam }
        return state.withLock { state in
            if let status = state.failNext {
                state.failNext = nil
                return status
            }
            guard state.items[key] != nil else { return errSecItemNotFound }
            result?.pointee = state.data[key].map { $0 as NSData }
            return errSecSuccess
        }
    }

    static func update(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
        guard let key = key(query), let changes = attributesToUpdate as? [String: Any] else { return errSecParam }
        return state.withLock { state in
            if let status = state.failNext {
                state.failNext = nil
                return status
            }
            guard state.items[key] != nil else { return errSecItemNotFound }
            state.items[key]?.merge(strings(changes)) { $1 }
            if let data = changes[kSecValueData as String] as? Data { state.data[key] = data }
            return errSecSuccess
        }
    }

    static func delete(_ query: CFDictionary) -> OSStatus {
        guard let key = key(query) else { return errSecParam }
        return state.withLock { state in
            if let status = state.failNext {
                state.failNext = nil
                return status
            }
            guard state.items.removeValue(forKey: key) != nil else { return errSecItemNotFound }
            state.data[key] = nil
            return errSecSuccess
        }
    }
}
