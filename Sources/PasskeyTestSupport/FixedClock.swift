package import Foundation
internal import PasskeyApplication
internal import Synchronization

/// A clock tests set and advance by hand.
package final class FixedClock: WallClock {
    private let current: Mutex<Date>

    package init(_ date: Date = Date(timeIntervalSince1970: 1_795_000_000)) {
        current = Mutex(date)
    }

    package var now: Date { current.withLock { $0 } }

    package func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    package func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
