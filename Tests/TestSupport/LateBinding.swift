import Synchronization

/// A value set after the closure that reads it was created: lets a NIO channel initializer reach the
/// server object that the bind produces.
final class LateBinding<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)

    var value: Value? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
