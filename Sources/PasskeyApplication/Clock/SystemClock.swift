package import Foundation

/// The system's wall clock: the `WallClock` adapter for production.
package struct SystemClock: WallClock {
    package init() {}
    package var now: Date { Date() }
}
