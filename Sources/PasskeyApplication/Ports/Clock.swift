package import Foundation

/// The current time, as a port so tests can fix it.
package protocol Clock: Sendable {
    var now: Date { get }
}

/// The system's wall clock.
package struct SystemClock: Clock {
    package init() {}
    package var now: Date { Date() }
}
