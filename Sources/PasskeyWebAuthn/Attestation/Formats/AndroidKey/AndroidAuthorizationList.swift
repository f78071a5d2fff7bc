/// The parts of a Keymaster/KeyMint `AuthorizationList` (Android key attestation schema) that
/// WebAuthn L3 §8.4.2 checks. Every other tag is skipped; each tag may occur at most once.
struct AndroidAuthorizationList: Equatable {
    /// Tag numbers of the EXPLICIT context-specific members.
    static let purposeTag: UInt32 = 1
    static let allApplicationsTag: UInt32 = 600
    static let originTag: UInt32 = 702
    /// KM_ORIGIN_GENERATED: the key was generated in Keystore.
    static let originGenerated = 0
    /// KM_PURPOSE_SIGN.
    static let purposeSign = 2

    /// `purpose [1] EXPLICIT SET OF INTEGER`, empty when absent.
    let purposes: [Int]
    /// Whether `allApplications [600] EXPLICIT NULL` is present.
    let allApplications: Bool
    /// `origin [702] EXPLICIT INTEGER`, nil when absent.
    let origin: Int?

    /// Parses the SEQUENCE contents of an AuthorizationList; nil when malformed.
    init?(contents: [UInt8]) {
        guard let members = DERReader.elements(contents) else { return nil }
        var seen = Set<UInt32>()
        var purposes: [Int] = []
        var allApplications = false
        var origin: Int?
        for member in members {
            // Every member is [n] EXPLICIT (context-specific, constructed); tags ascend in DER.
            guard member.identifier & 0xe0 == 0xa0, seen.insert(member.tagNumber).inserted else { return nil }
            switch member.tagNumber {
            case Self.purposeTag:
                guard let set = Self.inner(member, tag: DERElement.set), let values = DERReader.elements(set) else {
                    return nil
                }
                for value in values {
                    guard value.hasTag(DERElement.integer), let purpose = value.smallInteger else { return nil }
                    purposes.append(purpose)
                }
            case Self.allApplicationsTag:
                allApplications = true
            case Self.originTag:
                var reader = DERReader(member.contents)
                guard let value = reader.nextElement(), value.hasTag(DERElement.integer), reader.isAtEnd,
                    let number = value.smallInteger
                else { return nil }
                origin = number
            default:
                continue
            }
        }
        self.purposes = purposes
        self.allApplications = allApplications
        self.origin = origin
    }

    /// The contents of the single element with `tag` inside an EXPLICIT wrapper.
    private static func inner(_ member: DERElement, tag: UInt8) -> [UInt8]? {
        DERReader.single(member.contents, tag: tag)
    }
}
