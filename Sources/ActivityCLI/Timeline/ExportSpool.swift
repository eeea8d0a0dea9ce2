import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pieces of an export, one per activity, kept on disk until all are made.
///
/// Activities end children first, but the exports list them in the order they began; a piece
/// is made when its activity ends (and the activity forgotten), appended to an unlinked file in
/// `TMPDIR`, and read back in begin order at the end. Memory holds two words per activity; the
/// disk holds about the size of the output, and the file vanishes when the command exits.
final class ExportSpool {
    private let fd: Int32
    /// By sequence: where the piece starts in the file (-1: none yet), and its length.
    private var offsets: [Int] = []
    private var lengths: [Int] = []
    private var pending: [UInt8] = []
    private var flushed = 0
    /// The first `errno` a write failed with; later pieces are not written.
    private(set) var failure: SystemError?

    /// A spool in a new temporary file, or why there is none.
    static func make() -> Result<ExportSpool, ExportFailure> {
        switch TemporaryFile.make(prefix: "activity-export") {
        case .success(let fd): return .success(ExportSpool(fd: fd))
        case .failure(let error): return .failure(.temporaryFile(error))
        }
    }

    private init(fd: Int32) {
        self.fd = fd
        pending.reserveCapacity(Self.chunk)
    }

    deinit { close(fd) }

    private static let chunk = 1 << 20

    /// Keeps `text` as the piece of the activity begun `sequence`-th.
    func append(_ text: String, at sequence: Int) {
        guard failure == nil else { return }
        if sequence >= offsets.count {
            offsets += repeatElement(-1, count: sequence + 1 - offsets.count)
            lengths += repeatElement(0, count: sequence + 1 - lengths.count)
        }
        offsets[sequence] = flushed + pending.count
        lengths[sequence] = text.utf8.count
        pending.append(contentsOf: text.utf8)
        if pending.count >= Self.chunk { flush() }
    }

    /// Hands every piece to `body` in begin order with `separator` between them (and before the
    /// first when `beforeFirst`); pieces never made are skipped. Throws when the temporary file
    /// could not be written or read.
    func replay(
        separator: String, beforeFirst: Bool = false, _ body: (ArraySlice<UInt8>) throws(ExportFailure) -> Void
    )
        throws(ExportFailure)
    {
        flush()
        if let failure { throw .temporaryFile(failure) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var needsSeparator = beforeFirst
        let separatorBytes = Array(separator.utf8)
        for sequence in offsets.indices where offsets[sequence] >= 0 {
            if needsSeparator { try body(separatorBytes[...]) }
            needsSeparator = true
            let length = lengths[sequence]
            if length > buffer.count { buffer = [UInt8](repeating: 0, count: length) }
            let offset = offsets[sequence]
            let read = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(SystemError) in
                    try SystemCall.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[..<length]), at: offset)
                }
            }
            switch read {
            case .failure(let error): throw .temporaryFile(error)
            // A file we wrote ending early has been tampered with: say so rather than write less.
            case .success(let count) where count < length: throw .temporaryFile(SystemError("pread", code: EIO))
            case .success: break
            }
            try body(buffer[..<length])
        }
    }

    private func flush() {
        guard !pending.isEmpty, failure == nil else { return }
        let error = pending.withUnsafeBytes { SystemCall.writeAll(fd, $0) { _, _ in true } }
        if error != 0 { failure = SystemError("write", code: error) }
        flushed += pending.count
        pending.removeAll(keepingCapacity: true)
    }
}

/// Why an export stopped after reading began.
enum ExportFailure: Error {
    /// The temporary file could not be made, written or read.
    case temporaryFile(SystemError)
    /// Writing the output failed.
    case output(SystemError)
}
