import NIOCore
import NIOPosix

/// Where the platform's executables run their Swift concurrency jobs: on the NIO event loops that serve the
/// connections, instead of a second pool of threads.
///
/// A request then stays on one thread from the socket read through its handler and back to the write, where it
/// otherwise crossed to the concurrency pool and back (with a futex wake each way): profiling identity's `/v1/users/me`
/// showed a quarter of its CPU in those hand-offs (docs/architecture.md, "Why the hot paths look this way"). The price
/// is the rule the platform already keeps: nothing blocks, and slow work (bcrypt, image decoding) runs on
/// `NIOThreadPool`.
public enum EventLoopExecutor {
    /// Installs NIO's event loops as the global executor. Call once, first thing in an executable's `main`, before
    /// any task starts; tests keep the default executor.
    public static func install() {
        _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
