// A TEST-ONLY STAND-IN for Apple's Security framework (the Keychain item calls a
// `KeychainTokenStore` makes), so that Keychain code type-checks and runs on Linux. Signatures
// copied by hand from Apple's documentation, with their availability; the "keychain" is a
// dictionary in memory. Never part of a product (Package.swift declares it on Linux hosts only).
// Test hooks are in StandInKeychain.swift.
public import Foundation
internal import Synchronization

/// `typealias OSStatus = Int32`
public typealias OSStatus = Int32
/// `CFDictionary` (toll-free bridged with `NSDictionary`).
public typealias CFDictionary = NSDictionary
/// `CFString` (toll-free bridged with `NSString`).
public typealias CFString = NSString
/// `typealias CFTypeRef = AnyObject`
public typealias CFTypeRef = AnyObject

/// `var errSecSuccess: OSStatus { get }`
public let errSecSuccess: OSStatus = 0
/// `var errSecItemNotFound: OSStatus { get }` (−25300)
public let errSecItemNotFound: OSStatus = -25300
/// `var errSecDuplicateItem: OSStatus { get }` (−25299)
public let errSecDuplicateItem: OSStatus = -25299
/// `var errSecInteractionNotAllowed: OSStatus { get }` (−25308: the device is locked)
public let errSecInteractionNotAllowed: OSStatus = -25308
/// `var errSecParam: OSStatus { get }` (−50)
public let errSecParam: OSStatus = -50

/// `let kSecClass: CFString` (iOS 2.0, macOS 10.6)
nonisolated(unsafe) public let kSecClass: CFString = "class"
/// `let kSecClassGenericPassword: CFString` (iOS 2.0, macOS 10.6)
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
/// `let kSecAttrService: CFString` (iOS 2.0, macOS 10.6)
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
/// `let kSecAttrAccount: CFString` (iOS 2.0, macOS 10.6)
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
/// `let kSecAttrAccessible: CFString` (iOS 4.0, macOS 10.9)
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
/// `let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString` (iOS 4.0, macOS 10.9)
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
/// `let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString`
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
/// `let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString`
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"
/// `let kSecAttrAccessGroup: CFString`
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp"
/// `let kSecValueData: CFString` (iOS 2.0, macOS 10.6)
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"
/// `let kSecReturnData: CFString` (iOS 2.0, macOS 10.6)
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
/// `let kSecMatchLimit: CFString` (iOS 2.0, macOS 10.6)
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
/// `let kSecMatchLimitOne: CFString` (iOS 2.0, macOS 10.6)
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"
/// `let kSecUseDataProtectionKeychain: CFString` (iOS 13.0, macOS 10.15)
@available(iOS 13.0, macOS 10.15, *)
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"

/// `func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus` (iOS 2.0, macOS 10.6)
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    StandInKeychain.add(attributes)
}

/// `func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus` (iOS 2.0, macOS 10.6)
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    StandInKeychain.copyMatching(query, result)
}

/// `func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus` (iOS 2.0, macOS 10.6)
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    StandInKeychain.update(query, attributesToUpdate)
}

/// `func SecItemDelete(_ query: CFDictionary) -> OSStatus` (iOS 2.0, macOS 10.6)
public func SecItemDelete(_ query: CFDictionary) -> OSStatus { StandInKeychain.delete(query) }

/// `let kSecAttrAccessControl: CFString` (iOS 8.0, macOS 10.10)
nonisolated(unsafe) public let kSecAttrAccessControl: CFString = "accc"

/// `CFAllocator` (a CF type; only ever passed as nil here).
public final class CFAllocator {}
/// `CFError` (toll-free bridged with `NSError`).
public typealias CFError = NSError

/// `struct SecAccessControlCreateFlags : OptionSet` (iOS 8.0, macOS 10.10).
public struct SecAccessControlCreateFlags: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// `static var userPresence`
    public static let userPresence = Self(rawValue: 1 << 0)
    /// `static var biometryAny`
    public static let biometryAny = Self(rawValue: 1 << 1)
    /// `static var biometryCurrentSet`
    public static let biometryCurrentSet = Self(rawValue: 1 << 3)
    /// `static var devicePasscode`
    public static let devicePasscode = Self(rawValue: 1 << 4)
}

/// `class SecAccessControl` (a CF type): the protection and the flags it was made with.
public final class SecAccessControl: @unchecked Sendable {
    public let protection: String
    public let flags: SecAccessControlCreateFlags

    init(protection: String, flags: SecAccessControlCreateFlags) {
        self.protection = protection
        self.flags = flags
    }

    /// How the stand-in keychain records it among an item's attributes.
    public var standInDescription: String { "access-control(\(protection),\(flags.rawValue))" }
}

/// `func SecAccessControlCreateWithFlags(_ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecAccessControl?`
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
    guard let protection = protection as? String else { return nil }
    return SecAccessControl(protection: protection, flags: flags)
}
