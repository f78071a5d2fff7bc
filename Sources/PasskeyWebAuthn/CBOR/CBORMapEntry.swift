/// One key/value pair of a CBOR map.
package struct CBORMapEntry: Hashable, Sendable {
    package let key: CBORValue
    package let value: CBORValue

    package init(key: CBORValue, value: CBORValue) {
        self.key = key
        self.value = value
    }
}
