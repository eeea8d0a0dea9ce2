#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A new pseudo-terminal: its master side, close-on-exec, and the path of its slave
/// (`posix_openpt`, `grantpt`, `unlockpt`, then the slave's name).
package enum PseudoTerminalDevice {
    /// Opens a master (`O_RDWR | O_NOCTTY`, close-on-exec) and returns it with its slave's path.
    /// - Throws: ``SystemError`` of the call that failed (`ENOSYS` where the C library lacks it).
    package static func open() throws(SystemError) -> (master: Int32, slavePath: String) {
        #if os(Linux)
            guard let functions = Functions.found else { throw SystemError("posix_openpt", code: ENOSYS) }
            let master = functions.open(O_RDWR | O_NOCTTY | O_CLOEXEC)
            guard master >= 0 else { throw SystemError("posix_openpt") }
            var name = [CChar](repeating: 0, count: 128)
            guard functions.grant(master) == 0, functions.unlock(master) == 0,
                functions.name(master, &name, name.count) == 0
            else {
                let error = SystemError("grantpt")
                SystemCall.close(master)
                throw error
            }
            return (master, String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        #elseif canImport(Darwin)
            // Darwin's posix_openpt takes no O_CLOEXEC: set just after, so a child another thread
            // spawns in between may inherit the master (as with Darwin's pipes).
            let master = posix_openpt(O_RDWR | O_NOCTTY)
            guard master >= 0 else { throw SystemError("posix_openpt") }
            _ = fcntl(master, F_SETFD, FD_CLOEXEC)
            // ptsname's buffer is static: a pty is opened once per run, on one thread.
            guard grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
                let error = SystemError("grantpt")
                SystemCall.close(master)
                throw error
            }
            return (master, String(cString: name))
        #else
            throw SystemError("posix_openpt", code: ENOSYS)
        #endif
    }

    #if os(Linux)
        /// posix_openpt(3), grantpt(3), unlockpt(3) and ptsname_r(3), looked up at run time: the
        /// Glibc module map hides `<stdlib.h>`'s X/Open functions from Swift.
        private struct Functions {
            let open: @convention(c) (Int32) -> Int32
            let grant: @convention(c) (Int32) -> Int32
            let unlock: @convention(c) (Int32) -> Int32
            let name: @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

            static let found: Functions? = {
                func symbol<T>(_ name: String, as type: T.Type) -> T? {
                    dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: type) }
                }
                guard let open = symbol("posix_openpt", as: (@convention(c) (Int32) -> Int32).self),
                    let grant = symbol("grantpt", as: (@convention(c) (Int32) -> Int32).self),
                    let unlock = symbol("unlockpt", as: (@convention(c) (Int32) -> Int32).self),
                    let name = symbol(
                        "ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32).self)
                else { return nil }
                return Functions(open: open, grant: grant, unlock: unlock, name: name)
            }()
        }
    #endif
}
